#!/usr/bin/env node
import { main } from '../dist/cli/main.js'

// A reader that goes away (`trecscore ... | head`) ends the output quietly, not with a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw e
  })
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
