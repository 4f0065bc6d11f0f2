/**
 * Pairing human labels with judgments: several annotators, derived conversation ids, the same
 * turn id in several RECOR domains (pairing by domain, ambiguity, distinct bootstrap clusters),
 * and the "never silent" identity: every labelled turn is paired or counted as invalid, missing
 * or without a judgment (fast-check).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgreementInputError,
  type AgreementInputProblem,
  computeAgreement,
  formatAgreementInputProblem,
  judgeAgreement,
  pairLabels,
  parseHumanLabels,
  parseJudgments,
} from '../../../src/entries/stats.js'

/** A problem as printed, without the quoted line (`file:line: what (expected …)`). */
const said = (p: AgreementInputProblem): string => formatAgreementInputProblem({ ...p, text: '' })

const enc = (lines: readonly unknown[]): Uint8Array =>
  new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n'))
const judgment = (
  turn: string,
  dimension: string,
  score: number | null,
  status = score === null ? 'invalid' : 'ok',
) => ({
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
    const r = judgeAgreement(
      { human: { file: 'h', bytes: human }, judgments: { file: 'j', bytes: judged } },
      { bootstrap: 0 },
    )
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
    const turn = fc.constantFrom(
      'a_turn_1',
      'a_turn_2',
      'b_turn_1',
      'c_turn_1',
      'c_turn_2',
      'd_turn_1',
    )
    const dim = fc.constantFrom('correctness', 'relevance')
    const status = fc.constantFrom('ok', 'ok', 'invalid', 'missing')
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(turn, dim, fc.integer({ min: 1, max: 5 })), {
          selector: (x) => `${x[0]}|${x[1]}`,
          maxLength: 12,
        }),
        fc.uniqueArray(fc.tuple(turn, dim, fc.integer({ min: 1, max: 5 }), status), {
          selector: (x) => `${x[0]}|${x[1]}`,
          maxLength: 12,
        }),
        (labels, judgments) => {
          fc.pre(labels.length > 0 && judgments.length > 0)
          const human = enc(labels.map(([t, d, s]) => ({ turn_id: t, dimension: d, score: s })))
          const judged = enc(
            judgments.map(([t, d, s, st]) => judgment(t, d, st === 'ok' ? s : null, st)),
          )
          const r = judgeAgreement(
            { human: { file: 'h', bytes: human }, judgments: { file: 'j', bytes: judged } },
            { bootstrap: 0 },
          )
          for (const p of r.pairing.dimensions) {
            expect(
              p.pairedTurns + p.unpairedInvalid + p.unpairedMissing + p.unpairedNoJudgment,
            ).toBe(p.humanTurns)
            expect(p.judgmentsOk + p.judgmentsInvalid + p.judgmentsMissing).toBe(p.judgments)
            expect(p.pairs).toBe(p.pairedTurns) // one annotator
          }
          expect(r.pairing.pairs.length).toBe(r.report.dimensions.reduce((s, d) => s + d.n, 0))
        },
      ),
    )
  })
})

describe('the same turn id in several domains (RECOR repeats 2_turn_1 across domains)', () => {
  // conversation "2" exists in finance and in medical; finance also has conversation "3"
  const judged = (
    domain: string | null,
    turn: string,
    score: number | null,
    status = score === null ? 'invalid' : 'ok',
    dimension = 'correctness',
  ) => ({
    ...judgment(turn, dimension, score, status),
    ...(domain === null ? {} : { domain }),
  })
  const judgments = [
    judged('finance', '2_turn_1', 4), // line 1
    judged('finance', '2_turn_2', 3), // line 2
    judged('medical', '2_turn_1', 2), // line 3
    judged('medical', '2_turn_2', null), // line 4, invalid
    judged('finance', '3_turn_1', 5), // line 5, only in finance
  ]
  const run = (labels: readonly unknown[], bootstrap = 0) =>
    judgeAgreement(
      {
        human: { file: 'h.jsonl', bytes: enc(labels) },
        judgments: { file: 'j.jsonl', bytes: enc(judgments) },
      },
      { bootstrap },
    )
  const problemsOf = (labels: readonly unknown[]): string[] => {
    try {
      run(labels)
    } catch (e) {
      if (e instanceof AgreementInputError) return e.problems.map(said)
      throw e
    }
    return []
  }

  it('is no duplicate in judgments; the same domain, turn and dimension twice still is', () => {
    const ok = parseJudgments(enc(judgments), 'j.jsonl')
    expect(ok.problems).toEqual([])
    expect(ok.records.map((r) => [r.domain, r.turnId])).toEqual([
      ['finance', '2_turn_1'],
      ['finance', '2_turn_2'],
      ['medical', '2_turn_1'],
      ['medical', '2_turn_2'],
      ['finance', '3_turn_1'],
    ])
    const dup = parseJudgments(enc([...judgments, judged('medical', '2_turn_1', 5)]), 'j.jsonl')
    expect(dup.problems.map(said)).toEqual([
      'j.jsonl:6: duplicate judgment for turn "2_turn_1" in domain "medical", dimension "correctness" (first at line 3) (expected one judgment per domain, turn and dimension)',
    ])
    // a judgment without a domain is one more turn, not a duplicate of either domain's
    expect(
      parseJudgments(enc([...judgments, judged(null, '2_turn_1', 5)]), 'j.jsonl').problems,
    ).toEqual([])
  })

  it('labels accept "domain" (a non-empty string); a duplicate label is per annotator, domain, turn and dimension', () => {
    const r = parseHumanLabels(
      enc([
        { turn_id: '2_turn_1', dimension: 'correctness', score: 4, domain: 'finance' },
        { turn_id: '2_turn_1', dimension: 'correctness', score: 4, domain: 'medical' },
        { turn_id: '2_turn_1', dimension: 'correctness', score: 4 },
        { turn_id: '2_turn_1', dimension: 'correctness', score: 3, domain: 'medical' },
        { turn_id: '2_turn_2', dimension: 'correctness', score: 3, domain: 7 },
        { turn_id: '2_turn_2', dimension: 'correctness', score: 3, domain: '' },
      ]),
      'h.jsonl',
    )
    expect(r.records.map((x) => [x.line, x.domain])).toEqual([
      [1, 'finance'],
      [2, 'medical'],
      [3, null],
    ])
    expect(r.problems.map(said)).toEqual([
      'h.jsonl:4: duplicate label for turn "2_turn_1" in domain "medical", dimension "correctness" (first at line 2) (expected one label per annotator, domain, turn and dimension)',
      'h.jsonl:5: "domain" is 7 (expected "domain": a non-empty string such as "finance", or no such field)',
      'h.jsonl:6: "domain" is "" (expected "domain": a non-empty string such as "finance", or no such field)',
    ])
  })

  it('labels with a domain pair with that domain; counts, turns and conversations are per domain', () => {
    const r = run([
      { turn_id: '2_turn_1', dimension: 'correctness', score: 4, domain: 'finance' },
      { turn_id: '2_turn_2', dimension: 'correctness', score: 2, domain: 'finance' },
      { turn_id: '2_turn_1', dimension: 'correctness', score: 1, domain: 'medical' },
      { turn_id: '2_turn_2', dimension: 'correctness', score: 5, domain: 'medical' },
    ])
    expect(r.pairing.pairs.map((p) => [p.conversationId, p.turnId, p.human, p.judge])).toEqual([
      ['"finance"/2', '"finance"/2_turn_1', 4, 4],
      ['"finance"/2', '"finance"/2_turn_2', 2, 3],
      ['"medical"/2', '"medical"/2_turn_1', 1, 2],
    ])
    const p = r.pairing.dimensions[0]!
    // by turn id alone these would be 2 labelled turns, 2 paired turns, and finance 3_turn_1 the only judged-not-labelled
    expect([
      p.humanLabels,
      p.humanTurns,
      p.pairs,
      p.pairedTurns,
      p.unpairedInvalid,
      p.unpairedMissing,
      p.unpairedNoJudgment,
      p.judgedNotLabelled,
    ]).toEqual([4, 4, 3, 3, 1, 0, 0, 1])
    const d = r.report.dimensions[0]!
    expect([d.n, d.turns, d.conversations]).toEqual([3, 3, 2])
    expect(d.statistics.meanBias.value).toBeCloseTo((0 + 1 + 1) / 3, 15)
  })

  it('a judged turn of another domain is judged-not-labelled, not hidden by the label of the same turn id', () => {
    const r = run([{ turn_id: '2_turn_1', dimension: 'correctness', score: 4, domain: 'finance' }])
    const p = r.pairing.dimensions[0]!
    // ok judgments not labelled: finance 2_turn_2, medical 2_turn_1, finance 3_turn_1 (medical 2_turn_2 is invalid)
    expect([p.humanTurns, p.pairedTurns, p.judgedNotLabelled]).toEqual([1, 1, 3])
    // a label for a domain that did not judge the turn has no judgment
    const q = run([{ turn_id: '3_turn_1', dimension: 'correctness', score: 4, domain: 'medical' }])
      .pairing.dimensions[0]!
    expect([q.humanTurns, q.pairedTurns, q.unpairedNoJudgment, q.judgedNotLabelled]).toEqual([
      1, 0, 1, 4,
    ])
  })

  it('a label without a domain pairs when exactly one domain judged the turn', () => {
    const r = run([{ turn_id: '3_turn_1', dimension: 'correctness', score: 5, annotator: 'x' }])
    expect(r.pairing.pairs.map((p) => [p.conversationId, p.turnId, p.human, p.judge])).toEqual([
      ['"finance"/3', '"finance"/3_turn_1', 5, 5],
    ])
    // the same annotator labelling that turn with and without the domain is one turn labelled twice
    expect(
      problemsOf([
        {
          turn_id: '3_turn_1',
          dimension: 'correctness',
          score: 5,
          annotator: 'x',
          domain: 'finance',
        },
        { turn_id: '3_turn_1', dimension: 'correctness', score: 4, annotator: 'x' },
      ]),
    ).toEqual([
      'h.jsonl:2: label for turn "3_turn_1" in domain "finance", dimension "correctness", annotator "x" labels the same turn as line 1 (a label without "domain" pairs with the only domain that judged the turn) (expected one label per annotator, domain, turn and dimension)',
    ])
  })

  it('a label without a domain for a turn judged in several domains is a problem, all reported at once (exit 2)', () => {
    const problems = problemsOf([
      { turn_id: '2_turn_1', dimension: 'correctness', score: 4 },
      { turn_id: '3_turn_1', dimension: 'correctness', score: 4 },
      { turn_id: '2_turn_2', dimension: 'correctness', score: 4 },
      {
        turn_id: '2_turn_2',
        dimension: 'correctness',
        score: 3,
        domain: 'finance',
        annotator: 'y',
      },
    ])
    expect(problems).toEqual([
      'h.jsonl:1: turn "2_turn_1" is judged in domains finance, medical (j.jsonl:1, j.jsonl:3); add "domain" to the label (expected a "domain" field naming which of these domains the label is for (dimension "correctness"))',
      'h.jsonl:3: turn "2_turn_2" is judged in domains finance, medical (j.jsonl:2, j.jsonl:4); add "domain" to the label (expected a "domain" field naming which of these domains the label is for (dimension "correctness"))',
    ])
    expect(() => run([{ turn_id: '2_turn_1', dimension: 'correctness', score: 4 }])).toThrow(
      expect.objectContaining({ exitCode: 2 }),
    )
  })

  it('the bootstrap resamples conversation "2" of finance and of medical as two clusters', () => {
    const labels = [
      { turn_id: '2_turn_1', dimension: 'correctness', score: 4, domain: 'finance' },
      { turn_id: '2_turn_2', dimension: 'correctness', score: 2, domain: 'finance' },
      { turn_id: '2_turn_1', dimension: 'correctness', score: 1, domain: 'medical' },
      { turn_id: '3_turn_1', dimension: 'correctness', score: 3 },
    ]
    const r = run(labels, 300)
    expect(r.report.dimensions[0]!.conversations).toBe(3)
    // the same as computing on hand-made pairs with three distinct conversation ids
    const byHand = computeAgreement(
      [
        { conversationId: 'F2', turnId: 'F2_1', dimension: 'correctness', human: 4, judge: 4 },
        { conversationId: 'F2', turnId: 'F2_2', dimension: 'correctness', human: 2, judge: 3 },
        { conversationId: 'M2', turnId: 'M2_1', dimension: 'correctness', human: 1, judge: 2 },
        { conversationId: 'F3', turnId: 'F3_1', dimension: 'correctness', human: 3, judge: 5 },
      ],
      { bootstrap: 300 },
    )
    expect(r.report.dimensions).toEqual(byHand.dimensions)
    // and not the same as merging conversation "2" across domains (two clusters)
    const merged = computeAgreement(
      r.pairing.pairs.map((p) => ({
        ...p,
        conversationId: p.conversationId.replace(/^"[^"]*"\//, ''),
      })),
      { bootstrap: 300 },
    )
    expect(merged.dimensions[0]!.conversations).toBe(2)
    expect(merged.dimensions[0]!.statistics.meanBias.ci).not.toEqual(
      r.report.dimensions[0]!.statistics.meanBias.ci,
    )
  })

  it('every labelled (domain, turn) is paired or counted, or the label is reported as ambiguous (fast-check)', () => {
    const turn = fc.constantFrom('1_turn_1', '1_turn_2', '2_turn_1')
    const domain = fc.constantFrom<string | null>('a', 'b', null)
    const status = fc.constantFrom('ok', 'ok', 'invalid', 'missing')
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(domain, turn, fc.integer({ min: 1, max: 5 })), {
          selector: (x) => `${x[0]}|${x[1]}`,
          maxLength: 9,
        }),
        fc.uniqueArray(fc.tuple(domain, turn, fc.integer({ min: 1, max: 5 }), status), {
          selector: (x) => `${x[0]}|${x[1]}`,
          maxLength: 9,
        }),
        (labels, judgedRows) => {
          const h = parseHumanLabels(
            enc(
              labels.map(([d, t, s]) => ({
                turn_id: t,
                dimension: 'c',
                score: s,
                ...(d === null ? {} : { domain: d }),
              })),
            ),
            'h',
          )
          const j = parseJudgments(
            enc(judgedRows.map(([d, t, s, st]) => judged(d, t, st === 'ok' ? s : null, st, 'c'))),
            'j',
          )
          expect([...h.problems, ...j.problems]).toEqual([])
          const r = pairLabels(h.records, j.records, { humanFile: 'h', judgmentsFile: 'j' })
          const domainsOf = (t: string): number => judgedRows.filter((x) => x[1] === t).length
          const ambiguous = labels.filter(([d, t]) => d === null && domainsOf(t) > 1)
          expect(r.problems.filter((p) => p.code === 'ambiguous_domain').length).toBe(
            ambiguous.length,
          )
          for (const p of r.dimensions) {
            const dropped = r.problems.length
            expect(
              p.pairedTurns + p.unpairedInvalid + p.unpairedMissing + p.unpairedNoJudgment,
            ).toBe(p.humanTurns)
            expect(p.humanTurns).toBe(labels.length - dropped)
            expect(p.pairs).toBe(p.pairedTurns)
            // each ok judgment is either paired or judged-not-labelled
            expect(p.pairedTurns + p.judgedNotLabelled).toBe(p.judgmentsOk)
          }
        },
      ),
    )
  })
})
