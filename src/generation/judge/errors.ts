/**
 * The error the judge throws for bad user input (config, items, answers, judgments, cache of
 * another config): every problem at once, each worded as `file:line: what` (or `file: $.path:
 * what`). The CLI prints the message and exits with code 2.
 */
import { ProblemListError } from '../../errors/trecscore-error.js'

/** Bad judge input (exit code 2); `problems` are already worded for people. */
export class JudgeInputError extends ProblemListError {}
