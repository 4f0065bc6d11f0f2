// Loaded into each command the hostile-input suite runs (`node --import`): at exit, writes the
// process's peak resident memory (KiB) to the file named by TRECSCORE_RSS_PROBE.
import { writeFileSync } from 'node:fs'

const out = process.env.TRECSCORE_RSS_PROBE
if (out) {
  process.on('exit', () => {
    try {
      writeFileSync(out, String(process.resourceUsage().maxRSS))
    } catch {
      // the probe must never change the command's outcome
    }
  })
}
