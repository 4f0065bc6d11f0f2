/**
 * NLTK 3.8 `word_tokenize` (Punkt + NLTKWordTokenizer) in TypeScript.
 *
 * - Conformance: every `variants.word_tokenize` token list of test/fixtures/generation/meteor.jsonl
 *   (copied from shared/conformance/generation; NLTK 3.8 output, see its README): 310 records,
 *   the hypothesis and each reference.
 * - Hand cases: NLTK's own docstring/doctest examples (named below), and Punkt decisions traced
 *   by hand through the algorithm with the flags of the English `ortho_context.tab`
 *   (BEG_UC 2, MID_UC 4, UNK_UC 8, BEG_LC 16, MID_LC 32, UNK_LC 64).
 * - Properties (fast-check): no crash on arbitrary Unicode, tokens are non-empty and free of
 *   Python whitespace, and no non-space character is lost or invented (up to the `"` → ``` `` ```
 *   / `''` conversion); long and adversarial inputs finish (linear scans, no backtracking blow-up).
 *
 * The Punkt parameters are NLTK's data and are not copied into the repository: they are read
 * from ../shared/datasets/nltk-punkt-english, and the tests that need them are skipped (with a
 * warning) when it is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatIssue } from '../../../src/errors/format-issue.js'
import { InputError } from '../../../src/errors/trecscore-error.js'
import {
  loadPunktParameters,
  type PunktParameters,
  parsePunktParameters,
  sentTokenize,
  treebankWordTokenize,
  wordTokenize,
} from '../../../src/generation/textsim/nltk/index.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const PUNKT_DIR = join(ROOT, '..', 'shared', 'datasets', 'nltk-punkt-english')
const METEOR = join(ROOT, 'test', 'fixtures', 'generation', 'meteor.jsonl')
const havePunkt = existsSync(join(PUNKT_DIR, 'ortho_context.tab'))
if (!havePunkt)
  console.warn(
    `nltk-tokenize.test.ts: ${PUNKT_DIR} missing (NLTK's punkt_tab/english files); skipping the Punkt and word_tokenize tests`,
  )

/** Python whitespace (str.isspace). */
const PY_SPACE = /[\t-\r\x1c- \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u
const PY_SPACE_G = new RegExp(PY_SPACE.source, 'gu')

/** Non-space characters with every quote-like `"`, `` ` ``, `'` unit spelled as `'` (`"` counts twice). */
function quoteNormalized(s: string): string {
  return s.replace(PY_SPACE_G, '').replace(/"/g, "''").replace(/`/g, "'")
}

describe('treebankWordTokenize (NLTKWordTokenizer, NLTK 3.8)', () => {
  const cases: Array<[string, string, string[]]> = [
    // NLTK's TreebankWordTokenizer docstring examples (the improved tokenizer agrees on them).
    [
      'docstring: multi-line text, only the final period split',
      'Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks.',
      [
        'Good',
        'muffins',
        'cost',
        '$',
        '3.88',
        'in',
        'New',
        'York.',
        'Please',
        'buy',
        'me',
        'two',
        'of',
        'them.',
        'Thanks',
        '.',
      ],
    ],
    [
      'docstring: clitic',
      "They'll save and invest more.",
      ['They', "'ll", 'save', 'and', 'invest', 'more', '.'],
    ],
    [
      "docstring: can't and a final comma",
      "hi, my name can't hello,",
      ['hi', ',', 'my', 'name', 'ca', "n't", 'hello', ','],
    ],
    // Hand-traced through the rules (see treebank.ts).
    [
      'MacIntyre contractions',
      "I'm gonna gimme lemme gotta wanna go",
      ['I', "'m", 'gon', 'na', 'gim', 'me', 'lem', 'me', 'got', 'ta', 'wan', 'na', 'go'],
    ],
    [
      'cannot, any case; not inside a longer word',
      'CANNOT cannotx Cannot',
      ['CAN', 'NOT', 'cannotx', 'Can', 'not'],
    ],
    ["d'ye and more'n", "d'ye more'n", ['d', "'ye", 'more', "'n"]],
    [
      "'tis and 'twas (CONTRACTIONS3 after the padding space)",
      "'Tis true, 'twas so.",
      ["'T", 'is', 'true', ',', "'t", 'was', 'so', '.'],
    ],
    [
      'opening and closing double quotes',
      '"Hello," she said.',
      ['``', 'Hello', ',', "''", 'she', 'said', '.'],
    ],
    [
      'a quote before a one-letter word that is not a clitic (NLTK doctest)',
      "'v' 're'",
      ["'", 'v', "'", "'re", "'"],
    ],
    ["rock 'n' roll", "rock 'n' roll", ['rock', "'n", "'", 'roll']],
    ['brackets', '(a) [b] {c} <d>', ['(', 'a', ')', '[', 'b', ']', '{', 'c', '}', '<', 'd', '>']],
    ['double dash', 'He said--quickly', ['He', 'said', '--', 'quickly']],
    ['ellipsis and question mark', 'Wait... what?', ['Wait', '...', 'what', '?']],
    ['Unicode quotes', '“Hi” ‘there’ «x»', ['“', 'Hi', '”', '‘', 'there', '’', '«', 'x', '»']],
    ['colon and comma before digits stay', '3:00, 1,000', ['3:00', ',', '1,000']],
    ['final period before a closing bracket', 'He left.)', ['He', 'left', '.', ')']],
    ['final period before a closing quote', 'x."', ['x', '.', "''"]],
    [
      'symbols',
      '$5 @home #tag 50% A&B a*b',
      ['$', '5', '@', 'home', '#', 'tag', '50', '%', 'A', '&', 'B', 'a', '*', 'b'],
    ],
    ['?!', 'x?!', ['x', '?', '!']],
    // Python (?i): U+0130 lowercases to i, U+0131 is an equivalence of i (sre_compile).
    ['Python ignore-case: dotted and dotless i', 'GİMME gımme', ['GİM', 'ME', 'gım', 'me']],
    // Python str.split(): U+0085 and U+001F split, U+FEFF and U+200B do not.
    ['Python whitespace', 'a\u0085b\u001fc\ufeffd\u200be', ['a', 'b', 'c\ufeffd\u200be']],
    // Python \w is Unicode: the clitic rule sees the Greek letter as a word character.
    ['Unicode \\w in the quote rule', "'λ x", ["'", 'λ', 'x']],
    ["'' as quotes", "''Hi''", ["''", 'Hi', "''"]],
    ['empty and blank', ' \t\n ', []],
  ]
  for (const [name, text, want] of cases) {
    it(name, () => expect(treebankWordTokenize(text)).toEqual(want))
  }
})

describe('parsePunktParameters', () => {
  it('parses the four files, keeping spaces inside types, accepting CRLF and a missing final newline', () => {
    const p = parsePunktParameters({
      abbrevTypes: 'dr\r\n. . \r\nu.s\n',
      collocations: '##number##\tinternational',
      sentStarters: 'the\nhe',
      orthoContext: 'the\t126\nbach\t4\n',
    })
    expect([...p.abbrevTypes]).toEqual(['dr', '. . ', 'u.s'])
    expect([...p.collocations]).toEqual(['##number##\tinternational'])
    expect([...p.sentStarters]).toEqual(['the', 'he'])
    expect([...p.orthoContext]).toEqual([
      ['the', 126],
      ['bach', 4],
    ])
  })

  it('reports every malformed line at once, with file and line', () => {
    let err: unknown
    try {
      parsePunktParameters(
        {
          abbrevTypes: 'dr\n\nmr',
          collocations: 'a\tb\nonlyone\na\tb\tc',
          sentStarters: 'the\tx',
          orthoContext: 'the\t126\nx\tabc\nthe\t2\ny',
        },
        '/data/punkt',
      )
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(InputError)
    const lines = (err as InputError).issues.map(formatIssue)
    expect(lines).toHaveLength(7)
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/abbrev_types\.txt:2: expected one non-empty type per line/,
    )
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/sent_starters\.txt:1: expected one non-empty type per line .*found 2 field/,
    )
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/collocations\.tab:2: expected two non-empty tab-separated types.*found 1 field/,
    )
    expect(lines.join('\n')).toMatch(/\/data\/punkt\/collocations\.tab:3: .*found 3 field/)
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/ortho_context\.tab:2 \(flags of "x"\): expected a non-negative integer.*found "abc"/,
    )
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/ortho_context\.tab:3: expected each type once; "the" is already at line 1/,
    )
    expect(lines.join('\n')).toMatch(
      /\/data\/punkt\/ortho_context\.tab:4: expected a non-empty type, a tab and integer flags/,
    )
  })

  it('an empty ortho_context.tab is an error', () => {
    expect(() =>
      parsePunktParameters(
        { abbrevTypes: '', collocations: '', sentStarters: '', orthoContext: '' },
        'd',
      ),
    ).toThrow(InputError)
  })
})

describe('loadPunktParameters errors', () => {
  it('names every missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punkt-'))
    try {
      writeFileSync(join(dir, 'abbrev_types.txt'), 'dr\n')
      writeFileSync(join(dir, 'collocations.tab'), 'a\tb\n')
      const err = await loadPunktParameters(dir).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(InputError)
      const issues = (err as InputError).issues
      expect(issues.map((i) => i.code)).toEqual(['cannot_read', 'cannot_read'])
      expect(issues.map(formatIssue).join('\n')).toContain(
        `${join(dir, 'sent_starters.txt')}: cannot read: no such file`,
      )
      expect(issues.map(formatIssue).join('\n')).toContain(
        `${join(dir, 'ortho_context.tab')}: cannot read: no such file`,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('invalid UTF-8 is reported with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punkt-'))
    try {
      writeFileSync(join(dir, 'abbrev_types.txt'), 'dr\n')
      writeFileSync(join(dir, 'collocations.tab'), 'a\tb\n')
      writeFileSync(join(dir, 'sent_starters.txt'), 'the\n')
      writeFileSync(
        join(dir, 'ortho_context.tab'),
        Buffer.from([0x61, 0x09, 0x32, 0x0a, 0x62, 0xff, 0x09, 0x32, 0x0a]),
      )
      const err = await loadPunktParameters(dir).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect((err as InputError).issues).toMatchObject([
        { code: 'invalid_utf8', file: join(dir, 'ortho_context.tab'), line: 2 },
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

;(havePunkt ? describe : describe.skip)(
  `Punkt and word_tokenize with NLTK's English parameters (${PUNKT_DIR})`,
  () => {
    let params: PunktParameters
    beforeAll(async () => {
      params = await loadPunktParameters(PUNKT_DIR)
    })

    it('loads the English punkt_tab files (sizes from the dataset README)', () => {
      expect(params.abbrevTypes.size).toBe(156)
      expect(params.collocations.size).toBe(37)
      expect(params.sentStarters.size).toBe(39)
      expect(params.orthoContext.size).toBe(20366)
      expect(params.abbrevTypes.has('. . ')).toBe(true)
      expect(params.orthoContext.get('the')).toBe(126)
    })

    describe('conformance: meteor.jsonl variants.word_tokenize (NLTK 3.8 output)', () => {
      const records = readFileSync(METEOR, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .map(
          (l) =>
            JSON.parse(l) as {
              id: string
              prediction: string
              references: string[]
              variants: {
                word_tokenize: { hypothesis_tokens: string[]; reference_tokens: string[][] }
              }
            },
        )
      it('has 310 records', () => expect(records).toHaveLength(310))
      for (const r of records) {
        it(`${r.id}: hypothesis and ${r.references.length} reference(s)`, () => {
          const v = r.variants.word_tokenize
          expect(wordTokenize(r.prediction, params)).toEqual(v.hypothesis_tokens)
          expect(r.references.map((ref) => wordTokenize(ref, params))).toEqual(v.reference_tokens)
        })
      }
    })

    describe('sentTokenize', () => {
      const cases: Array<[string, string, string[]]> = [
        // The PunktSentenceTokenizer docstring example (text.strip()).
        [
          'docstring: Mr. Smith, Johann S. Bach, a lowercase start',
          'Punkt knows that the periods in Mr. Smith and Johann S. Bach\ndo not mark sentence boundaries.  And sometimes sentences\ncan start with non-capitalized words.  i is a good variable\nname.',
          [
            'Punkt knows that the periods in Mr. Smith and Johann S. Bach\ndo not mark sentence boundaries.',
            'And sometimes sentences\ncan start with non-capitalized words.',
            'i is a good variable\nname.',
          ],
        ],
        // The realign_boundaries doctest of NLTK's punkt module.
        [
          'doctest: closing quotes and brackets move back to the sentence they end',
          '(How does it deal with this parenthesis?)  "It should be part of the\nprevious sentence." "(And the same with this one.)" (\'And this one!\')\n"(\'(And (this)) \'?)" [(and this. )]',
          [
            '(How does it deal with this parenthesis?)',
            '"It should be part of the\nprevious sentence."',
            '"(And the same with this one.)"',
            "('And this one!')",
            '"(\'(And (this)) \'?)"',
            '[(and this. )]',
          ],
        ],
        // u.s is an abbreviation; "It": flags 110 (MID_UC set, so not a sure starter), but "it"
        // is a frequent sentence starter and capitalised, so the abbreviation also ends the sentence.
        [
          'abbreviation before a frequent sentence starter',
          'I live in the U.S. It is big.',
          ['I live in the U.S.', 'It is big.'],
        ],
        // dr is an abbreviation; "smith": flags 12 (no lowercase use) -> unknown; not a starter.
        [
          'abbreviation before a name',
          'Dr. Smith arrived. He sat.',
          ['Dr. Smith arrived.', 'He sat.'],
        ],
        // ("##number##", "international") is a collocation.
        [
          'number + collocation',
          'Founded in 1987. International sales grew.',
          ['Founded in 1987. International sales grew.'],
        ],
        // "he": flags 46 -> unknown, so the number keeps its first-pass break.
        [
          'number before an unknown word',
          'Founded in 1987. He grew.',
          ['Founded in 1987.', 'He grew.'],
        ],
        // "the": flags 126 include uppercase use, so lowercase "the" does not start a sentence.
        [
          'number before a lowercase word seen capitalised',
          'It ended in 1987. the rest followed.',
          ['It ended in 1987. the rest followed.'],
        ],
        // Initial J.; "bach": flags 4, unknown, capitalised and never lowercase -> abbreviation.
        ['initial before a capitalised name', 'J. Bach wrote it.', ['J. Bach wrote it.']],
        // Initial X.; "he": flags 46 include lowercase use -> the break stays.
        [
          'initial before a word also seen lowercase',
          'He is X. He left.',
          ['He is X.', 'He left.'],
        ],
        // Ellipsis; "what": flags 46 -> unknown, not a frequent starter -> no break.
        ['ellipsis before a non-starter', 'Wait... What?', ['Wait... What?']],
        // Ellipsis; "the" is a frequent sentence starter.
        ['ellipsis before a frequent starter', 'Wait... The end.', ['Wait...', 'The end.']],
        // "?" then "!": the "?" candidate runs into the "!" one and is tested in its context.
        ['?! before the next sentence', 'Really?! Yes.', ['Really?!', 'Yes.']],
        // p.m is an abbreviation; "thanks": flags 32 (lowercase mid-sentence, never capitalised
        // mid-sentence), so the capitalised "Thanks" surely starts a sentence.
        [
          'abbreviation before a sure sentence starter',
          'Call me at 5 p.m. Thanks for that.',
          ['Call me at 5 p.m.', 'Thanks for that.'],
        ],
        [
          'abbreviation before a lowercase word',
          'Meet at 5 p.m. tomorrow.',
          ['Meet at 5 p.m. tomorrow.'],
        ],
        // The last "-" part of "ex-gen" is the abbreviation gen; "ex-foo" is no abbreviation.
        ['hyphenated abbreviation', 'The ex-Gen. Smith spoke.', ['The ex-Gen. Smith spoke.']],
        [
          'hyphenated non-abbreviation',
          'The ex-Foo. Smith spoke.',
          ['The ex-Foo.', 'Smith spoke.'],
        ],
        // The closing quote moves back before "--" (re_boundary_realignment's (?=--)).
        ['closing quote before a double dash', '"Stop."-- he said.', ['"Stop."', '-- he said.']],
        ['? breaks even before a lowercase word', 'Why? because.', ['Why?', 'because.']],
        [
          'leading whitespace stays in the first sentence',
          '  Hello. World.',
          ['  Hello.', 'World.'],
        ],
        ['newlines alone do not split', 'Hello\n\nWorld', ['Hello\n\nWorld']],
        ['empty text', '', []],
        ['blank text', ' \n\t ', []],
      ]
      for (const [name, text, want] of cases) {
        it(name, () => expect(sentTokenize(text, params)).toEqual(want))
      }
    })

    describe('wordTokenize', () => {
      const cases: Array<[string, string, string[]]> = [
        // nltk.tokenize docstring.
        [
          'docstring: Good muffins',
          'Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\n\nThanks.',
          [
            'Good',
            'muffins',
            'cost',
            '$',
            '3.88',
            'in',
            'New',
            'York',
            '.',
            'Please',
            'buy',
            'me',
            'two',
            'of',
            'them',
            '.',
            'Thanks',
            '.',
          ],
        ],
        // nltk/test/tokenize.doctest word_tokenize examples.
        [
          'doctest s1',
          'On a $50,000 mortgage of 30 years at 8 percent, the monthly payment would be $366.88.',
          [
            'On',
            'a',
            '$',
            '50,000',
            'mortgage',
            'of',
            '30',
            'years',
            'at',
            '8',
            'percent',
            ',',
            'the',
            'monthly',
            'payment',
            'would',
            'be',
            '$',
            '366.88',
            '.',
          ],
        ],
        [
          'doctest s2',
          '"We beat some pretty good teams to get here," Slocum said.',
          [
            '``',
            'We',
            'beat',
            'some',
            'pretty',
            'good',
            'teams',
            'to',
            'get',
            'here',
            ',',
            "''",
            'Slocum',
            'said',
            '.',
          ],
        ],
        [
          'doctest s3',
          'Well, we couldn\'t have this predictable, cliche-ridden, "Touched by an Angel" (a show creator John Masius worked on) wanna-be if she didn\'t.',
          [
            'Well',
            ',',
            'we',
            'could',
            "n't",
            'have',
            'this',
            'predictable',
            ',',
            'cliche-ridden',
            ',',
            '``',
            'Touched',
            'by',
            'an',
            'Angel',
            "''",
            '(',
            'a',
            'show',
            'creator',
            'John',
            'Masius',
            'worked',
            'on',
            ')',
            'wanna-be',
            'if',
            'she',
            'did',
            "n't",
            '.',
          ],
        ],
        [
          'doctest s4',
          'I cannot cannot work under these conditions!',
          ['I', 'can', 'not', 'can', 'not', 'work', 'under', 'these', 'conditions', '!'],
        ],
        [
          'doctest s5',
          'The company spent $30,000,000 to buy it.',
          ['The', 'company', 'spent', '$', '30,000,000', 'to', 'buy', 'it', '.'],
        ],
        [
          'doctest s6',
          'The company spent 40.75% of its income last year.',
          ['The', 'company', 'spent', '40.75', '%', 'of', 'its', 'income', 'last', 'year', '.'],
        ],
        ['doctest s7', 'He arrived at 3:00 pm.', ['He', 'arrived', 'at', '3:00', 'pm', '.']],
        [
          'doctest s8',
          'I bought these items: books, pencils, and pens.',
          ['I', 'bought', 'these', 'items', ':', 'books', ',', 'pencils', ',', 'and', 'pens', '.'],
        ],
        [
          'doctest s9',
          'Though there were 150, 100 of them were old.',
          ['Though', 'there', 'were', '150', ',', '100', 'of', 'them', 'were', 'old', '.'],
        ],
        [
          'doctest s10',
          "There were 300,000, but that wasn't enough.",
          ['There', 'were', '300,000', ',', 'but', 'that', 'was', "n't", 'enough', '.'],
        ],
        ['doctest s11', "It's more'n enough.", ['It', "'s", 'more', "'n", 'enough', '.']],
        [
          'doctest: quotes around a letter',
          "The 'v', I've been fooled but I'll seek revenge.",
          [
            'The',
            "'",
            'v',
            "'",
            ',',
            'I',
            "'ve",
            'been',
            'fooled',
            'but',
            'I',
            "'ll",
            'seek',
            'revenge',
            '.',
          ],
        ],
        // Hand-traced: the abbreviation keeps its period inside a sentence; at a sentence end the
        // Treebank final-period rule splits it off (the well-known "U.S" + ".").
        [
          'abbreviation inside and at the end of a sentence',
          'Dr. Smith lives in the U.S. It is big.',
          ['Dr.', 'Smith', 'lives', 'in', 'the', 'U.S', '.', 'It', 'is', 'big', '.'],
        ],
        [
          'every sentence ends in a split period',
          'One. Two. Three.',
          ['One', '.', 'Two', '.', 'Three', '.'],
        ],
        [
          'contractions across sentences',
          "I can't. You won't. We're gonna.",
          ['I', 'ca', "n't", '.', 'You', 'wo', "n't", '.', 'We', "'re", 'gon', 'na', '.'],
        ],
      ]
      for (const [name, text, want] of cases) {
        it(name, () => expect(wordTokenize(text, params)).toEqual(want))
      }
    })

    describe('properties', () => {
      const punctuationHeavy = fc.string({
        unit: fc.constantFrom(
          ...[...'. !?"\'`()[]{}<>:;,-*@#$%&…\n\r\t\u0085\u00a0\u2028aZzI1İıλ«»“”‘’—'],
          'Dr',
          'U.S',
          'cannot',
          "n't",
          'gonna',
          'The',
          '...',
          '--',
        ),
        maxLength: 60,
      })
      const anyUnicode = fc.string({ unit: 'binary', maxLength: 80 })
      for (const [name, arb] of [
        ['punctuation-heavy text', punctuationHeavy],
        ['arbitrary Unicode', anyUnicode],
      ] as const) {
        it(`${name}: tokens are non-empty, free of whitespace, and keep every non-space character`, {
          timeout: 120_000,
        }, () => {
          fc.assert(
            fc.property(arb, (text) => {
              const tokens = wordTokenize(text, params)
              for (const t of tokens) {
                expect(t.length).toBeGreaterThan(0)
                expect(PY_SPACE.test(t)).toBe(false)
              }
              expect(quoteNormalized(tokens.join(''))).toBe(quoteNormalized(text))
              expect(sentTokenize(text, params).join('').replace(PY_SPACE_G, '')).toBe(
                text.replace(PY_SPACE_G, ''),
              )
            }),
            { numRuns: 400 },
          )
        })
      }
    })

    describe('long and adversarial input finishes (linear scans)', () => {
      const MB = 1 << 20
      const inputs: Array<[string, string, number]> = [
        [
          '1 MB of prose',
          'The cat sat on the mat. Dr. Smith said "hi" (twice)! It\'s 3:45 p.m. -- isn\'t it? '.repeat(
            MB / 84,
          ),
          0,
        ],
        ['1 MB without spaces', 'a'.repeat(MB), 1],
        ['1 MB of spaces then a word', ' '.repeat(MB) + 'x', 1],
        ['1 MB of periods', '.'.repeat(MB), 1],
        // "a." is an initial; lowercase "b" has flags 44 (seen capitalised), so no break: "a." stays whole.
        ['a period, 1 MB of spaces, a word', 'a.' + ' '.repeat(MB) + 'b', 2],
        ['a period, 1 MB of closing brackets', 'a.' + ']'.repeat(MB) + ' x', MB + 3],
        ['256 KB of ". "', '. '.repeat(MB / 8), MB / 8],
        ['256 KB of "!"', '!'.repeat(MB / 4), MB / 4],
      ]
      for (const [name, text, count] of inputs) {
        it(name, { timeout: 300_000 }, () => {
          const tokens = wordTokenize(text, params)
          if (count > 0) expect(tokens.length).toBe(count)
          else expect(tokens.length).toBeGreaterThan(100_000)
        })
      }
    })
  },
)
