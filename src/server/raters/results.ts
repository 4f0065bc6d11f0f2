/**
 * Results of a sample, computed by the engine's own functions on the exported bytes (so they
 * equal `trecscore judge agreement` and `trecscore judge report` on the downloaded files):
 *
 * - judge against human: `judgeAgreement` of `human-labels.jsonl` and `judgments.jsonl`;
 * - human against human: `judgeAgreement` of `human-a.jsonl` and `human-b.jsonl`;
 * - the disclosure report: what `judge report judgments.jsonl --human
 *   human-labels.jsonl --config judge-config.json` writes, run in the folder of the downloads,
 *   followed by what only the platform knows: the sample's design and strata, the raters, the
 *   skips with their reasons, and the human-against-human agreement (in the JSON under
 *   `spot_validation`).
 * Bootstrap: 1000 resamples, seed 42 (the CLI's defaults).
 */
import {
  AgreementInputError,
  aggregateJudgments,
  depthBucket,
  disclosureJson,
  escapeMarkdownStrict,
  type JudgeAgreementResult,
  type Judgment,
  judgeAgreement,
  judgeConfigHash,
  parseJudgeConfig,
  parseJudgmentRecord,
  renderAgreementJson,
  renderAgreementMarkdown,
  renderDisclosureMarkdown,
} from '../../internal.js'
import { type SampleData, sampleExports } from './store.js'

/** The download names. */
export const FILES = {
  humanLabels: 'human-labels.jsonl',
  judgments: 'judgments.jsonl',
  humanA: 'human-a.jsonl',
  humanB: 'human-b.jsonl',
  config: 'judge-config.json',
  disclosureMd: 'disclosure.md',
  disclosureJson: 'disclosure.json',
} as const

const enc = new TextEncoder()

/** An agreement, or why there is none yet. */
export type AgreementOutcome =
  | { readonly ok: true; readonly result: JudgeAgreementResult }
  | { readonly ok: false; readonly why: string }

function agreement(humanFile: string, human: string, judgedFile: string, judged: string) {
  if (human === '') return { ok: false as const, why: 'no ratings yet' }
  try {
    return {
      ok: true as const,
      result: judgeAgreement({
        human: { file: humanFile, bytes: enc.encode(human) },
        judgments: { file: judgedFile, bytes: enc.encode(judged) },
      }),
    }
  } catch (e) {
    if (e instanceof AgreementInputError) return { ok: false as const, why: e.message }
    throw e
  }
}

/** Everything the results page and the downloads show. */
export function sampleResults(d: SampleData) {
  const files = sampleExports(d)
  const judgeHuman: AgreementOutcome = agreement(
    FILES.humanLabels,
    files.humanLabels,
    FILES.judgments,
    files.judgments,
  )
  const humanHuman: AgreementOutcome =
    files.humanA === '' || files.humanB === ''
      ? { ok: false, why: 'no double-annotated item has been rated by both of its raters yet' }
      : agreement(FILES.humanA, files.humanA, FILES.humanB, files.humanB)
  return { files, judgeHuman, humanHuman }
}

/** The disclosure report (markdown and JSON) of a sample, as `judge report` writes it. */
export function disclosure(
  d: SampleData,
  r: ReturnType<typeof sampleResults>,
): { markdown: string; json: string } {
  const raw = JSON.parse(d.sample.config_json) as unknown
  const parsed = parseJudgeConfig(raw)
  if (!parsed.ok || judgeConfigHash(raw) !== d.sample.config_hash)
    throw new Error(`sample ${d.sample.id}: its frozen judge config does not parse or hash`)
  const judgments: Judgment[] = []
  for (const line of r.files.judgments.split('\n')) {
    if (line === '') continue
    const j = parseJudgmentRecord(JSON.parse(line))
    if (j.ok) judgments.push(j.judgment)
  }
  const agg = aggregateJudgments(judgments, parsed.config.invalidPolicy)
  const a = r.judgeHuman
  const input = {
    config: parsed.config,
    configHash: d.sample.config_hash,
    configFile: FILES.config,
    judgmentsFile: FILES.judgments,
    aggregates: agg,
    agreement: a.ok ? (JSON.parse(renderAgreementJson(a.result)) as unknown) : null,
    agreementNote: a.ok
      ? `Agreement of the judge with the human labels in ${FILES.humanLabels} (quadratic-weighted Cohen's kappa, Krippendorff's alpha, Spearman, Kendall tau-b; bootstrap CIs resample whole conversations).`
      : 'No human labels were given (--human FILE), so no agreement is reported.',
    agreementMarkdown: a.ok ? renderAgreementMarkdown(a.result) : null,
    diagnostics: null,
  }
  const p = platformPart(d, r)
  return {
    markdown: `${renderDisclosureMarkdown(input)}\n${p.markdown}`,
    json: `${JSON.stringify({ ...disclosureJson(input), spot_validation: p.json }, null, 2)}\n`,
  }
}

/** The disclosure's platform part: design, strata, raters, skips, human-human agreement. */
function platformPart(
  d: SampleData,
  r: ReturnType<typeof sampleResults>,
): { markdown: string; json: Record<string, unknown> } {
  const s = d.sample
  const first = d.assignments.filter((a) => a.slot === 1)
  const doubled = d.assignments.filter((a) => a.slot === 2).length
  const strata = new Map<
    string,
    { domain: string | null; depth: string; submission: string; drawn: number }
  >()
  for (const a of first) {
    const depth = depthBucket(a.turn_depth)
    const k = JSON.stringify([a.domain ?? '', depth, a.submission_id])
    const st = strata.get(k) ?? { domain: a.domain, depth, submission: a.submission_id, drawn: 0 }
    st.drawn++
    strata.set(k, st)
  }
  const rows = [...strata.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map((e) => e[1])
  const raters = [...new Set(d.assignments.map((a) => a.alias))].sort()
  const skips = d.assignments
    .filter((a) => a.skip_reason !== null)
    .map((a) => ({ turn_id: a.exportedTurn, annotator: a.alias, reason: a.skip_reason! }))
  const labels = r.files.humanLabels === '' ? 0 : r.files.humanLabels.trimEnd().split('\n').length
  const hh = r.humanHuman
  const esc = escapeMarkdownStrict
  const md = [
    '## Human spot validation on the platform',
    [
      `- sample: ${first.length} (turn, submission) items of track ${esc(s.track)}, phase ${esc(s.phase)}; size ${s.size}, seed ${s.seed}; stratified by domain, turn depth (T1-T4, T5+) and submission with largest-remainder proportional allocation, drawn by a seeded mulberry32 shuffle`,
      `- double annotation: ${doubled} item(s) (share ${s.double_share}) rated by two raters`,
      `- raters: ${raters.length} (${raters.join(', ')}); ${labels} label(s); ${skips.length} item(s) skipped`,
    ].join('\n'),
    [
      '| domain | depth | submission | drawn |',
      '|---|---|---|---:|',
      ...rows.map(
        (x) => `| ${esc(x.domain ?? '-')} | ${x.depth} | ${esc(x.submission)} | ${x.drawn} |`,
      ),
    ].join('\n'),
    ...(skips.length
      ? [
          skips
            .map((k) => `- skipped ${esc(k.turn_id)} (${k.annotator}): ${esc(k.reason)}`)
            .join('\n'),
        ]
      : []),
    '### Human against human (double-annotated share)',
    hh.ok
      ? `Agreement of the first raters (${FILES.humanA}) with the second raters (${FILES.humanB}, as judgments).\n\n${renderAgreementMarkdown(hh.result).trim()}`
      : `No human-human agreement: ${hh.why}.`,
  ]
  return {
    markdown: `${md.join('\n\n')}\n`,
    json: {
      sample_id: s.id,
      track: s.track,
      phase: s.phase,
      size: s.size,
      seed: s.seed,
      double_share: s.double_share,
      items: first.length,
      double_annotated: doubled,
      strata: rows,
      raters,
      labels,
      skipped: skips,
      human_human: hh.ok ? (JSON.parse(renderAgreementJson(hh.result)) as unknown) : null,
    },
  }
}
