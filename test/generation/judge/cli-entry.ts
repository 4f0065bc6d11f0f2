// Runs the trecscore CLI from source (tsx), so the judge CLI tests need no build.
import { main } from '../../../src/cli/main.js'

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
