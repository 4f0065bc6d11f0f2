/** Text descriptions of presets for `trecscore presets` and `trecscore presets show NAME`. */

import { parseMeasures } from '../measures/name.js'
import { describeConventions } from '../report/leaderboard.js'
import type { Preset, PresetCheck } from './preset.js'
import { PRESET_POINTERS, PRESETS } from './registry.js'

/** One line per preset: id and title, then the pointer presets. */
export function listPresets(): string {
  const all = [
    ...[...PRESETS.values()].map((p) => [p.id, p.title] as const),
    ...PRESET_POINTERS.map((p) => [p.id, p.title] as const),
  ]
  const width = Math.max(...all.map(([id]) => id.length))
  return (
    all.map(([id, title]) => `${id.padEnd(width)}  ${title}\n`).join('') +
    '\nDetails: trecscore presets show NAME.\n'
  )
}

function describeCheck(c: PresetCheck): string {
  switch (c.kind) {
    case 'doc-id-prefix':
      return `warn on doc ids starting with '${c.prefix}': ${c.message}`
    case 'max-depth':
      return `warn on runs deeper than ${c.depth} per query: ${c.message}`
    case 'qrels-missing-grade':
      return `warn on qrels without grade ${c.grade}: ${c.message}`
    case 'qrels-language':
      return `ERROR on a qrels line whose language (column 2) is not ${c.languages.join(', ')} (file:line and text): ${c.message}`
    case 'qrels-forbidden-grade':
      return `ERROR (exit 2) on qrels holding grade ${c.grade} after --rel-map, a warning with --force: ${c.message}`
    case 'candidates':
      return `with --candidates FILE (reranking): warn on documents outside a topic's candidate list and topics with fewer or more documents than their list (errors in validate): ${c.message}`
    case 'unified-ranking':
      return `warn (errors in validate) on a rank restarting at 1 within a topic, more than ${c.depth} documents for a topic, or documents of one language only where several are judged (languages from the qrels or --doc-lang FILE): ${c.message}`
    case 'topic-sets':
      return `note the qrels topics missing from the run and the run topics not in the qrels: ${c.message}`
  }
}

/**
 * The lines of {@link describePreset} that say how a preset's numbers are made: the official
 * evaluator (tool, version, command), input, measures, conventions with rounding and layout, the
 * per-measure overrides and tie rules. `score --explain` prints them too.
 */
export function describePresetConventions(p: Preset): string[] {
  const report =
    p.report.layout === 'trec_eval'
      ? `trec_eval layout (${p.report.names.map(([m, n]) => `${n} = ${m}`).join(', ')})`
      : p.report.layout === 'ir_measures'
        ? `ir_measures layout (name<TAB>value per measure, in the order of the command: ${p.parsedMeasures.map((m) => m.name).join(', ')})`
        : 'leaderboard (one row per run)'
  const overrides = p.measureConventions ?? []
  const overridden = new Set(overrides.flatMap((o) => parseMeasures(o.measures).map((m) => m.name)))
  const own = p.parsedMeasures.map((m) => m.name).filter((m) => !overridden.has(m))
  const tieRules =
    p.tieRule || overrides.length
      ? [
          '',
          'tie rules (which measure uses which):',
          ...(p.tieRule
            ? [
                `  ${p.tieRule.name}: ${own.join(', ')}`,
                `    ${p.tieRule.summary}`,
                `    source: ${p.tieRule.source}`,
              ]
            : []),
          ...overrides.flatMap((o) => [
            `  ${o.tieRule.name}: ${parseMeasures(o.measures)
              .map((m) => m.name)
              .join(', ')}`,
            `    ${o.tieRule.summary}`,
            `    source: ${o.tieRule.source}`,
          ]),
        ]
      : []
  const overrideLines = overrides.flatMap((o) => [
    '',
    `conventions for ${parseMeasures(o.measures)
      .map((m) => m.name)
      .join(', ')} (tie rule ${o.tieRule.name}; ${o.why}):`,
    ...describeConventions(o.conventions)
      .split('\n')
      .map((l) => `  ${l}`),
  ])
  return [
    'official evaluator:',
    `  tool: ${p.official.tool}`,
    `  version: ${p.official.version}`,
    `  command: ${p.official.command}`,
    '',
    `input: qrels ${p.input.qrels} (${p.input.qrels === 'trec-qrels' ? '--qrels FILE' : '--data DIR'}), runs ${p.input.runs}`,
    `measures: ${p.parsedMeasures.map((m) => m.name).join(', ')}`,
    '',
    overrides.length
      ? `conventions (${own.join(', ')}${p.tieRule ? `; tie rule ${p.tieRule.name}` : ''}):`
      : 'conventions:',
    ...describeConventions(p.conventions)
      .split('\n')
      .map((l) => `  ${l}`),
    `  rounding of printed values: ${p.rounding.digits} decimals (${p.rounding.rule === 'c-printf' ? 'C printf %.Nf: exact binary value, ties to even' : 'Python round(mean, N): exact binary value of the float64 mean, ties to even'})`,
    `  report: ${report}`,
    ...overrideLines,
    ...tieRules,
  ]
}

/** Every convention of a preset and the official evaluator it reproduces. */
export function describePreset(p: Preset): string {
  const checks = p.checks.map(describeCheck)
  const relMaps = Object.entries(p.relMaps ?? {}).map(
    ([name, m]) =>
      `  --rel-map ${name} = ${Object.entries(m)
        .sort((a, b) => Number(b[0]) - Number(a[0]))
        .map(([k, v]) => `${k}:${v}`)
        .join(',')}`,
  )
  const candidates = p.checks.some((c) => c.kind === 'candidates')
  const unified = p.checks.some((c) => c.kind === 'unified-ranking')
  const extraFlags = `${relMaps.length || p.checks.some((c) => c.kind === 'qrels-forbidden-grade') ? ' [--rel-map MAP] [--force]' : ''}${candidates ? ' [--candidates FILE]' : ''}${unified ? ' [--doc-lang FILE]' : ''}`
  const lines = [
    `${p.id}: ${p.title}`,
    '',
    ...describePresetConventions(p),
    ...(relMaps.length
      ? [
          '',
          'relevance maps (applied to the qrels grades before any check):',
          ...relMaps,
          '  or --rel-map GRADE:VALUE,... (grades not in the map keep their value)',
        ]
      : []),
    '',
    'checks (warnings unless marked ERROR):',
    ...checks.map((c) => `  - ${c}`),
    '',
    'notes:',
    ...p.notes.map((n) => `  - ${n}`),
    '',
    p.input.qrels === 'trec-qrels'
      ? `run: trecscore score --preset ${p.id} --qrels QRELS RUN... [--format table|json|markdown] [-q]${extraFlags}`
      : p.input.qrels === 'reteco-data'
        ? `run: trecscore score --preset ${p.id} --data DIR RUN... [--split dev] [--labels FILE] [--conventions plan|official-baseline|scorer-py] [--explain] [--format table|json|markdown]`
        : `run: trecscore score --preset ${p.id} --data DIR RUN... [--k 5,10,15] [--explain] [--format table|json|markdown]`,
    ...(candidates || unified
      ? [
          `validate: trecscore validate --preset ${p.id} RUN [--qrels QRELS]${candidates ? ' [--candidates FILE]' : ''}${unified ? ' [--doc-lang FILE]' : ''} (the checks above as errors)`,
        ]
      : []),
  ]
  return lines.join('\n') + '\n'
}
