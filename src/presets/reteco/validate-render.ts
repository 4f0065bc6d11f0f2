/**
 * Renderers of a {@link RetecoValidation}: pure `(validation) => string`. Each file is laid out
 * by the generic run-validation renderers; this module adds the official checker's verdict, the
 * reasons when it differs from ours, the run-level problems and a summary.
 */
import { decodeId } from '../../io/bytes.js'
import { formatRunProblem } from '../../validate/format-run-problem.js'
import { renderValidationJson, renderValidationText } from '../../validate/render-report.js'
import { severityOf } from '../../validate/run-problem.js'
import { renderFormatCheckerOutput } from './reference-ports/format-checker.js'
import type { RetecoFileValidation, RetecoValidation } from './validate.js'

/** Name and version of the JSON layout of `validate --preset reteco-* --format json`. */
export const RETECO_VALIDATE_JSON_SCHEMA = 'trecscore.reteco-validate/1'

/** Fields of RETECO problems that hold ids or found texts (binary strings). */
const RETECO_ID_FIELDS = ['byRank', 'byScore', 'score', 'previousScore', 'suggestion'] as const

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

function checkerVerdict(f: RetecoFileValidation): string {
  const c = f.checker
  if (c.crashed) return `stops with a traceback (${c.crashed})`
  return `${c.valid ? 'VALID' : 'INVALID'} (${count(c.errorCount, 'error')}, ${count(c.warningCount, 'warning')})`
}

/**
 * Text: per file the generic report, then `FILE: format_checker.py: VALID|INVALID (…)`, and when
 * the verdicts differ one `note:` line per reason; then run-level problems and the summary line
 * `RUN: ok|failed: N errors, M warnings in F files (reteco-1a, dev)`.
 */
export function renderRetecoValidationText(v: RetecoValidation): string {
  let out = ''
  for (const f of v.files) {
    const file = f.report.file
    out += renderValidationText(f.report)
    out += `${file}: format_checker.py: ${checkerVerdict(f)}${f.agrees ? ', the same verdict' : ', a different verdict'}\n`
    for (const d of f.differences) out += `${file}: note: ${d.code} (${d.count}): ${d.reason}\n`
  }
  for (const p of v.problems) out += `${v.run}: ${severityOf(p)}: ${formatRunProblem(p)}\n`
  const verdict = v.ok ? 'ok' : v.errors > 0 ? 'failed' : 'failed (--strict)'
  out += `${v.run}: ${verdict}: ${count(v.errors, 'error')}, ${count(v.warnings, 'warning')} in ${count(v.files.length, 'file')} (reteco-${v.subtrack}, ${v.split})\n`
  return out
}

/**
 * JSON (one object and a newline), layout {@link RETECO_VALIDATE_JSON_SCHEMA}:
 *
 * ```
 * { schema, run, preset, subtrack, split, layout, ok, strict, errors, warnings,
 *   files: [{ ...trecscore.validate/1 report, domain,
 *             formatChecker: { valid, crashed, lines, topics, errors, warnings, stdout },
 *             agreesWithFormatChecker, differences: [{ code, count, reason }] }],
 *   problems: [{ severity, code, message, ...fields }] }
 * ```
 *
 * `ok` is true exactly when the exit status is 0; `differences` is empty when the verdicts agree.
 */
export function renderRetecoValidationJson(v: RetecoValidation): string {
  return JSON.stringify(retecoValidationJsonModel(v), null, 2) + '\n'
}

/** The object {@link renderRetecoValidationJson} prints (reports that embed it use it directly). */
export function retecoValidationJsonModel(v: RetecoValidation): Record<string, unknown> {
  const files = v.files.map((f) => {
    const report = JSON.parse(renderValidationJson(f.report)) as Record<string, unknown>
    delete report['schema']
    // Ids in the RETECO fields are binary strings too: decode them as the generic ones are.
    for (const p of report['problems'] as Record<string, unknown>[]) {
      for (const k of RETECO_ID_FIELDS) if (typeof p[k] === 'string') p[k] = decodeId(p[k])
    }
    return {
      ...report,
      domain: f.domain,
      formatChecker: {
        valid: f.checker.valid,
        crashed: f.checker.crashed,
        lines: f.checker.lines,
        topics: f.checker.topics,
        errors: f.checker.errorCount,
        warnings: f.checker.warningCount,
        stdout: renderFormatCheckerOutput(f.checker),
      },
      agreesWithFormatChecker: f.agrees,
      differences: f.differences,
    }
  })
  return {
    schema: RETECO_VALIDATE_JSON_SCHEMA,
    run: v.run,
    preset: `reteco-${v.subtrack}`,
    subtrack: v.subtrack,
    split: v.split,
    layout: v.layout,
    ok: v.ok,
    strict: v.strict,
    errors: v.errors,
    warnings: v.warnings,
    files,
    problems: v.problems.map((p) => ({
      severity: severityOf(p),
      ...p,
      message: formatRunProblem(p),
    })),
  }
}
