/**
 * WordNet 3.0 lookups exactly as NLTK 3.8's `WordNetCorpusReader` answers METEOR's synonym stage:
 *
 *   syn(w) = ⋃ over POS p ∈ (n, v, a, r), form f ∈ morphy(lower(w), p), synset s ∈ index_p(f)
 *            of the lemma names of s that contain no "_"
 *
 * `morphy(form, p)` (NLTK 3.8): if `form` is in the exception list of p, the forms of
 * `[form] + bases` that are lemmas of p; otherwise the lemmas among `[form] + rules(form)`
 * (each suffix rule of p applied once); if none, the rules are applied again and again to the
 * previous round's forms until a round yields lemmas or no forms (NLTK ≥ 3.9 stops after one
 * round: the {@link MorphyMode} `nltk39`).
 *
 * The data is the compact index `scripts/build-wordnet.mjs` writes from WordNet 3.0's own files;
 * this module parses its text (reading the file is in `wordnet-file.ts`).
 */
import { TextsimItemError } from './errors.js'

/** WordNet POS letters in NLTK's `POS_LIST` order. */
export const WORDNET_POS = ['n', 'v', 'a', 'r'] as const
/** A WordNet part of speech. */
export type WordNetPos = (typeof WORDNET_POS)[number]

/** `nltk38`: repeated rule rounds (NLTK ≤ 3.8, the reference); `nltk39`: one round only. */
export type MorphyMode = 'nltk38' | 'nltk39'

/** NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`, in its order. */
const SUBSTITUTIONS: Readonly<Record<WordNetPos, readonly (readonly [string, string])[]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
}

/**
 * Most characters of candidate forms one morphy call may generate before giving up (hostile,
 * very long tokens; an ordinary word generates a few hundred).
 */
const MAX_MORPHY_CHARS = 20_000_000
const CACHE_LIMIT = 200_000

/** A loaded WordNet index: lemma lookup, morphy and METEOR synonyms. */
export class WordNet {
  /** Version string of the data, e.g. `WordNet 3.0`. */
  readonly version: string
  /** Each synset's names, space-separated (split on use). */
  private readonly synsets: readonly string[]
  /** lemma → synset ids in base 36, comma-separated (parsed on use). */
  private readonly index: Readonly<Record<WordNetPos, ReadonlyMap<string, string>>>
  private readonly exceptions: Readonly<Record<WordNetPos, ReadonlyMap<string, readonly string[]>>>
  private readonly cache = new Map<string, ReadonlySet<string>>()
  private readonly mode: MorphyMode

  constructor(
    version: string,
    synsets: readonly string[],
    index: Record<WordNetPos, ReadonlyMap<string, string>>,
    exceptions: Record<WordNetPos, ReadonlyMap<string, readonly string[]>>,
    mode: MorphyMode = 'nltk38',
  ) {
    this.version = version
    this.synsets = synsets
    this.index = index
    this.exceptions = exceptions
    this.mode = mode
  }

  /** The same data with another morphy mode. */
  withMorphy(mode: MorphyMode): WordNet {
    return new WordNet(this.version, this.synsets, { ...this.index }, { ...this.exceptions }, mode)
  }

  /** True if `form` is a lemma of `pos` (a line of `index.<pos>`). */
  isLemma(form: string, pos: WordNetPos): boolean {
    return this.index[pos].has(form)
  }

  /** NLTK 3.8 `_morphy(form, pos)` (see the module comment); forms in NLTK's order. */
  morphy(form: string, pos: WordNetPos): string[] {
    const subs = SUBSTITUTIONS[pos]
    const filter = (forms: readonly string[]): string[] => {
      const out: string[] = []
      for (const f of forms) if (this.index[pos].has(f) && !out.includes(f)) out.push(f)
      return out
    }
    const exc = this.exceptions[pos].get(form)
    if (exc !== undefined) return filter([form, ...exc])
    let generated = 0
    const apply = (forms: readonly string[]): string[] => {
      // Duplicates are dropped: they change neither which round first finds a lemma nor the set found.
      const out: string[] = []
      const seen = new Set<string>()
      for (const f of forms) {
        for (const [old, rep] of subs) {
          if (f.endsWith(old)) {
            const g = f.slice(0, f.length - old.length) + rep
            if (!seen.has(g)) {
              seen.add(g)
              out.push(g)
              generated += g.length
            }
          }
        }
      }
      if (generated > MAX_MORPHY_CHARS) {
        throw new TextsimItemError({
          code: 'morphy_too_large',
          tokenLength: form.length,
          limit: MAX_MORPHY_CHARS,
        })
      }
      return out
    }
    let forms = apply([form])
    const first = filter([form, ...forms])
    if (first.length > 0 || this.mode === 'nltk39') return first
    while (forms.length > 0) {
      forms = apply(forms)
      const found = filter(forms)
      if (found.length > 0) return found
    }
    return []
  }

  /**
   * METEOR's synonym set of a word: the lemma names without "_" of every synset of
   * `wordnet.synsets(word)` (all POS, through morphy), case kept; the word itself is not added
   * here (METEOR adds it).
   */
  synonyms(word: string): ReadonlySet<string> {
    const hit = this.cache.get(word)
    if (hit !== undefined) return hit
    const lemma = word.toLowerCase()
    const out = new Set<string>()
    for (const pos of WORDNET_POS) {
      for (const f of this.morphy(lemma, pos)) {
        const ids = this.index[pos].get(f)
        if (ids === undefined || ids === '') continue
        for (const id of ids.split(','))
          for (const name of this.synsets[parseInt(id, 36)]!.split(' ')) out.add(name)
      }
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear()
    this.cache.set(word, out)
    return out
  }
}

/**
 * Parses the text of the compact index (`trecscore-wordnet/1`, written by
 * `scripts/build-wordnet.mjs`). Throws `Error` on a malformed file (it is our own data).
 */
export function parseWordNetIndex(text: string, mode: MorphyMode = 'nltk38'): WordNet {
  const lines = text.split('\n')
  const header = lines[0] ?? ''
  if (!header.startsWith('trecscore-wordnet/1 ')) throw new Error('not a trecscore-wordnet/1 index')
  const version = /WordNet [0-9.]+/.exec(header)?.[0] ?? 'WordNet'
  let i = 1
  const section = (kind: string): [string, number] => {
    const m = /^@(\w+)(?: (\w))? (\d+)$/.exec(lines[i] ?? '')
    if (m === null || m[1] !== kind)
      throw new Error(`wordnet index: expected @${kind} at line ${i + 1}`)
    i++
    return [m[2] ?? '', Number(m[3])]
  }
  const [, nSynsets] = section('synsets')
  const synsets = lines.slice(i, i + nSynsets)
  i += nSynsets
  const index = {} as Record<WordNetPos, Map<string, string>>
  for (const pos of WORDNET_POS) {
    const [p, n] = section('index')
    if (p !== pos) throw new Error(`wordnet index: expected @index ${pos} at line ${i}`)
    const map = new Map<string, string>()
    for (let k = 0; k < n; k++) {
      const line = lines[i++]!
      const tab = line.indexOf('\t')
      if (tab < 0) throw new Error(`wordnet index: expected lemma<TAB>ids at line ${i}`)
      map.set(line.slice(0, tab), line.slice(tab + 1))
    }
    index[pos] = map
  }
  const exceptions = {} as Record<WordNetPos, Map<string, string[]>>
  for (const pos of WORDNET_POS) {
    const [p, n] = section('exc')
    if (p !== pos) throw new Error(`wordnet index: expected @exc ${pos} at line ${i}`)
    const map = new Map<string, string[]>()
    for (let k = 0; k < n; k++) {
      const terms = lines[i++]!.split(' ')
      map.set(terms[0]!, terms.slice(1))
    }
    exceptions[pos] = map
  }
  return new WordNet(version, synsets, index, exceptions, mode)
}
