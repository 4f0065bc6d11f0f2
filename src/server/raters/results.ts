/**
 * Results of a sample, computed by the engine's own functions on the exported bytes (so they
 * equal `trecscore judge agreement` and `trecscore judge report` on the downloaded files):
 *
 * - judge against human: `judgeAgreement` of `human-labels.jsonl` and `judgments.jsonl`;
 * - human against human: `judgeAgreement` of `human-a.jsonl` and `human-b.jsonl`;
 * - the disclosure report: what `judge report judgments.jsonl --human
 *   human-labels.jsonl --config judge-config.json` writes, run in the folder of the downloads.
 * Bootstrap: 1000 resamples, seed 42 (the CLI's defaults).
 */
import {
  AgreementInputError,
  aggregateJudgments,
  disclosureJson,
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
  return {
    markdown: renderDisclosureMarkdown(input),
    json: `${JSON.stringify(disclosureJson(input), null, 2)}\n`,
  }
}
