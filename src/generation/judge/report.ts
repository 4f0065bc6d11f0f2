/**
 * Judge reports as text/markdown tables and JSON: the run report (scores, breakdowns, counts,
 * tokens and cost), the calibration report and the disclosure report (the sample, agreement,
 * prompts verbatim, judge version, retry procedure, invalid and missing counts). Pure: no I/O.
 * Every report names the config hash and the invalid policy, and always shows the invalid and
 * missing counts per dimension, zeros included.
 */

import { formatDecimal } from '../../report/printf.js'
import { renderTable, type Table } from '../../report/table.js'
import type { GroupSummary, JudgeAggregates } from './aggregate.js'
import type { CalibrationResult } from './calibrate.js'
import { JUDGE_DIMENSIONS, type JudgeConfig } from './config.js'
import type { EmbeddingDiagnostics } from './embedding.js'
import { renderRubric } from './items.js'
import type { LexicalDiagnostics, LexicalGroup } from './lexical.js'
import type { JudgeRunStats } from './runner.js'

/** Output formats of the judge reports. */
export const JUDGE_REPORT_FORMATS = ['text', 'markdown', 'json'] as const
export type JudgeReportFormat = (typeof JUDGE_REPORT_FORMATS)[number]

function f4(x: number | null): string {
  return x === null ? '-' : formatDecimal(x, 4)
}

/**
 * A report table ({@link Table}, rendered by `report/table.ts`): the text table right-aligns every
 * column but the first, without a rule under the header; Markdown keeps every column
 * left-aligned, as these reports always have.
 */
function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  markdown: boolean,
): string {
  const t: Table = {
    columns: head.map((h, i) => ({
      key: h,
      header: h,
      align: markdown || i === 0 ? 'left' : 'right',
    })),
    rows,
  }
  return renderTable(t, markdown ? 'markdown' : 'table', { headerRule: false }).slice(0, -1)
}

function policyText(policy: JudgeAggregates['policy']): string {
  return policy === 'exclude'
    ? 'invalid and judge-missing judgments are excluded from the means (n is the denominator); unanswered target turns score 0'
    : 'invalid and judge-missing judgments count as the minimum score 1 (normalised 0); unanswered target turns score 0'
}

function groupTable(groups: readonly GroupSummary[], label: string, markdown: boolean): string {
  const head = [label, 'turns', ...JUDGE_DIMENSIONS, 'mean']
  return table(
    head,
    groups.map((g) => [
      g.key,
      String(g.turns),
      ...g.dimensions.map((d) => f4(d.mean)),
      f4(g.overall),
    ]),
    markdown,
  )
}

/** Facts about a run shown in its report. */
export interface RunReportMeta {
  readonly config: JudgeConfig
  readonly configHash: string
  readonly baseUrl: string | null
  readonly source: string
  /** Extra lines (e.g. what the RETECO route counted). */
  readonly notes: readonly string[]
  /** Lexical diagnostics against the references, when computed. */
  readonly lexical?: LexicalDiagnostics | null
  /** BERTScore against the references, when a model was given. */
  readonly bertscore?: EmbeddingDiagnostics | null
}

function lexicalTables(l: LexicalDiagnostics, md: boolean, h: (t: string) => string): string[] {
  const rows = (gs: readonly LexicalGroup[]) =>
    gs.map((g) => [g.key, String(g.turns), f4(g.rougeL), f4(g.meteor)])
  const out = [h('Lexical diagnostics (against the reference answers)')]
  out.push(
    [
      l.method,
      `scored turns: ${l.all.turns} (unanswered, scored 0: ${l.unanswered}); answered turns without a reference, not scored: ${l.noReference}; too long to align, not scored: ${l.tooLong}`,
    ]
      .map((x) => (md ? `- ${x}` : x))
      .join('\n'),
  )
  out.push(
    table(
      ['group', 'turns', 'ROUGE-L F', 'METEOR'],
      [...rows([l.all]), ...rows(l.byDomain), ...rows(l.byDepth)],
      md,
    ),
  )
  return out
}

/** The run report: headline per dimension, counts, breakdowns, per-turn rows, tokens and cost. */
export function renderRunReport(
  agg: JudgeAggregates,
  stats: JudgeRunStats | null,
  meta: RunReportMeta,
  format: JudgeReportFormat,
  options: { perTurn?: boolean } = {},
): string {
  if (format === 'json') return `${JSON.stringify(runReportJson(agg, stats, meta), null, 2)}\n`
  const md = format === 'markdown'
  const h = (t: string) => (md ? `## ${t}` : `${t}\n${'-'.repeat(t.length)}`)
  const out: string[] = []
  out.push(md ? `# LLM judge: ${meta.config.name}` : `LLM judge: ${meta.config.name}`)
  out.push(
    [
      `judge config hash (judge_config_id, sha256 of canonical JSON): ${meta.configHash}`,
      `judge model: ${meta.config.model}${stats?.models.length ? ` (server reported: ${stats.models.join(', ')})` : ''}`,
      `source: ${meta.source}`,
      meta.baseUrl ? `endpoint: ${meta.baseUrl}` : null,
      stats
        ? `structured output: ${stats.structuredOutput === 'rejected' ? 'json_schema requested but REJECTED by the server; replies were checked by the strict parser only' : stats.structuredOutput}`
        : null,
      `invalid policy: ${agg.policy} (${policyText(agg.policy)})`,
      `scores: (s - 1)/4 per judgment, macro-averaged over turns; mean = mean of the per-dimension means`,
      ...meta.notes,
    ]
      .filter((x): x is string => x !== null)
      .map((l) => (md ? `- ${l}` : l))
      .join('\n'),
  )
  out.push(h('Scores'))
  out.push(
    table(
      ['dimension', 'mean', 'n', 'ok', 'invalid', 'missing', 'unanswered', 'excluded'],
      [
        ...agg.all.dimensions.map((d) => [
          d.dimension,
          f4(d.mean),
          String(d.n),
          String(d.ok),
          String(d.invalid),
          String(d.missing),
          String(d.unanswered),
          String(d.excluded),
        ]),
        ['mean over dimensions', f4(agg.all.overall), '', '', '', '', '', ''],
      ],
      md,
    ),
  )
  if (agg.byDomain.length) out.push(h('Per domain'), groupTable(agg.byDomain, 'domain', md))
  out.push(h('Per turn depth'), groupTable(agg.byDepth, 'depth', md))
  if (stats) {
    out.push(h('Requests'))
    out.push(
      table(
        [
          'dimension',
          'requested',
          'cache hits',
          'HTTP calls',
          'ok 1st try',
          'ok after retry',
          'transport failures',
          'malformed replies',
        ],
        stats.dimensions.map((d) => [
          d.dimension,
          String(d.requested),
          String(d.cacheHits),
          String(d.calls),
          String(d.okFirstAttempt),
          String(d.okAfterRetry),
          String(d.transportFailures),
          String(d.malformedReplies),
        ]),
        md,
      ),
    )
    const reasons = stats.dimensions.flatMap((d) => [
      ...Object.entries(d.invalid).map(([r, n]) => `${d.dimension}: invalid ×${n}: ${r}`),
      ...Object.entries(d.missing).map(([r, n]) => `${d.dimension}: missing ×${n}: ${r}`),
    ])
    if (reasons.length) out.push(reasons.map((r) => (md ? `- ${r}` : r)).join('\n'))
    const tok = (t: { promptTokens: number; completionTokens: number }) =>
      `${t.promptTokens} input + ${t.completionTokens} output tokens`
    out.push(
      [
        `this run: ${tok(stats.tokens)}, cost ${formatDecimal(stats.cost, 4)} ${stats.currency}`,
        `all judgments of this report, as first made (cache hits included): ${tok(stats.recordedTokens)}, cost ${formatDecimal(stats.recordedCost, 4)} ${stats.currency}`,
        `prices: ${meta.config.prices.inputPerMillion} / ${meta.config.prices.outputPerMillion} ${stats.currency} per 1M input / output tokens`,
      ]
        .map((l) => (md ? `- ${l}` : l))
        .join('\n'),
    )
  }
  if (meta.lexical) out.push(...lexicalTables(meta.lexical, md, h))
  if (meta.bertscore) {
    const b = meta.bertscore
    out.push(h('Embedding diagnostic'))
    out.push(
      [
        `BERTScore F1 ${f4(b.f1)} (P ${f4(b.precision)}, R ${f4(b.recall)}) over ${b.turns} turn(s); ${b.unanswered} unanswered (0), ${b.noReference} without a reference (not scored)`,
        b.method,
      ]
        .map((l) => (md ? `- ${l}` : l))
        .join('\n'),
    )
  }
  if (options.perTurn) {
    out.push(h('Per turn'))
    out.push(
      table(
        ['turn', 'domain', 'depth', ...JUDGE_DIMENSIONS, 'mean'],
        agg.turns.map((t) => [
          t.turnId,
          t.domain ?? '',
          t.turnDepth === null ? '?' : String(t.turnDepth),
          ...JUDGE_DIMENSIONS.map((d) =>
            t.unanswered
              ? '0 (unanswered)'
              : t.statuses[d] === 'ok'
                ? `${f4(t.values[d])} (${t.scores[d]})`
                : (t.statuses[d] ?? '-'),
          ),
          f4(t.mean),
        ]),
        md,
      ),
    )
  }
  return `${out.join('\n\n')}\n`
}

/** The run report as a JSON value. */
export function runReportJson(
  agg: JudgeAggregates,
  stats: JudgeRunStats | null,
  meta: RunReportMeta,
): Record<string, unknown> {
  return {
    judge_config_id: meta.configHash,
    config_name: meta.config.name,
    model: meta.config.model,
    source: meta.source,
    endpoint: meta.baseUrl,
    invalid_policy: agg.policy,
    invalid_policy_text: policyText(agg.policy),
    notes: meta.notes,
    overall: agg.all.overall,
    dimensions: agg.all.dimensions,
    per_domain: agg.byDomain,
    per_turn_depth: agg.byDepth,
    unanswered_turns: agg.unansweredTurns,
    turns: agg.turns,
    run: stats,
    ...(meta.lexical ? { lexical: meta.lexical } : {}),
    ...(meta.bertscore ? { bertscore: meta.bertscore } : {}),
  }
}

/** The calibration report. */
export function renderCalibration(
  r: CalibrationResult,
  meta: { config: JudgeConfig; golden: string },
  format: JudgeReportFormat,
): string {
  if (format === 'json')
    return `${JSON.stringify({ judge_config_id: r.configHash, model: meta.config.model, golden: meta.golden, passed: r.passed, total: r.total, dimensions: r.dimensions, failures: r.failures, cases: r.cases }, null, 2)}\n`
  const md = format === 'markdown'
  const out: string[] = []
  out.push(
    md ? `# Judge calibration: ${meta.config.name}` : `Judge calibration: ${meta.config.name}`,
  )
  out.push(
    [
      `judge config hash: ${r.configHash}`,
      `judge model: ${meta.config.model}`,
      `golden set: ${meta.golden} (${r.total} pairs)`,
      'a pair passes when the better answer gets the strictly higher score; ties, inversions and unjudged pairs are failures',
    ]
      .map((l) => (md ? `- ${l}` : l))
      .join('\n'),
  )
  out.push(
    table(
      ['dimension', 'pairs', 'better higher', 'rate', 'ties', 'inverted', 'unjudged'],
      [
        ...r.dimensions.map((d) => [
          d.dimension,
          String(d.cases),
          String(d.passed),
          f4(d.rate),
          String(d.ties),
          String(d.inverted),
          String(d.unjudged),
        ]),
        [
          'all',
          String(r.total),
          String(r.passed),
          f4(r.total ? r.passed / r.total : null),
          '',
          '',
          '',
        ],
      ],
      md,
    ),
  )
  if (r.failures.length) {
    out.push(md ? '## Failures' : 'Failures')
    out.push(
      table(
        ['case', 'dimension', 'respect', 'better', 'worse', 'outcome'],
        r.failures.map((c) => [
          c.id,
          c.dimension,
          c.respect,
          c.betterScore === null ? '-' : String(c.betterScore),
          c.worseScore === null ? '-' : String(c.worseScore),
          c.outcome + (c.note ? `: ${c.note}` : ''),
        ]),
        md,
      ),
    )
  } else out.push('no failures')
  return `${out.join('\n\n')}\n`
}

/** What the disclosure report is built from. */
export interface DisclosureInput {
  readonly config: JudgeConfig
  readonly configHash: string
  readonly configFile: string
  readonly judgmentsFile: string
  readonly aggregates: JudgeAggregates
  /** Agreement with human labels, as computed by `computeAgreement` (any JSON value), or `null`. */
  readonly agreement: unknown
  readonly agreementNote: string
  /** The agreement module's own markdown rendering, shown as is when given. */
  readonly agreementMarkdown?: string | null
  /** Reported lexical diagnostics, if computed (any JSON value), or `null`. */
  readonly diagnostics?: unknown
}

function sample(agg: JudgeAggregates): Record<string, unknown> {
  const conversations = new Set(agg.turns.map((t) => `${t.domain ?? ''}\u0000${t.conversationId}`))
    .size
  return {
    turns: agg.turns.length,
    conversations,
    unanswered_turns: agg.unansweredTurns,
    per_domain: agg.byDomain.map((g) => ({ domain: g.key, turns: g.turns })),
    per_turn_depth: agg.byDepth.map((g) => ({ depth: g.key, turns: g.turns })),
  }
}

function retryText(c: JudgeConfig): string[] {
  const r = c.retry
  return [
    `Each dimension is a separate request (temperature ${c.decoding.temperature}, top_p ${c.decoding.topP}, seed ${c.decoding.seed ?? 'none'}, ${c.decoding.maxTokensField} ${c.decoding.maxTokens}); structured output: ${c.structuredOutput}${c.structuredOutput === 'json_schema' ? ' (falls back to the strict parser when the server rejects response_format; the run report says so)' : ''}.`,
    `A reply is valid only if its content is exactly one JSON object with an integer "score" 1..5 (and optionally a string "rationale"). A malformed reply is re-asked with the identical request up to ${r.malformedReasks} more time(s), then recorded as invalid.`,
    `Network errors, timeouts (${r.requestTimeoutMs} ms), dropped connections, HTTP 408/409/429 and 5xx are retried up to ${r.transportRetries} time(s), waiting min(${r.backoffCapMs}, ${r.backoffBaseMs}·2^k) ms${r.jitter === 'full' ? ' with full jitter' : ''}${r.honourRetryAfter ? ', or longer when Retry-After / retry-after-ms says so' : ''}; then recorded as missing. Other HTTP errors are not retried (missing).`,
    `Invalid policy: ${c.invalidPolicy} (${policyText(c.invalidPolicy)}).`,
    'Judgments are cached by the sha256 of the exact request body; a rerun re-uses them and makes no new call for them.',
  ]
}

/** The disclosure report as JSON. */
export function disclosureJson(d: DisclosureInput): Record<string, unknown> {
  return {
    judge_config_id: d.configHash,
    config_file: d.configFile,
    judgments_file: d.judgmentsFile,
    judge: {
      name: d.config.name,
      model: d.config.model,
      decoding: d.config.decoding,
      structured_output: d.config.structuredOutput,
      output_schema: d.config.outputSchema,
    },
    sample: sample(d.aggregates),
    scores: {
      overall: d.aggregates.all.overall,
      dimensions: d.aggregates.all.dimensions,
      per_domain: d.aggregates.byDomain,
      per_turn_depth: d.aggregates.byDepth,
    },
    invalid_and_missing: d.aggregates.all.dimensions.map((x) => ({
      dimension: x.dimension,
      invalid: x.invalid,
      missing: x.missing,
      unanswered: x.unanswered,
      excluded: x.excluded,
    })),
    invalid_policy: d.config.invalidPolicy,
    retry_procedure: retryText(d.config),
    retry_policy: d.config.retry,
    prompts: {
      system: d.config.systemPrompt,
      dimensions: d.config.dimensions.map((x) => ({
        name: x.name,
        question: x.question,
        template: x.prompt,
        rubric: x.rubric,
        requires: x.requires,
      })),
    },
    agreement: d.agreement,
    agreement_note: d.agreementNote,
    ...(d.diagnostics !== undefined && d.diagnostics !== null
      ? { diagnostics: d.diagnostics }
      : {}),
  }
}

/** The disclosure report as markdown (what a task report must disclose). */
export function renderDisclosureMarkdown(d: DisclosureInput): string {
  const c = d.config
  const a = d.aggregates
  const s = sample(a)
  const fence = (t: string) => `\`\`\`text\n${t.replace(/```/g, '`\u200b``')}\n\`\`\``
  const out: string[] = []
  out.push(`# Judge disclosure report: ${c.name}`)
  out.push(
    [
      `- judge config: \`${d.configFile}\`, hash (judge_config_id, sha256 of canonical JSON) \`${d.configHash}\``,
      `- judge model and version: \`${c.model}\``,
      `- decoding: temperature ${c.decoding.temperature}, top_p ${c.decoding.topP}, seed ${c.decoding.seed ?? 'none'}, ${c.decoding.maxTokensField} ${c.decoding.maxTokens}`,
      `- judgments: \`${d.judgmentsFile}\``,
    ].join('\n'),
  )
  out.push('## Sample')
  out.push(
    `${s['turns']} turns in ${s['conversations']} conversations; ${a.unansweredTurns} unanswered target turn(s) (scored 0).`,
  )
  if (a.byDomain.length)
    out.push(
      table(
        ['domain', 'turns'],
        a.byDomain.map((g) => [g.key, String(g.turns)]),
        true,
      ),
    )
  out.push(
    table(
      ['depth', 'turns'],
      a.byDepth.map((g) => [g.key, String(g.turns)]),
      true,
    ),
  )
  out.push('## Scores')
  out.push(
    table(
      ['dimension', 'mean', 'n', 'ok', 'invalid', 'missing', 'unanswered', 'excluded'],
      [
        ...a.all.dimensions.map((x) => [
          x.dimension,
          f4(x.mean),
          String(x.n),
          String(x.ok),
          String(x.invalid),
          String(x.missing),
          String(x.unanswered),
          String(x.excluded),
        ]),
        ['mean over dimensions', f4(a.all.overall), '', '', '', '', '', ''],
      ],
      true,
    ),
  )
  if (a.byDomain.length) out.push(groupTable(a.byDomain, 'domain', true))
  out.push(groupTable(a.byDepth, 'depth', true))
  out.push('## Invalid and missing judge outputs')
  out.push(
    table(
      ['dimension', 'invalid', 'missing', 'excluded from the mean'],
      a.all.dimensions.map((x) => [
        x.dimension,
        String(x.invalid),
        String(x.missing),
        String(x.excluded),
      ]),
      true,
    ),
  )
  out.push(`Policy: ${c.invalidPolicy} (${policyText(c.invalidPolicy)}).`)
  out.push('## Agreement with human labels')
  out.push(
    d.agreement === null
      ? d.agreementNote
      : d.agreementMarkdown
        ? `${d.agreementNote}\n\n${d.agreementMarkdown.trim()}`
        : `${d.agreementNote}\n\n${fence(JSON.stringify(d.agreement, null, 2))}`,
  )
  if (d.diagnostics !== undefined && d.diagnostics !== null)
    out.push('## Lexical diagnostics', fence(JSON.stringify(d.diagnostics, null, 2)))
  out.push('## Retry procedure')
  out.push(
    retryText(c)
      .map((l) => `- ${l}`)
      .join('\n'),
  )
  out.push('## Prompts (verbatim)')
  out.push('### System prompt', fence(c.systemPrompt))
  for (const dim of c.dimensions) {
    out.push(
      `### ${dim.name}`,
      `Question: ${dim.question}`,
      'Template:',
      fence(dim.prompt),
      'Rubric:',
      fence(renderRubric(dim)),
    )
  }
  out.push('### Output schema', fence(JSON.stringify(c.outputSchema, null, 2)))
  return `${out.join('\n\n')}\n`
}
