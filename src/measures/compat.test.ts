import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { prepareQuery } from '../rank/prepare.js'
import { compat } from './compat.js'
import { parseMeasure } from './name.js'

/** The prepared ranking of query 1 (score descending, ties by docno ascending), docs attached. */
function prepared(qrels: string, run: string) {
  const q = parseQrels(Buffer.from(qrels)).value.queries.get('1')!
  const r = parseRun(Buffer.from(run)).value.queries.get('1')!
  const p = prepareQuery(q, r, { ...trecEvalV10, ordering: 'score-docid-asc' }, { docs: true })
  if (!p.ok) throw new Error('not prepared')
  return p.ranking
}

describe('Compat (ir_measures compat provider)', () => {
  // Qrels A 2, B 1, C 1, D 0; run B, X (unjudged), A, Y. R = B X A Y, I = A B C, D = 4.
  const q = prepared(
    '1 0 A 2\n1 0 B 1\n1 0 C 1\n1 0 D 0\n',
    '1 Q0 B 1 4 t\n1 Q0 X 2 3 t\n1 Q0 A 3 2 t\n1 Q0 Y 4 1 t\n',
  )
  it('hand-computed RBO, raw and normalised (p = 0.5)', () => {
    // Overlaps 0, 1, 2, 2: (0 + .5·1/2 + .25·2/3 + .125·2/4) / 1.875 = 23/90.
    expect(compat(q, 0.5, false)).toBeCloseTo(23 / 90, 15)
    // The ideal against itself: overlaps 1, 2, 3, 3 → 59/60; Compat = (23/90)/(59/60) = 46/177.
    expect(compat(q, 0.5, true)).toBeCloseTo(46 / 177, 15)
  })
  it('ideal ties: equal grades by run score (0 when not retrieved), then qrels order', () => {
    // P, Q, S all grade 1; S scored -1, Q 0, P not retrieved (0): I = P Q S, R = Q S.
    const t = prepared('1 0 P 1\n1 0 Q 1\n1 0 S 1\n', '1 Q0 S 1 -1 t\n1 Q0 Q 2 0 t\n')
    // Overlaps 0, 1, 2 over D = 3: (.5·1/2 + .25·2/3) / 1.75 = 5/21; the ideal scores 1.
    expect(compat(t, 0.5, true)).toBeCloseTo(5 / 21, 15)
  })
  it('no relevant doc: 0; defaults p = 0.95 and normalize, canonical names', () => {
    expect(compat(prepared('1 0 A 0\n', '1 Q0 A 1 1 t\n'))).toBe(0)
    expect(parseMeasure('Compat(p=0.95,normalize=True)')[0]!.name).toBe('Compat')
    expect(parseMeasure('Compat(normalize=False)')[0]!.name).toBe('Compat(normalize=False)')
  })
})
