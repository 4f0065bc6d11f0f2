/**
 * The error the judge throws for bad user input (config, items, answers, judgments, cache of
 * another config): every problem at once, as coded issues (`JudgeIssue`), each worded by the
 * one table of `format-issue.ts` as `file:line: what` (or `file: $.path: what`). The CLI prints
 * the message and exits with code 2.
 */
import { wordIssue } from '../../errors/format-issue.js'
import type { JudgeIssue } from '../../errors/judge-issues.js'
import { ProblemListError } from '../../errors/trecscore-error.js'

export type {
  JudgeFieldProblem,
  JudgeIssue,
  JudgeRecordFinding,
} from '../../errors/judge-issues.js'

/** Bad judge input (exit code 2): `issues` as data, `problems` the same worded for people. */
export class JudgeInputError extends ProblemListError {
  readonly issues: readonly JudgeIssue[]

  constructor(issues: readonly JudgeIssue[]) {
    super(issues.map((i) => wordIssue('judge', i)))
    this.issues = issues
  }
}

/** The reason an I/O call failed, as the judge words it: the errno code, else the message. */
export function ioReason(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message
}
