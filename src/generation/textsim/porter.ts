/**
 * The Porter stemmer exactly as NLTK 3.8's `nltk.stem.porter.PorterStemmer()` in its default
 * `NLTK_EXTENSIONS` mode: what Google's rouge-score 0.1.2 (`use_stemmer=True`) and NLTK's METEOR
 * use. Written from the published algorithm (Porter 1980) plus NLTK's documented departures:
 *
 * - a table of irregular forms looked up first (`skies` → `sky`, `dying` → `die`, …), keyed by the
 *   word *as given* (before lowercasing), as NLTK does;
 * - words of 1 or 2 characters are returned (lowercased) unchanged;
 * - step 1a: a 4-letter word in `ies` → `ie`; step 1b: `ied` → `ie` (4 letters) or `i`;
 * - step 1c: `y` → `i` only after a consonant that is not the first letter;
 * - *o (cvc) also holds for a 2-letter vowel+consonant word;
 * - step 2: `alli` → `al` tried first (and step 2 re-run), `bli` → `ble`, extra `fulli` → `ful`
 *   and `logi` → `log` (measure taken on the word minus 3 letters).
 *
 * m(stem) is the number of VC sequences in the stem's consonant/vowel pattern; `y` is a
 * consonant at the start or after a vowel, a vowel after a consonant.
 */

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['sky', 'sky'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['news', 'news'],
  ['innings', 'inning'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['outing', 'outing'],
  ['cannings', 'canning'],
  ['canning', 'canning'],
  ['howe', 'howe'],
  ['proceed', 'proceed'],
  ['exceed', 'exceed'],
  ['succeed', 'succeed'],
])

function isVowelLetter(c: string): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u'
}

function isConsonant(word: string, i: number): boolean {
  // Iterative form of NLTK's recursion: a run of y's alternates consonant/vowel.
  let consonant = true
  let k = i
  while (k >= 0) {
    const c = word[k]!
    if (isVowelLetter(c)) {
      consonant = false
      break
    }
    if (c !== 'y') {
      consonant = true
      break
    }
    if (k === 0) {
      consonant = true
      break
    }
    k--
  }
  // word[i..k+1] are y's; word[k] decided `consonant`. Each y flips the previous letter's value.
  const flips = i - k
  return flips % 2 === 0 ? consonant : !consonant
}

/** m: the number of vowel→consonant transitions ("VC" pairs) in the stem. */
function measure(stem: string): number {
  let m = 0
  let prevVowel = false
  for (let i = 0; i < stem.length; i++) {
    const cons = isConsonant(stem, i)
    if (cons && prevVowel) m++
    prevVowel = !cons
  }
  return m
}

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true
  return false
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1)
}

function endsCvc(word: string): boolean {
  const n = word.length
  if (n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1)) {
    const last = word[n - 1]
    if (last !== 'w' && last !== 'x' && last !== 'y') return true
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1)
}

type Condition = ((stem: string) => boolean) | null
/** [suffix, replacement, condition]; suffix `*d` means "ends in a double consonant" (or literally `*d`). */
type Rule = readonly [string, string, Condition]

/** The first rule whose suffix matches decides: apply it if its condition holds, else stop. */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2)
      return condition === null || condition(stem) ? stem + replacement : word
    }
    // As NLTK: when "*d" does not hold, "*d" is still tried as a literal suffix (a token like "a*ded").
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length)
      return condition === null || condition(stem) ? stem + replacement : word
    }
  }
  return word
}

const positive = (stem: string): boolean => measure(stem) > 0
const gt1 = (stem: string): boolean => measure(stem) > 1

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return word.slice(0, -3) + 'ie'
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ])
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i')
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3)
    return measure(stem) > 0 ? stem + 'ee' : word
  }
  let intermediate: string | undefined
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const s = word.slice(0, word.length - suffix.length)
      if (containsVowel(s)) {
        intermediate = s
        break
      }
    }
  }
  if (intermediate === undefined) return word
  const last = intermediate[intermediate.length - 1]!
  return applyRules(intermediate, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => last !== 'l' && last !== 's' && last !== 'z'],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ])
}

function step1c(word: string): string {
  return applyRules(word, [
    ['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)],
  ])
}

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(word.slice(0, -4) + 'al')
  return applyRules(word, [
    ['ational', 'ate', positive],
    ['tional', 'tion', positive],
    ['enci', 'ence', positive],
    ['anci', 'ance', positive],
    ['izer', 'ize', positive],
    ['bli', 'ble', positive],
    ['alli', 'al', positive],
    ['entli', 'ent', positive],
    ['eli', 'e', positive],
    ['ousli', 'ous', positive],
    ['ization', 'ize', positive],
    ['ation', 'ate', positive],
    ['ator', 'ate', positive],
    ['alism', 'al', positive],
    ['iveness', 'ive', positive],
    ['fulness', 'ful', positive],
    ['ousness', 'ous', positive],
    ['aliti', 'al', positive],
    ['iviti', 'ive', positive],
    ['biliti', 'ble', positive],
    ['fulli', 'ful', positive],
    ['logi', 'log', () => positive(word.slice(0, -3))],
  ])
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positive],
    ['ative', '', positive],
    ['alize', 'al', positive],
    ['iciti', 'ic', positive],
    ['ical', 'ic', positive],
    ['ful', '', positive],
    ['ness', '', positive],
  ])
}

function step4(word: string): string {
  return applyRules(word, [
    ['al', '', gt1],
    ['ance', '', gt1],
    ['ence', '', gt1],
    ['er', '', gt1],
    ['ic', '', gt1],
    ['able', '', gt1],
    ['ible', '', gt1],
    ['ant', '', gt1],
    ['ement', '', gt1],
    ['ment', '', gt1],
    ['ent', '', gt1],
    ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
    ['ou', '', gt1],
    ['ism', '', gt1],
    ['ate', '', gt1],
    ['iti', '', gt1],
    ['ous', '', gt1],
    ['ive', '', gt1],
    ['ize', '', gt1],
  ])
}

function step5a(word: string): string {
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1)
    const m = measure(stem)
    if (m > 1) return stem
    if (m === 1 && !endsCvc(stem)) return stem
  }
  return word
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]])
}

/**
 * NLTK 3.8 `PorterStemmer().stem(word)` (default mode, `to_lowercase=True`). Lowercases with
 * `toLowerCase` (Python `str.lower` for every input ROUGE and METEOR pass it). Pure; any string.
 */
export function porterStem(word: string): string {
  const irregular = IRREGULAR.get(word)
  if (irregular !== undefined) return irregular
  const lower = word.toLowerCase()
  if (/[\uD800-\uDFFF]/.test(lower)) return stemAstral(word, lower)
  if (word.length <= 2) return lower
  return steps(lower)
}

/**
 * Python counts code points, JS code units: a word with characters outside the BMP is stemmed
 * with each distinct such character (or lone surrogate) stood in for by one unused BMP
 * private-use character, so lengths, "double consonant" and positions agree with NLTK's.
 */
function stemAstral(word: string, lower: string): string {
  if ([...word].length <= 2) return lower
  const forward = new Map<string, string>()
  const back = new Map<string, string>()
  let next = 0xe000
  let mapped = ''
  for (const ch of lower) {
    if (ch.length === 1 && !(ch >= '\uD800' && ch <= '\uDFFF')) {
      mapped += ch
      continue
    }
    let sub = forward.get(ch)
    if (sub === undefined) {
      while (lower.includes(String.fromCharCode(next))) next++
      sub = String.fromCharCode(next++)
      forward.set(ch, sub)
      back.set(sub, ch)
    }
    mapped += sub
  }
  let out = ''
  for (const ch of steps(mapped)) out += back.get(ch) ?? ch
  return out
}

function steps(lower: string): string {
  let stem = step1a(lower)
  stem = step1b(stem)
  stem = step1c(stem)
  stem = step2(stem)
  stem = step3(stem)
  stem = step4(stem)
  stem = step5a(stem)
  stem = step5b(stem)
  return stem
}

/** A stemmer: a pure function from a token to its stem. */
export type Stemmer = (word: string) => string
