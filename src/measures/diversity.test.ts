/**
 * Hand-computed diversity values. Query: S = 2 subtopics; judged relevant docs
 * a → {0, 1}, b → {0}, c → {1}. Run: [b, x, a] (x unjudged). α = 0.5, β = 0.5.
 * Gains: b: 1; x: 0; a: (1 − α)^1 + (1 − α)^0 = 1.5.
 * Greedy ideal: a (2), then b and c tie at 0.5 → c first (docno descending), then b: gains 2, 0.5, 0.5.
 */
import { describe, expect, it } from 'vitest'
import { parseQrels } from '../io/trec-qrels.js'
import type { SubtopicJudgments } from '../model/types.js'
import { alphaDCG, alphaGains, apIA, greedyIdeal, nrbp, pIA, subtopicRecall } from './diversity.js'
import { ranking } from './test-helpers.js'

const J: SubtopicJudgments = {
  count: 2,
  docs: new Map([
    ['a', [0, 1]],
    ['b', [0]],
    ['c', [1]],
  ]),
  relevantPerSubtopic: [2, 2],
}
const q = { ...ranking([1, -1, 1]), diversity: { judgments: J, ranked: [[0], [], [0, 1]] } }
const l2 = Math.log2

describe('diversity measures by hand', () => {
  it('novelty-discounted gains and the greedy ideal (ties by docno descending)', () => {
    expect(alphaGains(q.diversity.ranked, 2, 0.5)).toEqual([1, 0, 1.5])
    expect(greedyIdeal(J, 0.5)).toEqual([[0, 1], [1], [0]])
  })
  it('alpha_DCG@3 over the ideal ideal, alpha_nDCG@3 over the greedy ideal', () => {
    const run = 1 + 1.5 / 2 // ranks 1 and 3: 1/log2(2), 1.5/log2(4)
    expect(alphaDCG(q, 0.5, 3, 'ideal-ideal')).toBeCloseTo(run / (2 + 1 / l2(3) + 0.5 / 2), 14)
    expect(alphaDCG(q, 0.5, 3, 'greedy')).toBeCloseTo(run / (2 + 0.5 / l2(3) + 0.5 / 2), 14)
  })
  it('ERR_IA@3 and nERR_IA@3: rank discount', () => {
    const d = (i: number) => 1 / i
    expect(alphaDCG(q, 0.5, 3, 'ideal-ideal', d)).toBeCloseTo((1 + 0.5) / (2 + 1 / 2 + 0.5 / 3), 14)
    expect(alphaDCG(q, 0.5, 3, 'greedy', d)).toBeCloseTo((1 + 0.5) / (2 + 0.25 + 0.5 / 3), 14)
  })
  it('NRBP = (1 − αβ)/S · Σ gain β^(i−1); nNRBP over the ideal', () => {
    expect(nrbp(q.diversity.ranked, 2, 0.5, 0.5)).toBeCloseTo((0.75 / 2) * (1 + 1.5 / 4), 15)
    expect(nrbp(greedyIdeal(J, 0.5), 2, 0.5, 0.5)).toBeCloseTo(
      (0.75 / 2) * (2 + 0.25 + 0.5 / 4),
      15,
    )
  })
  it('AP_IA: subtopic 0 at ranks 1, 3 → (1 + 2/3)/2; subtopic 1 at rank 3 → (1/3)/2', () => {
    expect(apIA(q)).toBeCloseTo(((1 + 2 / 3) / 2 + 1 / 3 / 2) / 2, 15)
  })
  it('P_IA@k divides by k even past the run; StRecall@k', () => {
    expect(pIA(q, 1)).toBe(1 / 2)
    expect(pIA(q, 5)).toBe(3 / 10)
    expect(subtopicRecall(q, 2)).toBe(1 / 2)
    expect(subtopicRecall(q, 3)).toBe(1)
  })
  it('no subtopic with a relevant doc: 0', () => {
    const none = {
      ...ranking([0]),
      diversity: {
        judgments: { count: 0, docs: new Map(), relevantPerSubtopic: [] },
        ranked: [[]],
      },
    }
    expect([
      alphaDCG(none, 0.5, 5, 'greedy'),
      apIA(none),
      pIA(none, 5),
      subtopicRecall(none, 5),
    ]).toEqual([0, 0, 0, 0])
  })
})

describe('diversity qrels', () => {
  const text = ['7 1 a 1', '7 2 a 3', '7 1 b 0', '7 3 c 0', '8 1 d 0', ''].join('\n')
  it('binarise judgments, ignore subtopics without a relevant doc, keep each doc once', () => {
    const r = parseQrels(Buffer.from(text), { format: 'diversity' })
    expect(r.issues).toEqual([])
    const s7 = r.value.subtopics!.get('7')!
    expect(s7.count).toBe(2) // subtopic 3 has only a 0
    expect([...s7.docs]).toEqual([['a', [0, 1]]])
    expect(s7.relevantPerSubtopic).toEqual([1, 1])
    expect(r.value.subtopics!.get('8')!.count).toBe(0)
    // The other measures see each doc once, with its highest judgment.
    expect([...r.value.queries.get('7')!.grades]).toEqual([
      ['a', 3],
      ['b', 0],
      ['c', 0],
    ])
    expect(r.value.queries.get('7')!.duplicateDocs).toEqual([])
  })
  it('a negative judgment and a repeated (subtopic, doc) are problems with their line', () => {
    const r = parseQrels(Buffer.from('7 1 a 1\n7 1 b -1\n7 1 a 0\n'), {
      format: 'diversity',
      file: 'd.txt',
    })
    expect(r.ok).toBe(false)
    expect(r.issues.map((i) => [i.code, 'line' in i ? i.line : 0])).toEqual([
      ['negative_judgment', 2],
      ['duplicate_judgment', 3],
    ])
  })
  it('read as ad hoc qrels, the same file has duplicate judgments', () => {
    expect(parseQrels(Buffer.from(text)).value.queries.get('7')!.duplicateDocs).toEqual(['a'])
  })
})
