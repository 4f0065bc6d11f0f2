/**
 * NLTK 3.8's improved Treebank word tokenizer (`NLTKWordTokenizer.tokenize`, the one
 * `nltk.word_tokenize` applies to each Punkt sentence), with Python `re` semantics.
 *
 * Rewrites run in NLTK's order, each a Python `re.sub` over the whole string, then the result is
 * split on Python whitespace:
 * 1. starting quotes: pad `«“‘„` and runs of `` ` ``; a leading `"` becomes ``` `` ```; pad
 *    ``` `` ```; `"` or `''` after a space or an opening bracket becomes ``` `` ```; split `'`
 *    from a following one-character word unless it starts a clitic (`'re 've 'll 'm 't 's 'd
 *    'n`, any case);
 * 2. punctuation: the final period (and closing quotes/brackets after it), `:` and `,` not
 *    followed by a digit or at the end, runs of 2+ periods, `;@#$%&`, the final period again,
 *    `?!`, a `'` before a space, `*`;
 * 3. pad brackets `[](){}<>` and `--`; add a space at both ends;
 * 4. ending quotes: pad `»”’`; `''` and `"` become `''`; split clitics `'s 'm 'd '` and
 *    `'ll 're 've n't` (upper or lower case) before a space;
 * 5. MacIntyre contractions: `cannot d'ye gimme gonna gotta lemme more'n wanna` (before
 *    whitespace) and `'tis 'twas` are split in two.
 */
import { PY_S, PY_W, PY_WORD_CLASS, pyIgnoreCase, pySplit } from './py-text.js'

/** A rewrite: pattern, replacement, and substrings one of which a match needs (a fast skip). */
type Rule = readonly [RegExp, string, ReadonlyArray<string>?]

const g = (source: string): RegExp => new RegExp(source, 'gu')
/** Python `\b` before a word character: the previous character is not one. */
const B_BEFORE = `(?<![${PY_WORD_CLASS}])`
/** Python `\b` after a word character. */
const B_AFTER = `(?![${PY_WORD_CLASS}])`
const ci = pyIgnoreCase

const CLITIC_STARTS = ['re', 've', 'll', 'm', 't', 's', 'd', 'n'].map(ci).join('|')

const STARTING_QUOTES: readonly Rule[] = [
  [g('([«“‘„]|`+)'), ' $1 ', ['«', '“', '‘', '„', '`']],
  [g('^"'), '``', ['"']],
  [g('(``)'), ' $1 ', ['``']],
  [g('([ ([{<])("|\'{2})'), '$1 `` ', ['"', "''"]],
  [g(`(')(?!${CLITIC_STARTS})(${PY_W})${B_AFTER}`), '$1 $2', ["'"]],
]

/** `[^.](\.)[\])}>"']*\s*$`: the sentence-final period. Python's `$` also matches before a
 * final newline, but `\s*` takes that newline first, so plain `$` matches the same. */
const FINAL_PERIOD = `([^.])(\\.)([\\])}>"']*)${PY_S}*$`

const PUNCTUATION: readonly Rule[] = [
  [g(FINAL_PERIOD), '$1 $2 $3 ', ['.']],
  [g('([:,])([^\\p{Nd}])'), ' $1 $2', [':', ',']],
  // Python `$` (no MULTILINE): the end, or just before a final newline.
  [g('([:,])(?=\\n?$)'), ' $1 ', [':', ',']],
  [g('\\.{2,}'), ' $& ', ['..']],
  [g('[;@#$%&]'), ' $& ', [';', '@', '#', '$', '%', '&']],
  [g(FINAL_PERIOD), '$1 $2$3 ', ['.']],
  [g('[?!]'), ' $& ', ['?', '!']],
  [g("([^'])' "), "$1 ' ", ["' "]],
  [g('[*]'), ' $& ', ['*']],
]

const PARENS_BRACKETS: Rule = [g('[\\][(){}<>]'), ' $& ', ['[', ']', '(', ')', '{', '}', '<', '>']]
const DOUBLE_DASHES: Rule = [g('--'), ' -- ', ['--']]

const ENDING_QUOTES: readonly Rule[] = [
  [g('([»”’])'), ' $1 ', ['»', '”', '’']],
  [g("''"), " '' ", ["''"]],
  [g('"'), " '' ", ['"']],
  [g("([^' ])('[sS]|'[mM]|'[dD]|') "), '$1 $2 ', ["' ", "'s ", "'S ", "'m ", "'M ", "'d ", "'D "]],
  [
    g("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "),
    '$1 $2 ',
    ["'ll ", "'LL ", "'re ", "'RE ", "'ve ", "'VE ", "n't ", "N'T "],
  ],
]

const CONTRACTIONS: readonly Rule[] = [
  ...[
    ['can', 'not'],
    ['d', "'ye"],
    ['gim', 'me'],
    ['gon', 'na'],
    ['got', 'ta'],
    ['lem', 'me'],
    ['more', "'n"],
  ].map(([a, b]): Rule => [g(`${B_BEFORE}(${ci(a!)})(${ci(b!)})${B_AFTER}`), ' $1 $2 ']),
  [g(`${B_BEFORE}(${ci('wan')})(${ci('na')})(?=${PY_S})`), ' $1 $2 '],
  // CONTRACTIONS3: `(?i) ('t)(is)\b`, `(?i) ('t)(was)\b`.
  [g(` (${ci("'t")})(${ci('is')})${B_AFTER}`), ' $1 $2 '],
  [g(` (${ci("'t")})(${ci('was')})${B_AFTER}`), ' $1 $2 '],
]

/**
 * `NLTKWordTokenizer().tokenize(text)` of NLTK 3.8 (no parenthesis conversion): the tokens of
 * one sentence. Double quotes come out as ``` `` ``` (opening) and `''` (closing).
 */
export function treebankWordTokenize(text: string): string[] {
  let s = text
  const apply = ([re, rep, need]: Rule): void => {
    if (need === undefined || need.some((x) => s.includes(x))) s = s.replace(re, rep)
  }
  STARTING_QUOTES.forEach(apply)
  PUNCTUATION.forEach(apply)
  apply(PARENS_BRACKETS)
  apply(DOUBLE_DASHES)
  s = ` ${s} `
  ENDING_QUOTES.forEach(apply)
  CONTRACTIONS.forEach(apply)
  return pySplit(s)
}
