import type { Stemmer } from './porter.js'

/**
 * rouge-score 0.1.2 `DefaultTokenizer(use_stemmer).tokenize(text)`:
 * 1. lowercase (Python `str.lower`; JS `toLowerCase` agrees for every character that can end up
 *    in a token, e.g. `İ` → `i` + U+0307, Kelvin sign → `k`);
 * 2. every run of characters outside `[a-z0-9]` becomes one space (so accents, CJK, apostrophes,
 *    underscores and HTML punctuation all separate tokens and vanish);
 * 3. split on whitespace;
 * 4. with a stemmer, stem only tokens longer than 3 characters (`was` stays, `does` → `doe`);
 * 5. keep tokens matching `^[a-z0-9]+$` (drops the empty strings).
 */
export function rougeTokenize(text: string, stemmer?: Stemmer): string[] {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
  const out: string[] = []
  for (const w of words) {
    if (w === '') continue
    const t = stemmer !== undefined && w.length > 3 ? stemmer(w) : w
    if (/^[a-z0-9]+$/.test(t)) out.push(t)
  }
  return out
}

/**
 * The sentences rougeLsum scores (`split_summaries=False`, the default): `text.split("\n")`
 * without the empty pieces. Only `\n` splits; a `\r` left at a sentence end is a non-token
 * character and is dropped by {@link rougeTokenize}.
 */
export function rougeSentences(text: string): string[] {
  return text.split('\n').filter((s) => s.length > 0)
}
