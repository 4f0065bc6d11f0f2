#!/usr/bin/env node

// A reader that goes away (`trecscore ... | head`) ends the output quietly, not with a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw e
  })
}

// The trec_eval drop-in loads only its own modules (faster start-up); everything else goes through
// the full command line.
const argv = process.argv.slice(2)
const run =
  argv[0] === 'trec-eval'
    ? import('../dist/trec-eval/process-entry.js').then((m) => m.trecEvalProcess(argv.slice(1)))
    : import('../dist/cli/main.js').then((m) => m.main(argv))
run.then((code) => {
  process.exitCode = code
})
