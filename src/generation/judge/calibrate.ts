/**
 * Calibration on golden pairs. Pure: no I/O.
 *
 * A golden case is two answers to the same turn that differ in one respect that one dimension
 * measures (supported vs unsupported → faithfulness, complete vs incomplete → completeness,
 * coherent vs incoherent → coherence, relevant vs off-topic → relevance, correct vs incorrect →
 * correctness). The judge scores both on that dimension; the case passes when the better answer
 * gets the strictly higher score. Per dimension the report gives passes / cases (the rate), ties,
 * inversions and cases where either judgment is not `ok` (counted as failures, never dropped).
 *
 * Golden JSONL: `{"id", "dimension", "respect", "history"?, "question", "passages"?,
 * "reference"?, "better", "worse"}`.
 */

import type { JudgeFieldProblem } from '../../errors/judge-issues.js'
import type { Judgment } from './aggregate.js'
import { JUDGE_DIMENSIONS, type JudgeDimension } from './config.js'
import { type JudgeItem, parseJudgeItem } from './items.js'

/** One golden pair. */
export interface GoldenCase {
  readonly id: string
  readonly dimension: JudgeDimension
  readonly respect: string
  /** The turn with the better answer; `worse` differs only in its answer. */
  readonly better: JudgeItem
  readonly worse: JudgeItem
}

/**
 * Parse one golden record; the problems come without the place (the caller adds it; worded by
 * `formatJudgeFieldProblem`).
 */
export function parseGoldenCase(
  rec: unknown,
): { ok: true; golden: GoldenCase } | { ok: false; problems: JudgeFieldProblem[] } {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec))
    return { ok: false, problems: [{ code: 'not_an_object' }] }
  const o = rec as Record<string, unknown>
  const problems: JudgeFieldProblem[] = []
  const bad = (field: string, expected: string, v: unknown): void => {
    problems.push({ code: 'bad_value', field, expected, found: JSON.stringify(v) ?? 'nothing' })
  }
  const id = o['id']
  if (typeof id !== 'string' || id === '') bad('id', 'a non-empty string', id)
  const dim = o['dimension']
  if (!(JUDGE_DIMENSIONS as readonly unknown[]).includes(dim))
    bad('dimension', `one of ${JUDGE_DIMENSIONS.join(', ')}`, dim)
  const respect = o['respect']
  if (typeof respect !== 'string' || respect === '') bad('respect', 'a non-empty string', respect)
  for (const k of ['better', 'worse'])
    if (typeof o[k] !== 'string' || o[k] === '') bad(k, 'a non-empty answer string', o[k])
  if (o['better'] === o['worse'] && typeof o['better'] === 'string')
    problems.push({ code: 'same_answers' })
  const base: Record<string, unknown> = {
    question: o['question'],
    history: o['history'] ?? [],
    passages: o['passages'] ?? [],
  }
  if (o['reference'] !== undefined) base['reference'] = o['reference']
  const b = parseJudgeItem({
    ...base,
    turn_id: `${String(id)}/better`,
    conversation_id: String(id),
    answer: o['better'],
  })
  const w = parseJudgeItem({
    ...base,
    turn_id: `${String(id)}/worse`,
    conversation_id: String(id),
    answer: o['worse'],
  })
  if (!b.ok)
    problems.push(...b.problems.filter((p) => !(p.code === 'bad_value' && p.field === 'answer')))
  const known = [
    'id',
    'dimension',
    'respect',
    'history',
    'question',
    'passages',
    'reference',
    'better',
    'worse',
  ]
  for (const k of Object.keys(o))
    if (!known.includes(k)) problems.push({ code: 'unknown_field', field: k, known })
  if (problems.length || !b.ok || !w.ok)
    return { ok: false, problems: problems.length ? problems : [{ code: 'no_answers' }] }
  return {
    ok: true,
    golden: {
      id: id as string,
      dimension: dim as JudgeDimension,
      respect: respect as string,
      better: b.item,
      worse: w.item,
    },
  }
}

/** The outcome of one case. */
export interface CalibrationCase {
  readonly id: string
  readonly dimension: JudgeDimension
  readonly respect: string
  readonly betterScore: number | null
  readonly worseScore: number | null
  readonly outcome: 'pass' | 'tie' | 'inverted' | 'unjudged'
  /** For `unjudged`: the status and reason of the failed judgment(s). */
  readonly note: string | null
}

/** Per-dimension calibration summary. */
export interface CalibrationDimension {
  readonly dimension: JudgeDimension
  readonly cases: number
  readonly passed: number
  readonly ties: number
  readonly inverted: number
  readonly unjudged: number
  /** passed / cases (`null` without cases). */
  readonly rate: number | null
}

/** A calibration result. */
export interface CalibrationResult {
  readonly configHash: string
  readonly dimensions: readonly CalibrationDimension[]
  readonly cases: readonly CalibrationCase[]
  readonly failures: readonly CalibrationCase[]
  readonly passed: number
  readonly total: number
}

/** Compare the judgments of each case's two answers (turn ids `<id>/better`, `<id>/worse`). */
export function calibrate(
  golden: readonly GoldenCase[],
  judgments: readonly Judgment[],
  configHash: string,
): CalibrationResult {
  const byKey = new Map<string, Judgment>()
  for (const j of judgments) byKey.set(`${j.turnId}\u0000${j.dimension}`, j)
  const cases: CalibrationCase[] = golden.map((g) => {
    const b = byKey.get(`${g.better.turnId}\u0000${g.dimension}`)
    const w = byKey.get(`${g.worse.turnId}\u0000${g.dimension}`)
    const bs = b?.status === 'ok' ? b.score : null
    const ws = w?.status === 'ok' ? w.score : null
    let outcome: CalibrationCase['outcome']
    let note: string | null = null
    if (bs === null || ws === null) {
      outcome = 'unjudged'
      note = [
        b?.status !== 'ok'
          ? `better: ${b?.status ?? 'absent'}${b?.reason ? ` (${b.reason})` : ''}`
          : null,
        w?.status !== 'ok'
          ? `worse: ${w?.status ?? 'absent'}${w?.reason ? ` (${w.reason})` : ''}`
          : null,
      ]
        .filter(Boolean)
        .join('; ')
    } else outcome = bs > ws ? 'pass' : bs === ws ? 'tie' : 'inverted'
    return {
      id: g.id,
      dimension: g.dimension,
      respect: g.respect,
      betterScore: bs,
      worseScore: ws,
      outcome,
      note,
    }
  })
  const dims = JUDGE_DIMENSIONS.map((dimension): CalibrationDimension => {
    const cs = cases.filter((c) => c.dimension === dimension)
    const n = (o: CalibrationCase['outcome']) => cs.filter((c) => c.outcome === o).length
    const passed = n('pass')
    return {
      dimension,
      cases: cs.length,
      passed,
      ties: n('tie'),
      inverted: n('inverted'),
      unjudged: n('unjudged'),
      rate: cs.length ? passed / cs.length : null,
    }
  })
  const passed = cases.filter((c) => c.outcome === 'pass').length
  return {
    configHash,
    dimensions: dims,
    cases,
    failures: cases.filter((c) => c.outcome !== 'pass'),
    passed,
    total: cases.length,
  }
}
