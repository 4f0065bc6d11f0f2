import { formatDecimal } from '../../report/printf.js'
import { type Column, renderTable, type Table } from '../../report/table.js'
import {
  AGREEMENT_STATISTIC_LABELS,
  AGREEMENT_STATISTICS,
  type AgreementStatistic,
  type DimensionAgreement,
} from './agreement.js'
import type { JudgeAgreementResult } from './judge-agreement.js'
import type { DimensionPairing } from './pairing.js'

/**
 * Renderers for `judge agreement` (pure): a text table, Markdown (for the disclosure report) and
 * JSON (`trecscore.judge-agreement/1`, full precision). Tables show 4 decimals; JSON shows the
 * exact doubles. Undefined values are written as "nan" / "undefined", never as 0.
 */

export type AgreementFormat = 'table' | 'markdown' | 'json'

const pct = (c: number): string => String(Number((c * 100).toPrecision(12)))
const f4 = (v: number | null): string => (v === null ? '-' : formatDecimal(v, 4))
const signed = (v: number | null): string =>
  v === null ? '-' : `${v >= 0 ? '+' : ''}${formatDecimal(v, 4)}`

function valueText(name: string, s: AgreementStatistic): string {
  if (s.status !== 'ok') return s.status
  return name === 'meanBias' ? signed(s.value) : f4(s.value)
}

function ciText(name: string, s: AgreementStatistic): string {
  if (!s.ci) return ''
  if (s.ci.lower === null) return 'none (every resample undefined)'
  const fmt = name === 'meanBias' ? signed : f4
  return `[${fmt(s.ci.lower)}, ${fmt(s.ci.upper)}]`
}

function unpairedText(p: DimensionPairing): string {
  return `${p.unpairedInvalid} invalid judgment(s), ${p.unpairedMissing} missing judgment(s), ${p.unpairedNoJudgment} labelled turn(s) with no judgment; ${p.judgedNotLabelled} judged turn(s) with no label (not used)`
}

function header(r: JudgeAgreementResult): string[] {
  const b = r.report.bootstrap
  return [
    `human labels: ${r.humanFile} (${r.humanLines} labels, ${r.pairing.annotators} annotator(s))`,
    `judgments:    ${r.judgmentsFile} (${r.judgmentLines} judgments)`,
    `judge config: ${r.pairing.configHash ?? '-'}`,
    b.resamples > 0
      ? `bootstrap:    ${b.resamples} resamples, seed ${b.seed}, ${pct(b.confidence)}% CI; ${b.method}`
      : 'bootstrap:    off (no confidence intervals)',
  ]
}

function findDimension(r: JudgeAgreementResult, d: string): DimensionAgreement | undefined {
  return r.report.dimensions.find((x) => x.dimension === d)
}

/**
 * One dimension's statistics as a {@link Table}: value, and with a bootstrap the interval and
 * its undefined resamples. The value and interval columns have printf's fixed widths (9 and 20):
 * a longer cell overflows rather than widening them.
 */
function statisticsTable(d: DimensionAgreement, confidence: number | null): Table {
  const columns: Column[] = [
    { key: 'statistic', header: 'statistic', align: 'left' },
    { key: 'value', header: 'value', align: 'right', width: 9 },
  ]
  if (confidence !== null)
    columns.push(
      { key: 'ci', header: `${pct(confidence)}% CI`, align: 'left', width: 20 },
      { key: 'undefined', header: 'undefined resamples', align: 'left' },
    )
  return {
    columns,
    rows: AGREEMENT_STATISTICS.map((name) => {
      const s = d.statistics[name]
      const row = [AGREEMENT_STATISTIC_LABELS[name], valueText(name, s)]
      if (confidence !== null)
        row.push(ciText(name, s), s.ci ? `${s.ci.undefinedResamples}/${s.ci.resamples}` : '')
      return row
    }),
  }
}

/** The text table. */
export function renderAgreementTable(r: JudgeAgreementResult): string {
  const out = header(r)
  const b = r.report.bootstrap
  for (const p of r.pairing.dimensions) {
    const d = findDimension(r, p.dimension)
    out.push(
      '',
      `${p.dimension}: ${p.pairs} pair(s) over ${p.pairedTurns} turn(s)${d ? ` in ${d.conversations} conversation(s)` : ''}; not paired: ${unpairedText(p)}`,
    )
    if (!d) {
      out.push('  no pairs: nothing to compare')
      continue
    }
    out.push(
      renderTable(statisticsTable(d, b.resamples > 0 ? b.confidence : null), 'table', {
        headerRule: false,
        indent: '  ',
      }).slice(0, -1),
    )
  }
  return `${out.join('\n')}\n`
}

/** Markdown: one pairing table and one statistics table (value and CI per dimension). */
export function renderAgreementMarkdown(r: JudgeAgreementResult): string {
  const b = r.report.bootstrap
  const out = [
    '### Agreement with human labels',
    '',
    ...header(r).map((l) => `- ${l.replace(/:\s+/, ': ')}`),
    '',
  ]
  const count = (key: string, header: string): Column => ({
    key,
    header,
    align: 'right',
    digits: 0,
  })
  const pairing: Table = {
    columns: [
      { key: 'dimension', header: 'dimension', align: 'left' },
      count('pairs', 'pairs'),
      count('turns', 'turns'),
      count('conversations', 'conversations'),
      count('invalid', 'invalid'),
      count('missing', 'missing'),
      count('noJudgment', 'no judgment'),
      count('judgedNotLabelled', 'judged, no label'),
    ],
    rows: r.pairing.dimensions.map((p) => [
      p.dimension,
      p.pairs,
      p.pairedTurns,
      findDimension(r, p.dimension)?.conversations ?? 0,
      p.unpairedInvalid,
      p.unpairedMissing,
      p.unpairedNoJudgment,
      p.judgedNotLabelled,
    ]),
  }
  out.push(renderTable(pairing, 'markdown').slice(0, -1))
  const dims = r.report.dimensions
  if (dims.length) {
    const statistics: Table = {
      columns: [
        { key: 'statistic', header: 'statistic', align: 'left' },
        ...dims.map((d) => ({ key: d.dimension, header: d.dimension, align: 'left' as const })),
      ],
      rows: AGREEMENT_STATISTICS.map((name) => [
        AGREEMENT_STATISTIC_LABELS[name],
        ...dims.map((d) => {
          const s = d.statistics[name]
          const ci = s.ci
            ? ` ${ciText(name, s)}${s.ci.undefinedResamples ? ` (${s.ci.undefinedResamples} undefined)` : ''}`
            : ''
          return `${valueText(name, s)}${ci}`
        }),
      ]),
    }
    out.push('', renderTable(statistics, 'markdown').slice(0, -1))
    if (b.resamples > 0)
      out.push(
        '',
        `Intervals: ${pct(b.confidence)}% ${b.method}; ${b.resamples} resamples, seed ${b.seed}. Resamples on which a statistic is undefined are counted and left out.`,
      )
  }
  return `${out.join('\n')}\n`
}

/** JSON, full precision. */
export function renderAgreementJson(r: JudgeAgreementResult): string {
  return `${JSON.stringify(
    {
      schema: 'trecscore.judge-agreement/1',
      human: r.humanFile,
      judgments: r.judgmentsFile,
      humanLabels: r.humanLines,
      judgmentRecords: r.judgmentLines,
      annotators: r.pairing.annotators,
      configHash: r.pairing.configHash,
      extraJudgmentFields: r.extraJudgmentFields,
      categories: r.report.categories,
      bootstrap: r.report.bootstrap,
      dimensions: r.pairing.dimensions.map((p) => {
        const d = findDimension(r, p.dimension)
        return {
          dimension: p.dimension,
          pairing: p,
          conversations: d?.conversations ?? 0,
          humanMean: d?.humanMean ?? null,
          judgeMean: d?.judgeMean ?? null,
          statistics: d ? d.statistics : null,
        }
      }),
    },
    null,
    2,
  )}\n`
}

export function renderAgreement(r: JudgeAgreementResult, format: AgreementFormat): string {
  return format === 'json'
    ? renderAgreementJson(r)
    : format === 'markdown'
      ? renderAgreementMarkdown(r)
      : renderAgreementTable(r)
}
