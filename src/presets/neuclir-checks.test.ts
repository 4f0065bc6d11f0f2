import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { wordIssue } from '../errors/format-issue.js'
import type { PresetProblem } from '../errors/preset-issues.js'
import { InputError } from '../errors/trecscore-error.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { NEUCLIR_REL_MAPS } from './neuclir.js'
import {
  checkCandidates,
  checkUnifiedRanking,
  languageProblemMessages,
  parseDocLanguages,
  parseRelMap,
  remapGrade,
  remapQrelsText,
  scanNeuclirQrels,
} from './neuclir-checks.js'

/** Each problem's code and its sentence from the one table. */
const worded = (ps: readonly PresetProblem[]) =>
  ps.map((p) => ({ code: p.code, message: wordIssue('preset', p) }))

const run = (text: string) => parseRun(Buffer.from(text, 'latin1'), { keepRanks: true }).value

describe('--rel-map', () => {
  it('named neuclir-4to3 and an explicit list give the same map (3:3, 2:1, 1:0, 0:0)', () => {
    const named = parseRelMap('neuclir-4to3', NEUCLIR_REL_MAPS)
    const listed = parseRelMap('3:3,2:1,1:0,0:0', NEUCLIR_REL_MAPS)
    expect([...named].sort()).toEqual([...listed].sort())
    expect([0, 1, 2, 3, 4, -1].map((g) => remapGrade(named, g))).toEqual([0, 0, 1, 3, 4, -1])
  })
  it('refuses junk and a grade mapped twice, naming the option and what was expected', () => {
    for (const bad of ['', '3=3', '3:3,,2:1', 'neuclir-4to4', '3:3,3:1', '1:x', '1:2:3']) {
      expect(() => parseRelMap(bad, NEUCLIR_REL_MAPS), bad).toThrow(InputError)
    }
    try {
      parseRelMap('3:3,3:1')
    } catch (e) {
      expect((e as InputError).issues).toEqual([
        {
          code: 'bad_argument',
          option: '--rel-map',
          found: '3:3,3:1',
          expected: 'each grade once (3 is mapped twice)',
        },
      ])
    }
  })
  it('remapQrelsText changes only the grade field and counts the lines it changed', () => {
    const text = '201 zho d1 3\n201\tzho\td2\t2\n201 zho d3 1  \n# comment line\n202 zho d4 0\n'
    const out = remapQrelsText(text, parseRelMap('neuclir-4to3', NEUCLIR_REL_MAPS))
    expect(out).toEqual({
      text: '201 zho d1 3\n201\tzho\td2\t1\n201 zho d3 0  \n# comment line\n202 zho d4 0\n',
      changed: 2,
    })
  })
  it('splits fields and reads grades as the qrels parser does (C white space, integer grades)', () => {
    // NBSP (0xA0 in latin1) is part of a doc id for the qrels parser, not a separator; 1.5 is no grade
    const text = '201 zho d\xa0x 2\n201 zho d5 1.5\n201 zho d6 2\r\n'
    const map = parseRelMap('neuclir-4to3', NEUCLIR_REL_MAPS)
    expect(remapQrelsText(text, map)).toEqual({
      text: '201 zho d\xa0x 1\n201 zho d5 1.5\n201 zho d6 1\r\n',
      changed: 2,
    })
    const parsed = parseQrels(Buffer.from(text, 'latin1'), { file: 'q' })
    expect(parsed.issues.map((i) => [i.code, 'line' in i ? i.line : 0])).toEqual([
      ['not_an_integer', 2],
    ])
    const s = scanNeuclirQrels(text, { forbiddenGrade: 2 })
    expect([...s.gradeCounts]).toEqual([[2, 2]])
    expect(s.forbiddenGrade.map((p) => p.line)).toEqual([1, 3])
    expect([...s.docLanguages.keys()]).toEqual(['d\xa0x', 'd6'])
  })
  it('property: scanning remapped text equals scanning the original under the map', () => {
    const line = fc.tuple(
      fc.integer({ min: 200, max: 210 }),
      fc.constantFrom('zho', 'fas', 'rus'),
      fc.stringMatching(/^[a-f0-9]{1,6}$/),
      fc.integer({ min: -1, max: 4 }),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (rows) => {
        const text = rows.map(([t, l, d, g]) => `${t} ${l} ${d} ${g}`).join('\n')
        const map = parseRelMap('neuclir-4to3', NEUCLIR_REL_MAPS)
        const a = scanNeuclirQrels(remapQrelsText(text, map).text, { forbiddenGrade: 2 })
        const b = scanNeuclirQrels(text, { forbiddenGrade: 2, remap: map })
        expect([...a.gradeCounts].sort()).toEqual([...b.gradeCounts].sort())
        expect(b.forbiddenGrade).toEqual([])
        expect(a.forbiddenGrade).toEqual([])
      }),
    )
  })
})

describe('scanNeuclirQrels', () => {
  const text = [
    '204 zho a 0',
    '204 zho b 3',
    '204 fas c 1',
    '',
    '205 zho d 2',
    'junk line',
    '205 rus e 1',
  ].join('\n')
  it('lists every line whose language is not accepted, with its number and text', () => {
    const s = scanNeuclirQrels(text, { languages: ['zho'], forbiddenGrade: 2 })
    expect(s.languageProblems).toEqual([
      { line: 3, found: 'fas', text: '204 fas c 1' },
      { line: 7, found: 'rus', text: '205 rus e 1' },
    ])
    expect(s.forbiddenGrade).toEqual([{ line: 5, text: '205 zho d 2' }])
    expect([...s.gradeCounts].sort()).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
      [3, 1],
    ])
    expect(languageProblemMessages(s, 'q.zho', ['zho'], 'neuclir23-zho')).toEqual([
      `q.zho:3: language "fas" in column 2, but preset 'neuclir23-zho' expects 'zho': "204 fas c 1"`,
      `q.zho:7: language "rus" in column 2, but preset 'neuclir23-zho' expects 'zho': "205 rus e 1"`,
    ])
    expect(languageProblemMessages(s, 'q', ['zho'], 'p', 1)[1]).toBe(
      'q: 1 more line(s) with a language other than zho (2 in all)',
    )
  })
  it('MLIR: accepts the three languages and records judged languages per topic and per document', () => {
    const s = scanNeuclirQrels(text, { languages: ['zho', 'fas', 'rus'] })
    expect(s.languageProblems).toEqual([])
    expect(Object.fromEntries([...s.topicLanguages].map(([t, l]) => [t, [...l].sort()]))).toEqual({
      '204': ['fas', 'zho'],
      '205': ['rus', 'zho'],
    })
    expect(s.docLanguages.get('c')).toBe('fas')
  })
  it('grade 2 remapped away is not reported; remapped judgments are counted', () => {
    const s = scanNeuclirQrels(text, { forbiddenGrade: 2, remap: parseRelMap('3:3,2:1,1:0,0:0') })
    expect(s.forbiddenGrade).toEqual([])
    expect(s.remapped).toBe(3) // c 1→0, d 2→1, e 1→0
  })
  it('hostile input: a 5 MB line and binary junk neither crash nor hang', () => {
    const junk = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))
    const s = scanNeuclirQrels(`${'x'.repeat(5_000_000)}\n${junk}\n204 zho a 1\n`, {
      languages: ['zho'],
      forbiddenGrade: 2,
    })
    expect(s.gradeCounts.get(1)).toBe(1)
    expect(s.languageProblems.every((p) => p.text.length <= 4096)).toBe(true)
  })
})

describe('parseDocLanguages', () => {
  it('reads "docid lang" lines and qrels lines, and names bad lines', () => {
    const r = parseDocLanguages('d1 zho\n# note\n204 fas d2 1\n\nd3 rus extra\n', 'langs.txt')
    expect([...r.languages]).toEqual([
      ['d1', 'zho'],
      ['d2', 'fas'],
    ])
    expect(r.problems.map((p) => wordIssue('preset', p))).toEqual([
      'langs.txt:5: expected "docid language" (or a qrels line "topic language docid grade"), found 3 field(s): "d3 rus extra"',
    ])
  })
})

describe('checkCandidates', () => {
  const cands = run(
    ['1 Q0 a 1 3 c', '1 Q0 b 2 2 c', '1 Q0 c 3 1 c', '2 Q0 d 1 1 c', '3 Q0 e 1 1 c'].join('\n'),
  )
  it('a reranking of exactly the candidates passes', () => {
    expect(
      checkCandidates(
        run('1 Q0 c 1 9 r\n1 Q0 a 2 8 r\n1 Q0 b 3 7 r\n2 Q0 d 1 1 r\n3 Q0 e 1 1 r\n'),
        cands,
        'r',
        'c',
      ),
    ).toEqual([])
  })
  it('flags documents outside the list (with lines), wrong counts, topics without a list, absent topics', () => {
    const r = run('1 Q0 a 1 9 r\n1 Q0 x 2 8 r\n2 Q0 d 1 1 r\n2 Q0 y 2 0 r\n9 Q0 e 1 1 r\n')
    expect(worded(checkCandidates(r, cands, 'run.txt', 'cand.txt'))).toEqual([
      {
        code: 'doc_not_in_candidates',
        message:
          'run.txt: topic 1: 1 document(s) outside its candidate list in cand.txt: x (line 2)',
      },
      {
        code: 'candidate_count',
        message:
          'run.txt: topic 1: 2 document(s), but its candidate list in cand.txt has 3 (fewer)',
      },
      {
        code: 'doc_not_in_candidates',
        message:
          'run.txt: topic 2: 1 document(s) outside its candidate list in cand.txt: y (line 4)',
      },
      {
        code: 'candidate_count',
        message: 'run.txt: topic 2: 2 document(s), but its candidate list in cand.txt has 1 (more)',
      },
      {
        code: 'topic_without_candidates',
        message: 'run.txt: 1 topic(s) have no candidate list in cand.txt: 9',
      },
      {
        code: 'candidate_count',
        message:
          'run.txt: 1 topic(s) of cand.txt are absent from the run (0 documents, fewer than their candidate list): 3',
      },
    ])
  })
})

describe('checkUnifiedRanking (MLIR)', () => {
  const langs = {
    docLanguages: new Map([
      ['z1', 'zho'],
      ['z2', 'zho'],
      ['f1', 'fas'],
      ['r1', 'rus'],
    ]),
    topicLanguages: new Map([
      ['1', new Set(['zho', 'fas'])],
      ['2', new Set(['zho'])],
    ]),
  }
  it('one merged list over the languages passes', () => {
    expect(
      checkUnifiedRanking(
        run('1 Q0 z1 1 3 m\n1 Q0 f1 2 2 m\n1 Q0 z2 3 1 m\n2 Q0 z1 1 1 m\n'),
        'm',
        1000,
        langs,
      ),
    ).toEqual([])
  })
  it('flags the rank restarting at 1 (per-language lists concatenated)', () => {
    const p = checkUnifiedRanking(
      run('1 Q0 z1 1 3 m\n1 Q0 z2 2 2 m\n1 Q0 f1 1 9 m\n'),
      'm.txt',
      1000,
    )
    expect(worded(p)).toEqual([
      {
        code: 'rank_restarts',
        message:
          'm.txt: topic 1: rank 1 again at line 3 (the rank restarts, as in per-language lists concatenated); an MLIR run is one ranked list per topic',
      },
    ])
  })
  it('flags more than the depth', () => {
    const lines = Array.from({ length: 4 }, (_, i) => `1 Q0 d${i} ${i + 1} ${10 - i} m`).join('\n')
    expect(checkUnifiedRanking(run(lines), 'm.txt', 3).map((p) => p.code)).toEqual([
      'too_many_docs',
    ])
  })
  it('flags one language where several are judged, not where one is', () => {
    const p = checkUnifiedRanking(
      run('1 Q0 z1 1 3 m\n1 Q0 z2 2 2 m\n1 Q0 unknown 3 1 m\n2 Q0 z1 1 1 m\n'),
      'm.txt',
      1000,
      langs,
    )
    expect(worded(p)).toEqual([
      {
        code: 'one_language',
        message:
          "m.txt: topic 1: all 2 document(s) of known language are 'zho', but fas, zho are judged for this topic (a single-language list is not an MLIR ranking)",
      },
    ])
  })
  it('with a map but no qrels, several languages in the map are "several"', () => {
    const p = checkUnifiedRanking(run('7 Q0 r1 1 3 m\n'), 'm.txt', 1000, {
      docLanguages: langs.docLanguages,
    })
    expect(p.map((x) => wordIssue('preset', x))).toEqual([
      "m.txt: topic 7: all 1 document(s) of known language are 'rus', but fas, rus, zho are in the language map (a single-language list is not an MLIR ranking)",
    ])
  })
})
