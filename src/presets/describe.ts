/** Text descriptions of presets for `trecscore presets` and `trecscore presets show NAME`. */
import { describeConventions } from '../report/leaderboard.js'
import type { Preset } from './preset.js'
import { PRESETS, PRESET_POINTERS } from './registry.js'

/** One line per preset: id and title, then the pointer presets. */
export function listPresets(): string {
  const all = [...[...PRESETS.values()].map((p) => [p.id, p.title] as const), ...PRESET_POINTERS.map((p) => [p.id, p.title] as const)]
  const width = Math.max(...all.map(([id]) => id.length))
  return all.map(([id, title]) => `${id.padEnd(width)}  ${title}\n`).join('') + '\nDetails: trecscore presets show NAME. Not implemented yet: TREC 2023 NeuCLIR.\n'
}

/** Every convention of a preset and the official evaluator it reproduces. */
export function describePreset(p: Preset): string {
  const checks = p.checks.map((c) =>
    c.kind === 'doc-id-prefix' ? `warn on doc ids starting with '${c.prefix}': ${c.message}` : c.kind === 'max-depth' ? `warn on runs deeper than ${c.depth} per query: ${c.message}` : `warn on qrels without grade ${c.grade}: ${c.message}`,
  )
  const report = p.report.layout === 'trec_eval' ? `trec_eval layout (${p.report.names.map(([m, n]) => `${n} = ${m}`).join(', ')})` : 'leaderboard (one row per run)'
  const lines = [
    `${p.id}: ${p.title}`,
    '',
    'official evaluator:',
    `  tool: ${p.official.tool}`,
    `  version: ${p.official.version}`,
    `  command: ${p.official.command}`,
    '',
    `input: qrels ${p.input.qrels} (${p.input.qrels === 'trec-qrels' ? '--qrels FILE' : '--data DIR'}), runs ${p.input.runs}`,
    `measures: ${p.parsedMeasures.map((m) => m.name).join(', ')}`,
    '',
    'conventions:',
    ...describeConventions(p.conventions).split('\n').map((l) => `  ${l}`),
    `  rounding of printed values: ${p.rounding.digits} decimals (${p.rounding.rule === 'c-printf' ? 'C printf %.Nf: exact binary value, ties to even' : "Python round(mean, N): exact binary value of the float64 mean, ties to even"})`,
    `  report: ${report}`,
    '',
    'checks (warnings):',
    ...checks.map((c) => `  - ${c}`),
    '',
    'notes:',
    ...p.notes.map((n) => `  - ${n}`),
    '',
    p.input.qrels === 'trec-qrels' ? `run: trecscore score --preset ${p.id} --qrels QRELS RUN... [--format table|json|markdown] [-q]` : `run: trecscore score --preset ${p.id} --data DIR RUN... [--k 5,10,15] [--explain] [--format table|json|markdown]`,
  ]
  return lines.join('\n') + '\n'
}
