import { type Run, readAll, readRun } from '../../entries/io.js'
import { checkPresetRun, getPreset } from '../../entries/presets.js'
import {
  type RunValidationReport,
  renderValidationJson,
  renderValidationText,
} from '../../entries/validate.js'
import { checkRunFormat } from './run-format-check.js'

/** The presets `validate --preset` checks with {@link validateNeuclirRun}. */
export const NEUCLIR_VALIDATE_PRESETS = [
  'neuclir23-zho',
  'neuclir23-fas',
  'neuclir23-rus',
  'neuclir23-mlir',
] as const

/** Whether `validate --preset` names a NeuCLIR preset. */
export function isNeuclirPreset(preset: string | undefined): boolean {
  return preset !== undefined && (NEUCLIR_VALIDATE_PRESETS as readonly string[]).includes(preset)
}

/** Whether `validate` goes this way: a NeuCLIR preset, or a NeuCLIR-only flag (refused without one). */
export function routesToNeuclir(flags: { readonly preset?: string }): boolean {
  const f = flags as NeuclirValidateFlags
  return isNeuclirPreset(f.preset) || f.candidates !== undefined || f.docLang !== undefined
}

/** The flags of `validate` that the NeuCLIR route reads. */
export interface NeuclirValidateFlags {
  readonly preset?: string
  readonly data?: string
  readonly qrels?: string
  readonly corpus?: string
  readonly candidates?: string
  readonly docLang?: string
  readonly maxDepth?: number
  readonly maxLineBytes: number
  readonly maxListed: number
  readonly format: 'table' | 'json'
  readonly strict?: boolean
}

/** Help text of the NeuCLIR route (appended to `validate --help`). */
export const NEUCLIR_VALIDATE_HELP = `
TREC 2023 NeuCLIR: --preset neuclir23-zho|neuclir23-fas|neuclir23-rus|neuclir23-mlir [--qrels Q]
[--candidates F] [--doc-lang F] checks RUN as above (with --qrels: topics), then as ERRORS:
  with --candidates (reranking): documents outside their topic's candidate list, topics without a
    list, topics with fewer or more documents than their list (absent topics included);
  neuclir23-mlir: the rank restarting at 1 within a topic, more than 1,000 documents for a topic,
    documents of one language only where several are judged (languages from --qrels, the merged
    qrels with their language column, or --doc-lang: "docid lang" lines or language qrels);
  CLIR presets: more than 1,000 documents for a topic.
The last line says "FILE: preset NAME: ok|failed: N errors"; --format json prints
{schema: "trecscore.validate-preset/1", preset, run, ok, errors, format: {the report above}, problems}.
`

/**
 * `validate --preset neuclir23-… RUN [--qrels Q] [--candidates F] [--doc-lang F]`: the format
 * checks of `validate`, then the preset's run checks (candidate lists, one unified MLIR ranking,
 * depth), every one an error. Returns the exit code.
 */
export async function validateNeuclirRun(
  run: string,
  flags: NeuclirValidateFlags,
): Promise<number> {
  if (!isNeuclirPreset(flags.preset))
    return usage(
      '--candidates and --doc-lang need --preset neuclir23-zho|neuclir23-fas|neuclir23-rus|neuclir23-mlir',
    )
  const preset = getPreset(flags.preset!)
  if (flags.data !== undefined)
    return usage(`--preset ${preset.id} reads TREC files: drop --data (RETECO only)`)
  if (run === '-') return usage(`--preset ${preset.id} reads a run file, not standard input`)
  if (flags.docLang !== undefined && !preset.checks.some((c) => c.kind === 'unified-ranking'))
    return usage(`--doc-lang applies to neuclir23-mlir only, not to ${preset.id}`)
  const { report } = await checkRunFormat(run, run, flags)
  // Preset checks need a parsable run; a malformed one is reported by the format checks alone.
  const problems = report.errors > 0 ? [] : await presetProblems(run, flags)
  const errors = report.errors + problems.length
  const ok = errors === 0 && report.ok
  if (flags.format === 'json') {
    const body = {
      schema: 'trecscore.validate-preset/1',
      preset: preset.id,
      run,
      ok,
      errors,
      format: JSON.parse(renderValidationJson(report)) as unknown,
      problems,
    }
    process.stdout.write(JSON.stringify(body, null, 2) + '\n')
  } else {
    process.stdout.write(renderValidationText(report))
    for (const p of problems) process.stdout.write(`error: ${p}\n`)
    process.stdout.write(
      `${run}: preset ${preset.id}: ${errors === 0 ? 'ok' : 'failed'}: ${errors} error${errors === 1 ? '' : 's'}${report.errors > 0 ? ' (preset checks skipped: fix the format first)' : ''}\n`,
    )
  }
  return exitCode(report, problems.length)
}

async function presetProblems(file: string, flags: NeuclirValidateFlags): Promise<string[]> {
  const preset = getPreset(flags.preset ?? '')
  const run: Run = await readRun(file, { comments: preset.conventions.comments, keepRanks: true })
  const candidates =
    flags.candidates === undefined
      ? undefined
      : {
          run: await readRun(flags.candidates, { comments: preset.conventions.comments }),
          file: flags.candidates,
        }
  const qrelsText =
    flags.qrels === undefined ? undefined : (await readAll(flags.qrels)).toString('latin1')
  const docLang =
    flags.docLang === undefined
      ? undefined
      : { text: (await readAll(flags.docLang)).toString('latin1'), file: flags.docLang }
  return checkPresetRun(preset, run, file, {
    ...(candidates ? { candidates } : {}),
    ...(qrelsText !== undefined ? { qrelsText } : {}),
    ...(docLang ? { docLang } : {}),
  })
}

function exitCode(report: RunValidationReport, presetErrors: number): number {
  if (report.errors > 0 || presetErrors > 0) return 2
  return report.ok ? 0 : 1
}

function usage(message: string): number {
  process.stderr.write(`trecscore validate: ${message}\n`)
  return 2
}
