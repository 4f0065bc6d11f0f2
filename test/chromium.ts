/**
 * Chromium for the browser tests: Debian's `/usr/bin/chromium` driven by playwright-core (no
 * browser download), the flags every suite launches it with, and the rule for its absence: under
 * CI a failing test says what to install; elsewhere the suite is skipped with a warning.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

export const CHROMIUM = '/usr/bin/chromium'

/** Headless, no sandbox (root in containers), and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Whether Chromium is installed. When it is not, registers a failing `suite` test under CI, or
 * warns that `file` is skipped; the caller wraps its suite in `describe.skipIf(!…)`.
 */
export function haveChromium(file: string, suite: string): boolean {
  if (existsSync(CHROMIUM)) return true
  if (process.env['CI'])
    describe(suite, () => {
      it('needs /usr/bin/chromium under CI', () => {
        expect.fail(`${CHROMIUM} is missing but CI is set: CI must apt-get install chromium`)
      })
    })
  else console.warn(`${file}: SKIPPED: ${CHROMIUM} not found (apt-get install chromium)`)
  return false
}
