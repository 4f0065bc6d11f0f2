/**
 * Edge: reads NLTK's `punkt_tab` files of one language (`nltk_data/tokenizers/punkt_tab/english/`)
 * from a folder. They are NLTK's data, not bundled with trecscore; users pass `--punkt DIR`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { InputError } from '../../../errors/trecscore-error.js'
import type { InputIssue } from '../../../errors/issues.js'
import { PUNKT_FILE_NAMES, parsePunktParameters, type PunktFileTexts, type PunktParameters } from './punkt.js'

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
        const text = new TextDecoder('utf-8').decode(bytes)
        const line = text.split('\n').findIndex((l) => l.includes('\uFFFD'))
        issues.push({ code: 'invalid_utf8', file, line: line + 1, text: text.split('\n')[line]!.slice(0, 200) })
      }
    }),
  )
  if (issues.length > 0) throw new InputError(issues, `cannot load the Punkt parameters from ${dir}`)
  return parsePunktParameters(texts as PunktFileTexts, dir)
}
