/**
 * Renderers for the 2b/2c answer validation (pure): text (problems by line, up to `maxListed`
 * per code with the rest counted, then one verdict line per file and overall) and JSON
 * (`trecscore.reteco-answers-validate/1`, every problem).
 */

import {
  ANSWER_PROBLEM_CODES,
  ANSWER_PROBLEM_SEVERITY,
  type AnswerFileReport,
  type AnswerProblemCode,
} from '../../generation/submission/answers.js'
import type { RetecoAnswersValidation } from './validate-answers.js'
import { renderRetecoValidationText, retecoValidationJsonModel } from './validate-render.js'

function fileText(r: AnswerFileReport, maxListed: number): string[] {
  const out: string[] = []
  const shown = new Map<AnswerProblemCode, number>()
  for (const p of r.problems) {
    const n = shown.get(p.code) ?? 0
    shown.set(p.code, n + 1)
    if (n >= maxListed) continue
    const where = p.line > 0 ? `${r.file}:${p.line}` : r.file
    out.push(
      `${where}: ${p.severity} ${p.code}: ${p.message}${p.text ? `: ${JSON.stringify(p.text)}` : ''}`,
    )
  }
  for (const c of ANSWER_PROBLEM_CODES) {
    const n = r.counts[c]
    if (n > maxListed)
      out.push(
        `${r.file}: ${n - maxListed} more ${c} ${ANSWER_PROBLEM_SEVERITY[c]}(s) not listed (--max-listed ${maxListed})`,
      )
  }
  const verdict = r.errors > 0 ? 'failed' : 'ok'
  out.push(
    `${r.file}: ${verdict}: ${r.errors} error(s), ${r.warnings} warning(s) in ${r.lines} line(s); ${r.answeredTurns} of ${r.targetTurns} target turn(s) answered${r.missingTurns ? `, ${r.missingTurns} missing (they score zero)` : ''}`,
  )
  return out
}

/** Text report. */
export function renderRetecoAnswersText(v: RetecoAnswersValidation, maxListed = 20): string {
  const out: string[] = [
    `${v.answers}: RETECO ${v.subtrack} answers, split ${v.split}, ${v.layout}; answers up to ${v.maxAnswerChars} characters`,
  ]
  for (const d of v.domains) {
    if (d.unreadable !== null) out.push(`${d.file}: error: cannot read: ${d.unreadable}`)
    else if (d.report) out.push(...fileText(d.report, maxListed))
    else
      out.push(
        `${v.answers}: warning: no answer file for domain ${d.domain} (${d.domain}.jsonl): all ${d.targetTurns} target turn(s) missing; they score zero`,
      )
  }
  for (const s of v.strayFiles) out.push(`${s}: warning: not named after a domain; ignored`)
  if (v.retrieval)
    out.push(
      '',
      `retrieval run for 2c (its top-5 passages per turn go to the Faithfulness judge):`,
      renderRetecoValidationText(v.retrieval).trimEnd(),
    )
  out.push(
    `${v.answers}: ${v.ok ? 'ok' : 'failed'}: ${v.errors} error(s), ${v.warnings} warning(s)${v.strict ? ' (strict: warnings fail)' : ''}`,
  )
  return `${out.join('\n')}\n`
}

/** JSON report with every problem. */
export function renderRetecoAnswersJson(v: RetecoAnswersValidation): string {
  return `${JSON.stringify(
    {
      schema: 'trecscore.reteco-answers-validate/1',
      answers: v.answers,
      subtrack: v.subtrack,
      split: v.split,
      layout: v.layout,
      ok: v.ok,
      strict: v.strict,
      errors: v.errors,
      warnings: v.warnings,
      maxAnswerChars: v.maxAnswerChars,
      domains: v.domains,
      strayFiles: v.strayFiles,
      retrieval: v.retrieval ? retecoValidationJsonModel(v.retrieval) : null,
    },
    null,
    2,
  )}\n`
}
