import type { AgreementPair } from './agreement.js'
import type { AgreementInputProblem } from './jsonl.js'
import type { HumanLabel, JudgmentRecord } from './labels.js'

/**
 * Pairs human labels with judge judgments by (turn, dimension) (pure). Only judgments with
 * status "ok" pair; every label or judgment that does not pair is counted by reason, per
 * dimension, so nothing is dropped silently. Judgments made under more than one judge-config
 * hash are refused, as is a turn whose conversation id differs between the two files.
 */

export interface DimensionPairing {
  readonly dimension: string
  /** Human labels (turn × annotator) and distinct labelled turns. */
  readonly humanLabels: number
  readonly humanTurns: number
  /** Judgment records for this dimension, and how many had each status. */
  readonly judgments: number
  readonly judgmentsOk: number
  readonly judgmentsInvalid: number
  readonly judgmentsMissing: number
  /** Pairs made (one per human label whose turn has an ok judgment) and their distinct turns. */
  readonly pairs: number
  readonly pairedTurns: number
  /** Human-labelled turns whose judgment is invalid / missing / absent from the judgments file. */
  readonly unpairedInvalid: number
  readonly unpairedMissing: number
  readonly unpairedNoJudgment: number
  /** Ok judgments of turns nobody labelled (not used). */
  readonly judgedNotLabelled: number
}

export interface Pairing {
  readonly pairs: AgreementPair[]
  readonly dimensions: DimensionPairing[]
  /** The one judge-config hash of the judgments (null when there are none). */
  readonly configHash: string | null
  /** Distinct human annotators (null annotator counts as one unnamed annotator). */
  readonly annotators: number
  /** Problems that stop the comparison (mixed hashes, conflicting conversation ids, unknown --dimension). */
  readonly problems: AgreementInputProblem[]
}

export interface PairingOptions {
  readonly humanFile: string
  readonly judgmentsFile: string
  /** Only these dimensions (each must occur in one of the files). */
  readonly dimensions?: readonly string[]
}

export function pairLabels(humans: readonly HumanLabel[], judgments: readonly JudgmentRecord[], options: PairingOptions): Pairing {
  const problems: AgreementInputProblem[] = []
  // one config hash
  const hashes = new Map<string, { count: number; first: number }>()
  for (const j of judgments) {
    const h = hashes.get(j.configHash)
    if (h) h.count++
    else hashes.set(j.configHash, { count: 1, first: j.line })
  }
  if (hashes.size > 1) {
    problems.push({
      file: options.judgmentsFile,
      line: 0,
      text: '',
      message: `judgments made under ${hashes.size} different judge configs: ${[...hashes].map(([h, v]) => `${h} (${v.count} line(s), first at line ${v.first})`).join(', ')}`,
      expected: 'every judgment made under one judge config (one config_hash); rerun or split the file',
    })
  }
  const allDims: string[] = []
  for (const d of [...judgments.map((j) => j.dimension), ...humans.map((h) => h.dimension)]) if (!allDims.includes(d)) allDims.push(d)
  let dims = allDims
  if (options.dimensions && options.dimensions.length) {
    const unknown = options.dimensions.filter((d) => !allDims.includes(d))
    for (const d of unknown) {
      problems.push({ file: '--dimension', line: 0, text: d, message: `dimension ${JSON.stringify(d)} is in neither file`, expected: `one of ${allDims.map((x) => JSON.stringify(x)).join(', ') || '(no dimensions found)'}` })
    }
    dims = allDims.filter((d) => options.dimensions!.includes(d))
  }
  const judgmentOf = new Map<string, JudgmentRecord>()
  for (const j of judgments) judgmentOf.set(JSON.stringify([j.turnId, j.dimension]), j)
  const pairs: AgreementPair[] = []
  const dimensions: DimensionPairing[] = []
  for (const dimension of dims) {
    const hs = humans.filter((h) => h.dimension === dimension)
    const js = judgments.filter((j) => j.dimension === dimension)
    const labelledTurns = new Set(hs.map((h) => h.turnId))
    const pairedTurns = new Set<string>()
    const unpaired = { invalid: new Set<string>(), missing: new Set<string>(), none: new Set<string>() }
    let n = 0
    for (const h of hs) {
      const j = judgmentOf.get(JSON.stringify([h.turnId, dimension]))
      if (!j) {
        unpaired.none.add(h.turnId)
        continue
      }
      if (j.conversationId !== h.conversationId) {
        problems.push({
          file: options.humanFile,
          line: h.line,
          text: h.turnId,
          message: `turn ${JSON.stringify(h.turnId)} is in conversation ${JSON.stringify(h.conversationId)} here but ${JSON.stringify(j.conversationId)} in ${options.judgmentsFile}:${j.line}`,
          expected: 'the same conversation id in both files',
        })
        continue
      }
      if (j.status !== 'ok') {
        unpaired[j.status].add(h.turnId)
        continue
      }
      pairs.push({ conversationId: h.conversationId, turnId: h.turnId, dimension, human: h.score, judge: j.score! })
      pairedTurns.add(h.turnId)
      n++
    }
    dimensions.push({
      dimension,
      humanLabels: hs.length,
      humanTurns: labelledTurns.size,
      judgments: js.length,
      judgmentsOk: js.filter((j) => j.status === 'ok').length,
      judgmentsInvalid: js.filter((j) => j.status === 'invalid').length,
      judgmentsMissing: js.filter((j) => j.status === 'missing').length,
      pairs: n,
      pairedTurns: pairedTurns.size,
      unpairedInvalid: unpaired.invalid.size,
      unpairedMissing: unpaired.missing.size,
      unpairedNoJudgment: unpaired.none.size,
      judgedNotLabelled: js.filter((j) => j.status === 'ok' && !labelledTurns.has(j.turnId)).length,
    })
  }
  return {
    pairs,
    dimensions,
    configHash: hashes.size === 1 ? [...hashes.keys()][0]! : null,
    annotators: new Set(humans.map((h) => h.annotator)).size,
    problems,
  }
}
