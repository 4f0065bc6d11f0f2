import type { AgreementPair } from './agreement.js'
import type { AgreementInputProblem } from './jsonl.js'
import type { HumanLabel, JudgmentRecord } from './labels.js'

/**
 * Pairs human labels with judge judgments by (domain, turn, dimension) (pure). RECOR repeats
 * turn ids such as `2_turn_1` across domains, so a turn is identified by its domain and turn id
 * (domain null when absent). A label with a domain pairs with the judgment of the same domain,
 * turn and dimension; a label without one pairs with the judgment of that turn and dimension
 * when exactly one domain has it, and is a problem ("add "domain" to the label") when several
 * do. Only judgments with status "ok" pair; every label or judgment that does not pair is
 * counted by reason, per dimension, on domain-qualified turns, so nothing is dropped silently.
 * Judgments made under more than one judge-config hash are refused, as is a turn whose
 * conversation id differs between the two files.
 *
 * A pair's `conversationId` and `turnId` are qualified by the judgment's domain,
 * `"<domain>"/<id>` (see {@link domainQualified}), so the conversation bootstrap never merges
 * conversation `2` of one domain with conversation `2` of another, and distinct turns are
 * counted per domain; without a domain they are the plain ids.
 */

export interface DimensionPairing {
  readonly dimension: string
  /** Human labels (turn × annotator) and distinct labelled turns ((domain, turn) pairs). */
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

/**
 * A turn or conversation id qualified by its domain: `"<domain>"/<id>`, the domain JSON-quoted so
 * that two different (domain, id) never give the same key; the id itself when there is no domain.
 */
export function domainQualified(domain: string | null, id: string): string {
  return domain === null ? id : `${JSON.stringify(domain)}/${id}`
}

export function pairLabels(
  humans: readonly HumanLabel[],
  judgments: readonly JudgmentRecord[],
  options: PairingOptions,
): Pairing {
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
      code: 'mixed_configs',
      file: options.judgmentsFile,
      line: 0,
      text: '',
      configs: [...hashes].map(([hash, v]) => ({ hash, count: v.count, first: v.first })),
    })
  }
  const allDims: string[] = []
  for (const d of [...judgments.map((j) => j.dimension), ...humans.map((h) => h.dimension)])
    if (!allDims.includes(d)) allDims.push(d)
  let dims = allDims
  if (options.dimensions && options.dimensions.length) {
    const unknown = options.dimensions.filter((d) => !allDims.includes(d))
    for (const d of unknown) {
      problems.push({
        code: 'unknown_dimension',
        file: '--dimension',
        line: 0,
        text: d,
        dimension: d,
        dimensions: allDims,
      })
    }
    dims = allDims.filter((d) => options.dimensions!.includes(d))
  }
  // every domain's judgment of a (turn, dimension); the parser has removed duplicate (domain, turn, dimension)
  const judgmentsOf = new Map<string, JudgmentRecord[]>()
  for (const j of judgments) {
    const key = JSON.stringify([j.turnId, j.dimension])
    const list = judgmentsOf.get(key)
    if (list) list.push(j)
    else judgmentsOf.set(key, [j])
  }
  const pairs: AgreementPair[] = []
  const dimensions: DimensionPairing[] = []
  for (const dimension of dims) {
    const hs = humans.filter((h) => h.dimension === dimension)
    const js = judgments.filter((j) => j.dimension === dimension)
    // turn keys are domain-qualified (domainQualified), so the same turn id in two domains is two turns
    const labelledTurns = new Set<string>()
    const pairedTurns = new Set<string>()
    const unpaired = {
      invalid: new Set<string>(),
      missing: new Set<string>(),
      none: new Set<string>(),
    }
    // (annotator, domain, turn) of the labels seen: a label without a domain may resolve to a turn labelled with one
    const labelAt = new Map<string, number>()
    let n = 0
    for (const h of hs) {
      const candidates = judgmentsOf.get(JSON.stringify([h.turnId, dimension])) ?? []
      let j: JudgmentRecord | undefined
      if (h.domain !== null) j = candidates.find((c) => c.domain === h.domain)
      else if (candidates.length > 1) {
        problems.push({
          code: 'ambiguous_domain',
          file: options.humanFile,
          line: h.line,
          text: h.turnId,
          turnId: h.turnId,
          dimension,
          judgmentsFile: options.judgmentsFile,
          judged: candidates.map((c) => ({ domain: c.domain, line: c.line })),
        })
        continue
      } else j = candidates[0]
      const domain = h.domain ?? j?.domain ?? null
      const turnKey = domainQualified(domain, h.turnId)
      const labelKey = JSON.stringify([h.annotator, domain, h.turnId])
      const first = labelAt.get(labelKey)
      if (first !== undefined) {
        problems.push({
          code: 'same_turn_labelled',
          file: options.humanFile,
          line: h.line,
          text: h.turnId,
          turnId: h.turnId,
          domain,
          dimension,
          annotator: h.annotator,
          firstLine: first,
        })
        continue
      }
      labelAt.set(labelKey, h.line)
      labelledTurns.add(turnKey)
      if (!j) {
        unpaired.none.add(turnKey)
        continue
      }
      if (j.conversationId !== h.conversationId) {
        problems.push({
          code: 'conversation_differs',
          file: options.humanFile,
          line: h.line,
          text: h.turnId,
          turnId: h.turnId,
          conversationId: h.conversationId,
          judgmentsFile: options.judgmentsFile,
          judgedConversationId: j.conversationId,
          judgedLine: j.line,
        })
        continue
      }
      if (j.status !== 'ok') {
        unpaired[j.status].add(turnKey)
        continue
      }
      pairs.push({
        conversationId: domainQualified(j.domain, h.conversationId),
        turnId: turnKey,
        dimension,
        human: h.score,
        judge: j.score!,
      })
      pairedTurns.add(turnKey)
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
      judgedNotLabelled: js.filter(
        (j) => j.status === 'ok' && !labelledTurns.has(domainQualified(j.domain, j.turnId)),
      ).length,
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
