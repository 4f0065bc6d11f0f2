import {
  renderRetecoAnswersJson,
  renderRetecoAnswersText,
  validateRetecoAnswers,
} from '../../entries/reteco.js'
import {
  ANSWER_PROBLEM_CODES,
  ANSWER_PROBLEM_DESCRIPTIONS,
  ANSWER_PROBLEM_SEVERITY,
  DEFAULT_MAX_ANSWER_CHARS,
} from '../../entries/validate.js'

/** The validate flags the generation presets use. */
export interface GenerationValidateFlags {
  preset?: string
  data?: string
  split: string
  retrieval?: string
  maxAnswerChars?: number
  maxLineBytes: number
  maxListed: number
  format: 'table' | 'json'
  strict?: boolean
  qrels?: string
  corpus?: string
  maxDepth?: number
}

/** Help paragraph for `validate --help`. */
export function generationValidateHelp(): string {
  const width = Math.max(...ANSWER_PROBLEM_CODES.map((c) => c.length))
  const rows = ANSWER_PROBLEM_CODES.map(
    (c) =>
      `  ${c.padEnd(width)}  ${ANSWER_PROBLEM_SEVERITY[c].padEnd(7)}  ${ANSWER_PROBLEM_DESCRIPTIONS[c]}`,
  ).join('\n')
  return `
RETECO generation (sub-tracks 2b and 2c): --preset reteco-2b|reteco-2c ANSWERS --data DIR
[--split dev] [--retrieval RUN] [--max-answer-chars N] checks answer files: UTF-8 JSONL, one
{"turn_id": "<conv>_turn_<t>", "answer": "..."} per line, against the target turns of the split:
the RECOR turns in its qrels, as --preset reteco-2a expects (every turn for a split without qrels).
ANSWERS is a directory with one <domain>.jsonl per domain (turn ids repeat across domains), or one
file when the data has a single Track 2 domain. reteco-2c needs --retrieval, the
retrieval run of the same submission (validated as reteco-2c runs are; its top-5 passages per turn
are what the Faithfulness judge sees); without --retrieval, reteco-2c with a run that is not .jsonl
validates that retrieval run alone. Answers longer than --max-answer-chars (Unicode code points,
default ${DEFAULT_MAX_ANSWER_CHARS}; trecscore's default, not an official limit) are errors. Every
problem has its line number:
${rows}
--format json prints a "trecscore.reteco-answers-validate/1" object with every problem.
`
}

function usage(message: string): number {
  process.stderr.write(`trecscore validate: ${message}\n`)
  return 2
}

/** True when `validate --preset reteco-2c RUN` names generation answers rather than a retrieval run. */
export function looksLikeAnswers(path: string): boolean {
  return /\.jsonl$/i.test(path)
}

/** `validate --preset reteco-2b|reteco-2c ANSWERS …`; returns the exit code. */
export async function validateGenerationCommand(
  answers: string,
  flags: GenerationValidateFlags,
): Promise<number> {
  if (flags.data === undefined)
    return usage(`--preset ${flags.preset} needs --data DIR (the RETECO data folder)`)
  const other = (['qrels', 'corpus', 'maxDepth'] as const).filter((k) => flags[k] !== undefined)
  if (other.length)
    return usage(
      `--preset ${flags.preset} takes its turns from --data; drop ${other.map((k) => (k === 'maxDepth' ? '--max-depth' : `--${k}`)).join(' and ')}`,
    )
  if (answers === '-')
    return usage('--preset reads an answers file or directory, not standard input')
  const subtrack = flags.preset === 'reteco-2c' ? '2c' : '2b'
  if (subtrack === '2c' && flags.retrieval === undefined)
    return usage(
      '--preset reteco-2c with answers needs --retrieval RUN, the retrieval run of the same submission',
    )
  if (subtrack === '2b' && flags.retrieval !== undefined)
    return usage('--retrieval is for --preset reteco-2c; 2b answers come from the gold passages')
  const v = await validateRetecoAnswers(answers, {
    subtrack,
    data: flags.data,
    split: flags.split,
    maxLineBytes: flags.maxLineBytes,
    maxListed: flags.maxListed,
    strict: flags.strict ?? false,
    ...(flags.retrieval === undefined ? {} : { retrieval: flags.retrieval }),
    ...(flags.maxAnswerChars === undefined ? {} : { maxAnswerChars: flags.maxAnswerChars }),
  })
  process.stdout.write(
    flags.format === 'json'
      ? renderRetecoAnswersJson(v)
      : renderRetecoAnswersText(v, flags.maxListed),
  )
  if (v.errors > 0) return 2
  return v.ok ? 0 : 1
}
