/**
 * Edge: reads the committed compact WordNet 3.0 index (`data/wordnet/wordnet-3.0.txt.gz`, built by
 * `scripts/build-wordnet.mjs`) from disk, once per path and morphy mode.
 */
import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { TrecscoreError } from '../../errors/trecscore-error.js'
import { parseWordNetIndex, type MorphyMode, type WordNet } from './wordnet.js'

/** Where the bundled index lies (the package's `data/wordnet/`; same relative path from `src/` and `dist/`). */
export const DEFAULT_WORDNET_INDEX = new URL('../../../data/wordnet/wordnet-3.0.txt.gz', import.meta.url)

const loaded = new Map<string, Promise<WordNet>>()

/**
 * Loads a compact WordNet index (gzipped or plain `trecscore-wordnet/1` text), by default the
 * bundled WordNet 3.0 one. Loaded lazily and cached, so repeated calls cost nothing. A missing or
 * malformed file rejects with a `TrecscoreError` (exit code 2).
 */
export function loadWordNet(options: { path?: string | URL; morphy?: MorphyMode } = {}): Promise<WordNet> {
  const path = options.path ?? DEFAULT_WORDNET_INDEX
  const mode = options.morphy ?? 'nltk38'
  const key = `${mode} ${path.toString()}`
  let p = loaded.get(key)
  if (p === undefined) {
    const name = path instanceof URL ? path.pathname : path
    p = readFile(path).then(
      (buf) => {
        try {
          const raw = buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf
          return parseWordNetIndex(raw.toString('latin1'), mode)
        } catch (e) {
          throw new TrecscoreError(`${name}: not a WordNet index written by scripts/build-wordnet.mjs (${(e as Error).message})`, 2, { cause: e })
        }
      },
      (e: NodeJS.ErrnoException) => {
        throw new TrecscoreError(`${name}: cannot read the WordNet index: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, 2, { cause: e })
      },
    )
    p.catch(() => loaded.delete(key))
    loaded.set(key, p)
  }
  return p
}
