#!/usr/bin/env node
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'

// V8's allocation-site pretenuring can decide in mid-run that the short-lived objects made for
// each query are long-lived, and allocate them in the old generation, where they pile up until a
// full collection: a million one-document queries peaked at 620 MB instead of 330 MB. Speed on
// large runs is the same without it (README "Performance").
setFlagsFromString('--no-allocation-site-pretenuring')
// `compare` keeps every run's per-query values and then builds its tables on top: V8's default
// heap growth let a million one-document queries peak at 570 MB (1.1 KB a query for two runs);
// sized for memory it peaks at 440 MB, for about 10% more time.
if (process.argv[2] === 'compare') setFlagsFromString('--optimize-for-size')
// `trec-eval -m all_trec` runs about a hundred measure functions, each hot enough for TurboFan,
// and every worker thread compiles them again: with V8's default inlining budget the compiler
// threads used about 0.75 s of CPU on a 1.4 s run, competing with the two reading threads for
// two cores. A smaller budget cuts that by a fifth for the same code speed (README
// "Performance"); it applies to worker threads too.
if (process.argv[2] === 'trec-eval' || process.argv[2] === 'evaluate')
  setFlagsFromString('--max-inlined-bytecode-size=100')

// A reader that goes away (`trecscore ... | head`) ends the output quietly, not with a trace; any
// other failure to write (a full disk, a closed terminal) is one line and exit code 2.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    if (stream === process.stdout) {
      try {
        process.stderr.write(`trecscore: cannot write the output: ${e.message}\n`)
      } catch {}
    }
    process.exit(2)
  })
}

/** One line on stderr and exit code 2, for a trecscore that cannot start. */
function cannotStart(e) {
  const dist = fileURLToPath(new URL('../dist', import.meta.url))
  const missing = e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(dist)
  process.stderr.write(
    missing
      ? 'trecscore is not built: run `npm run build`\n'
      : `trecscore cannot start: ${String(e?.message ?? e).split('\n')[0]} (run \`npm install\`)\n`,
  )
  process.exit(2)
}

// The trec_eval drop-in loads only its own modules (faster start-up); everything else goes through
// the full command line. Only a failure to load trecscore is caught here: errors while a command
// runs are its own to report.
// The CPU probe goes first: its window (idle ticks in /proc/stat) then covers start-up, and the
// thread count for a large run follows what the machine has to spare now (src/io/cpu-idle.ts).
const argv = process.argv.slice(2)
const run = import('../dist/io/cpu-idle.js')
  .catch(() => undefined)
  .then(() =>
    argv[0] === 'trec-eval'
      ? import('../dist/trec-eval/process-entry.js').then(
          (m) => () => m.trecEvalProcess(argv.slice(1)),
          cannotStart,
        )
      : import('../dist/cli/main.js').then((m) => () => m.main(argv), cannotStart),
  )
run
  .then((start) => start())
  .then((code) => {
    process.exitCode = code
  })
