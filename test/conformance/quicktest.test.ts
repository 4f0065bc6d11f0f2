/**
 * trec_eval's own test suite ("make quicktest" of NIST trec_eval 10.0) replayed on the drop-in:
 * each of its commands must exit 0 and print exactly the expected file. The data is upstream's
 * and is read in place from ../shared/conformance/trec_eval-quicktest (never copied into the
 * repository); without that folder the suite is skipped, visibly.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDropIn } from './run-cases.js'

const ROOT = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'shared',
  'conformance',
  'trec_eval-quicktest',
)

interface QuicktestCommand {
  readonly id: string
  readonly args: readonly string[]
  readonly expected: string
}

/** Options of trec_eval that take a file name (resolved against the data folder). */
const FILE_OPTIONS = new Set(['-Z', '--Zscore'])

/** Resolve `-Z file` against the data folder; the two trailing operands are left to runDropIn. */
function resolveFileOptions(args: readonly string[]): string[] {
  return args.map((a, i) => (i > 0 && FILE_OPTIONS.has(args[i - 1]!) ? join(ROOT, a) : a))
}

if (!existsSync(join(ROOT, 'commands.json'))) {
  console.warn(`quicktest: data folder missing (${ROOT}); trec_eval quicktest conformance skipped`)
  describe.skip(`trec_eval quicktest (data folder missing: ${ROOT})`, () => {
    it('needs shared/conformance/trec_eval-quicktest', () => {})
  })
} else {
  const commands = JSON.parse(
    readFileSync(join(ROOT, 'commands.json'), 'utf8'),
  ) as QuicktestCommand[]
  describe('trec_eval 10.0 quicktest', () => {
    it('lists the 15 upstream commands', () => expect(commands).toHaveLength(15))
    for (const cmd of commands) {
      it(`${cmd.id}: trec_eval ${cmd.args.join(' ')}`, async () => {
        const out = await runDropIn(resolveFileOptions(cmd.args), ROOT, 2)
        expect(out.stderr).toBe('')
        expect(out.code).toBe(0)
        expect(out.stdout).toBe(readFileSync(join(ROOT, cmd.expected), 'latin1'))
      })
    }
  })
}
