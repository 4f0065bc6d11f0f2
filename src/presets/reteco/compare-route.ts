/**
 * RETECO route of `compare`: the per-topic rows of the `plan` convention set's reports (one per
 * run, from `scoreRetecoRuns`) as a {@link PerQueryTable}. Units are the scored topics (1a
 * queries, 1b steps, 2a/2c turns), keyed by (domain, topic) and shown as `domain/topic`. Groups:
 * `domain` always; `turn-depth` (T1 … T5+) for 2a/2c; `step` (`step<n>` from the step id) for 1b.
 * Missing topics are scored 0 by the plan (zero-filled, counted); topics left empty after
 * cleaning (every document unknown or duplicate) are also 0 and counted in a note.
 */
import type { GroupingName, PerQueryTable } from '../../compare/types.js'
import { TrecscoreError } from '../../errors/trecscore-error.js'
import { type RunInput, runInputName, runInputPath } from '../../io/run-labels.js'
import type { RetecoReport } from './report-model.js'
import { type RetecoPreset, scoreRetecoRuns } from './score-runs.js'

/** Groupings a RETECO sub-track defines. */
export function retecoGroupings(subtrack: RetecoReport['subtrack']): GroupingName[] {
  if (subtrack === '1b') return ['domain', 'step']
  if (subtrack === '2a' || subtrack === '2c') return ['domain', 'turn-depth']
  return ['domain']
}

/** Step label of a 1b step id (`q12_step3` → `step3`), or `(none)`. */
function stepLabel(topic: string): string {
  const m = /_step([0-9]+)$/.exec(topic)
  return m ? `step${Number(m[1])}` : '(none)'
}

/** The per-topic table of RETECO reports (same sub-track, split and data). */
export function tableFromRetecoReports(
  reports: readonly RetecoReport[],
  measures: readonly string[],
  source: string,
): PerQueryTable {
  const problems: string[] = []
  for (const r of reports) for (const e of r.errors) problems.push(`${r.run}: ${e}`)
  if (problems.length)
    throw new TrecscoreError(
      `compare: run(s) that cannot be scored:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … ${problems.length - 20} more` : ''}`,
      2,
    )
  const first = reports[0]
  if (!first) throw new TrecscoreError('compare needs at least 2 runs, got 0', 2)
  const available = [...new Set(first.perTopic.flatMap((t) => Object.keys(t.values)))]
  const unknown = measures.filter((m) => !available.includes(m))
  if (unknown.length)
    throw new TrecscoreError(
      `-m ${unknown.join(', ')}: not a per-topic measure of RETECO ${first.subtrack}; available: ${available.join(', ')}`,
      2,
    )
  const key = (domain: string, topic: string): string => `${domain}\u0000${topic}`
  const order = first.perTopic.map((t) => key(t.domain, t.topic))
  const groupings = retecoGroupings(first.subtrack)
  const queries = first.perTopic.map((t) => {
    const groups: Partial<Record<GroupingName, string>> = { domain: t.domain }
    if (groupings.includes('turn-depth')) groups['turn-depth'] = t.info['bucket'] ?? 'T?'
    if (groupings.includes('step')) groups['step'] = stepLabel(t.topic)
    return { id: `${t.domain}/${t.topic}`, groups }
  })
  const notes: string[] = []
  const runs = reports.map((r) => {
    if (r.subtrack !== first.subtrack || r.split !== first.split)
      throw new TrecscoreError(
        `compare: ${r.run} was scored as ${r.subtrack}/${r.split}, not ${first.subtrack}/${first.split}`,
        2,
      )
    const byKey = new Map(r.perTopic.map((t) => [key(t.domain, t.topic), t]))
    if (byKey.size !== order.length || order.some((k) => !byKey.has(k)))
      throw new TrecscoreError(
        `compare: ${r.run} was not scored on the same topics as ${first.run} (are the --domains the same?)`,
        2,
      )
    const empty = r.perTopic.filter((t) => t.status === 'empty_after_cleaning')
    if (empty.length)
      notes.push(
        `${r.run}: ${empty.length} topic(s) empty after cleaning (unknown or duplicate documents only), scored 0`,
      )
    return {
      name: r.run,
      tag: '',
      zeroFilledQueries: r.perTopic
        .filter((t) => t.status === 'missing')
        .map((t) => `${t.domain}/${t.topic}`),
      values: measures.map((m) => order.map((k) => byKey.get(k)!.values[m] ?? null)),
    }
  })
  return { source, measures, queries, groupings, runs, notes }
}

/** Inputs of {@link perQueryTableFromReteco}. */
export interface CompareRetecoInput {
  readonly preset: RetecoPreset
  readonly data: string
  /** @default 'dev' */
  readonly split?: string
  readonly domains?: readonly string[]
  /** Run paths (TREC files or per-domain directories), or `{ path, name }` with the label to show. */
  readonly runs: readonly RunInput[]
  /** Per-topic plan measures. @default ['nDCG@10'] */
  readonly measures?: readonly string[]
}

/**
 * Score RETECO runs with the plan convention set and return their per-topic table (groups:
 * domain; turn-depth for 2a/2c; step for 1b) and each run's scoring warnings.
 */
export async function perQueryTableFromReteco(input: CompareRetecoInput): Promise<{
  readonly table: PerQueryTable
  readonly warnings: readonly { readonly run: string; readonly warnings: readonly string[] }[]
}> {
  const split = input.split ?? 'dev'
  const scored = await scoreRetecoRuns({
    preset: input.preset,
    data: input.data,
    split,
    runs: input.runs.map(runInputPath),
    conventions: 'plan',
    ...(input.domains ? { domains: input.domains } : {}),
  })
  const reports = scored.map((r, i) => ({ ...r, run: runInputName(input.runs[i]!) }))
  const table = tableFromRetecoReports(
    reports,
    input.measures ?? ['nDCG@10'],
    `preset ${input.preset} (plan conventions), data ${input.data}, split ${split}`,
  )
  return { table, warnings: reports.map((r) => ({ run: r.run, warnings: r.warnings })) }
}
