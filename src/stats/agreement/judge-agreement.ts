import { type AgreementOptions, type AgreementReport, computeAgreement } from './agreement.js'
import { AgreementInputError, type AgreementInputProblem } from './jsonl.js'
import { parseHumanLabels, parseJudgments } from './labels.js'
import { type Pairing, pairLabels } from './pairing.js'

/**
 * `judge agreement` as a pure function: human-label bytes and judgment bytes in, the pairing
 * counts and the agreement report out. Throws {@link AgreementInputError} with every problem of
 * both files (bad lines, duplicates, mixed config hashes, unknown dimensions, labels without a
 * domain for a turn id judged in several domains) at once. Turns and conversations are
 * identified with their domain (see pairing.ts).
 */

export interface JudgeAgreementInput {
  readonly human: { readonly file: string; readonly bytes: Uint8Array }
  readonly judgments: { readonly file: string; readonly bytes: Uint8Array }
}

export interface JudgeAgreementOptions extends AgreementOptions {
  readonly dimensions?: readonly string[]
}

export interface JudgeAgreementResult {
  readonly humanFile: string
  readonly judgmentsFile: string
  readonly humanLines: number
  readonly judgmentLines: number
  /** Judgment fields this version does not know (kept, not used). */
  readonly extraJudgmentFields: readonly string[]
  readonly pairing: Pairing
  readonly report: AgreementReport
}

export function judgeAgreement(
  input: JudgeAgreementInput,
  options: JudgeAgreementOptions = {},
): JudgeAgreementResult {
  const human = parseHumanLabels(input.human.bytes, input.human.file, options.categories)
  const judged = parseJudgments(input.judgments.bytes, input.judgments.file, options.categories)
  const problems: AgreementInputProblem[] = [...human.problems, ...judged.problems]
  if (human.records.length === 0 && human.problems.length === 0) {
    problems.push({ code: 'no_records', of: 'labels', file: input.human.file, line: 0, text: '' })
  }
  if (judged.records.length === 0 && judged.problems.length === 0) {
    problems.push({
      code: 'no_records',
      of: 'judgments',
      file: input.judgments.file,
      line: 0,
      text: '',
    })
  }
  const pairing = pairLabels(human.records, judged.records, {
    humanFile: input.human.file,
    judgmentsFile: input.judgments.file,
    ...(options.dimensions ? { dimensions: options.dimensions } : {}),
  })
  problems.push(...pairing.problems)
  if (problems.length) throw new AgreementInputError(problems)
  const report = computeAgreement(pairing.pairs, options)
  return {
    humanFile: input.human.file,
    judgmentsFile: input.judgments.file,
    humanLines: human.records.length,
    judgmentLines: judged.records.length,
    extraJudgmentFields: judged.extraFields,
    pairing,
    report,
  }
}
