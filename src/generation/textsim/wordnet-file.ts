/**
 * Edge: reads the committed compact WordNet 3.0 index (`data/wordnet/wordnet-3.0.txt.gz`, built by
 * `scripts/build-wordnet.mjs`) from disk; {@link WordNetCache} keeps loaded indexes for its holder.
 */
import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { TrecscoreError } from '../../errors/trecscore-error.js'
import { type MorphyMode, parseWordNetIndex, type WordNet } from './wordnet.js'

/** Where the bundled index lies (the package's `data/wordnet/`; same relative path from `src/` and `dist/`). */
export const DEFAULT_WORDNET_INDEX = new URL(
  '../../../data/wordnet/wordnet-3.0.txt.gz',
  import.meta.url,
)

/** Which index {@link loadWordNet} reads, and with which morphy rules. */
export interface WordNetLoadOptions {
  /** A compact index file (gzipped or plain). @default the bundled WordNet 3.0 index */
  readonly path?: string | URL
  /** @default 'nltk38' */
  readonly morphy?: MorphyMode
}

/**
 * Reads and parses a compact WordNet index (gzipped or plain `trecscore-wordnet/1` text), by
 * default the bundled WordNet 3.0 one. Nothing is kept between calls: a program that needs the
 * index more than once holds the result, or a {@link WordNetCache}. A missing or malformed file
 * rejects with a `TrecscoreError` (exit code 2).
 */
export async function loadWordNet(options: WordNetLoadOptions = {}): Promise<WordNet> {
  const path = options.path ?? DEFAULT_WORDNET_INDEX
  const name = path instanceof URL ? path.pathname : path
  let buf: Buffer
  try {
    buf = await readFile(path)
  } catch (e) {
    throw new TrecscoreError(
      `${name}: cannot read the WordNet index: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      2,
      { cause: e },
    )
  }
  try {
    const raw = buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf
    return parseWordNetIndex(raw.toString('latin1'), options.morphy ?? 'nltk38')
  } catch (e) {
    throw new TrecscoreError(
      `${name}: not a WordNet index written by scripts/build-wordnet.mjs (${(e as Error).message})`,
      2,
      { cause: e },
    )
  }
}

/**
 * An explicit cache of loaded WordNet indexes, one per path and morphy mode: repeated loads
 * through one cache read and parse the file once (a failed load is not kept). The cache lives as
 * long as its holder; nothing is cached at module level.
 */
export class WordNetCache {
  private readonly loaded = new Map<string, Promise<WordNet>>()

  /** {@link loadWordNet}, once per path and morphy mode for this cache. */
  load(options: WordNetLoadOptions = {}): Promise<WordNet> {
    const key = `${options.morphy ?? 'nltk38'} ${(options.path ?? DEFAULT_WORDNET_INDEX).toString()}`
    let p = this.loaded.get(key)
    if (p === undefined) {
      p = loadWordNet(options)
      p.catch(() => this.loaded.delete(key))
      this.loaded.set(key, p)
    }
    return p
  }
}
