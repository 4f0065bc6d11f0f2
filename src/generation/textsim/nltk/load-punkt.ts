/**
 * Edge: reads NLTK's `punkt_tab` files of one language (`nltk_data/tokenizers/punkt_tab/english/`)
 * from a folder. They are NLTK's data, not bundled with trecscore; users pass `--punkt DIR`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { InputIssue } from '../../../errors/issues.js'
import { InputError } from '../../../errors/trecscore-error.js'
import { LineSplitter } from '../../../io/lines.js'
import {
  PUNKT_FILE_NAMES,
  type PunktFileTexts,
  type PunktParameters,
  parsePunktParameters,
} from './punkt.js'

/**
 * Loads `abbrev_types.txt`, `collocations.tab`, `sent_starters.txt` and `ortho_context.tab`
 * from `dir`. A missing or unreadable file, invalid UTF-8 or a malformed line is an
 * {@link InputError} listing every problem with its file (and line).
 */
export async function loadPunktParameters(dir: string): Promise<PunktParameters> {
  const keys = Object.keys(PUNKT_FILE_NAMES) as Array<keyof PunktFileTexts>
  const issues: InputIssue[] = []
  const texts: Partial<Record<keyof PunktFileTexts, string>> = {}
  const decoder = new TextDecoder('utf-8', { fatal: true })
  await Promise.all(
    keys.map(async (k) => {
      const file = join(dir, PUNKT_FILE_NAMES[k])
      let bytes: Uint8Array
      try {
        bytes = await readFile(file)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        const reason =
          code === 'ENOENT'
            ? `no such file (expected NLTK's punkt_tab files ${Object.values(PUNKT_FILE_NAMES).join(', ')} in ${dir}, e.g. nltk_data/tokenizers/punkt_tab/english)`
            : code === 'EISDIR'
              ? 'is a directory'
              : String((e as Error).message)
        issues.push({ code: 'cannot_read', file, reason })
        return
      }
      try {
        texts[k] = decoder.decode(bytes)
      } catch {
        const { line, text } = firstInvalidLine(bytes)
        issues.push({ code: 'invalid_utf8', file, line, text })
      }
    }),
  )
  if (issues.length > 0)
    throw new InputError(issues, `cannot load the Punkt parameters from ${dir}`)
  return parsePunktParameters(texts as PunktFileTexts, dir)
}

/** The 1-based number and lossy text of the first line that is not valid UTF-8. */
function firstInvalidLine(bytes: Uint8Array): { line: number; text: string } {
  const strict = new TextDecoder('utf-8', { fatal: true })
  let found = { line: 1, text: '' }
  const lines = new LineSplitter(
    (buf, start, end, line) => {
      const chunk = buf.subarray(start, end)
      try {
        strict.decode(chunk)
        return true
      } catch {
        found = { line, text: new TextDecoder('utf-8').decode(chunk).slice(0, 200) }
        return false
      }
    },
    { maxLineBytes: Number.POSITIVE_INFINITY },
  )
  lines.feed(bytes, true)
  return found
}
