import type { Command } from 'commander'
import { registerCompare } from './compare.js'
import { registerEvaluate } from './evaluate.js'
import { registerFuse } from './fuse.js'
import { registerJudge } from './judge.js'
import { registerMeasures } from './measures.js'
import { registerPresets } from './presets.js'
import { registerReport } from './report.js'
import { registerReteco } from './reteco.js'
import { registerScore } from './score.js'
import { registerServe } from './serve.js'
import { registerSubmit } from './submit.js'
import { registerTextsim } from './textsim.js'
import { registerValidate } from './validate.js'
import { registerWorker } from './worker.js'

/** Each command module exports a function that adds its command to the program. */
export type RegisterCommand = (program: Command) => void

/** Every command of the CLI besides `trec-eval` (which takes trec_eval's own argv). */
export const COMMANDS: readonly RegisterCommand[] = [
  registerEvaluate,
  registerMeasures,
  registerPresets,
  registerScore,
  registerValidate,
  registerReteco,
  registerTextsim,
  registerJudge,
  registerCompare,
  registerFuse,
  registerReport,
  registerServe,
  registerWorker,
  registerSubmit,
]
