import { describe, expect, it } from 'vitest'
import { type JudgeItem, lexicalDiagnostics } from '../../../src/entries/judge.js'
import { loadWordNet } from '../../../src/entries/textsim.js'

const item = (
  turnId: string,
  domain: string,
  answer: string | null,
  reference: string | null,
): JudgeItem => ({
  turnId,
  conversationId: turnId.split('_turn_')[0]!,
  domain,
  turnDepth: Number(turnId.split('_turn_')[1]),
  history: [],
  question: 'q',
  answer,
  passages: [],
  reference,
})

describe('lexical diagnostics beside the judge (hand-computed)', () => {
  it('ROUGE-L F and METEOR per turn, unanswered 0, no-reference skipped, macro means', async () => {
    const wordnet = await loadWordNet()
    const d = lexicalDiagnostics(
      [
        item('a_turn_1', 'x', 'the cat sat', 'the cat sat on a mat'),
        item('a_turn_2', 'x', 'the cat sat on the mat', 'the cat sat on the mat'),
        item('b_turn_1', 'y', null, 'anything'),
        item('b_turn_2', 'y', 'no reference here', null),
      ],
      wordnet,
    )
    // a_turn_1: LCS 3, P = 1, R = 3/6, F = 2/3. METEOR: P = 1, R = 1/2, fmean = PR/(0.9P + 0.1R) = 0.5/0.95,
    // one chunk of 3 matches: penalty 0.5·(1/3)^3, score = fmean·(1 − 1/54).
    const [t1, t2, t3] = d.turns
    expect(t1!.rougeL).toBeCloseTo(2 / 3, 15)
    expect(t1!.meteor).toBeCloseTo((0.5 / 0.95) * (1 - 0.5 / 27), 15)
    // identical: F = 1; METEOR = 1 − 0.5·(1/6)^3
    expect(t2!.rougeL).toBe(1)
    expect(t2!.meteor).toBeCloseTo(1 - 0.5 / 216, 15)
    expect(t3).toMatchObject({ turnId: 'b_turn_1', rougeL: 0, meteor: 0, unanswered: true })
    expect(d).toMatchObject({ noReference: 1, unanswered: 1, tooLong: 0 })
    expect(d.all.turns).toBe(3)
    expect(d.all.rougeL).toBeCloseTo((2 / 3 + 1 + 0) / 3, 15)
    expect(d.byDomain.map((g) => [g.key, g.turns])).toEqual([
      ['x', 2],
      ['y', 1],
    ])
    expect(d.byDepth.map((g) => [g.key, g.turns])).toEqual([
      ['T1', 2],
      ['T2', 1],
    ])
    expect(
      lexicalDiagnostics([item('a_turn_1', 'x', 'the cat sat', 'the cat sat on a mat')], null).all
        .meteor,
    ).toBeNull()
  })
})
