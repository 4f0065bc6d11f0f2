/**
 * Pairing human labels with judgments: several annotators, derived conversation ids, and the
 * "never silent" identity: every labelled turn is paired or counted as invalid, missing or
 * without a judgment (fast-check).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { judgeAgreement } from '../../../src/stats/agreement/index.js'

const enc = (lines: readonly unknown[]): Uint8Array => new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n'))
const judgment = (turn: string, dimension: string, score: number | null, status = score === null ? 'invalid' : 'ok') => ({
  turn_id: turn,
  conversation_id: turn.split('_turn_')[0],
  dimension,
  score,
  status,
  config_hash: 'h',
  attempts: 1,
})

describe('pairing', () => {
  it('two annotators: each label pairs with the judge score; conversation ids derived from turn ids', () => {
    const human = enc([
      { turn_id: 'a_turn_1', dimension: 'relevance', score: 4, annotator: 'x' },
      { turn_id: 'a_turn_1', dimension: 'relevance', score: 5, annotator: 'y' },
      { turn_id: 'b_turn_1', dimension: 'relevance', score: 2, annotator: 'x' },
    ])
    const judged = enc([judgment('a_turn_1', 'relevance', 4), judgment('b_turn_1', 'relevance', 3)])
    const r = judgeAgreement({ human: { file: 'h', bytes: human }, judgments: { file: 'j', bytes: judged } }, { bootstrap: 0 })
    expect(r.pairing.annotators).toBe(2)
    expect(r.pairing.pairs.map((p) => [p.conversationId, p.turnId, p.human, p.judge])).toEqual([
      ['a', 'a_turn_1', 4, 4],
      ['a', 'a_turn_1', 5, 4],
      ['b', 'b_turn_1', 2, 3],
    ])
    const d = r.report.dimensions[0]!
    expect([d.n, d.turns, d.conversations]).toEqual([3, 2, 2])
    expect(d.statistics.exactAgreement.value).toBe(1 / 3)
    expect(d.statistics.meanBias.value).toBe(0)
  })

  it('every labelled turn is paired or counted (never silently dropped)', () => {
    const turn = fc.constantFrom('a_turn_1', 'a_turn_2', 'b_turn_1', 'c_turn_1', 'c_turn_2', 'd_turn_1')
    const dim = fc.constantFrom('correctness', 'relevance')
    const status = fc.constantFrom('ok', 'ok', 'invalid', 'missing')
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(turn, dim, fc.integer({ min: 1, max: 5 })), { selector: (x) => `${x[0]}|${x[1]}`, maxLength: 12 }),
        fc.uniqueArray(fc.tuple(turn, dim, fc.integer({ min: 1, max: 5 }), status), { selector: (x) => `${x[0]}|${x[1]}`, maxLength: 12 }),
        (labels, judgments) => {
          fc.pre(labels.length > 0 && judgments.length > 0)
          const human = enc(labels.map(([t, d, s]) => ({ turn_id: t, dimension: d, score: s })))
          const judged = enc(judgments.map(([t, d, s, st]) => judgment(t, d, st === 'ok' ? s : null, st)))
          const r = judgeAgreement({ human: { file: 'h', bytes: human }, judgments: { file: 'j', bytes: judged } }, { bootstrap: 0 })
          for (const p of r.pairing.dimensions) {
            expect(p.pairedTurns + p.unpairedInvalid + p.unpairedMissing + p.unpairedNoJudgment).toBe(p.humanTurns)
            expect(p.judgmentsOk + p.judgmentsInvalid + p.judgmentsMissing).toBe(p.judgments)
            expect(p.pairs).toBe(p.pairedTurns) // one annotator
          }
          expect(r.pairing.pairs.length).toBe(r.report.dimensions.reduce((s, d) => s + d.n, 0))
        },
      ),
    )
  })
})
