import type { Command } from 'commander'
import { addJudgeAgreement } from './judge-agreement.js'

/** `trecscore judge …` (placeholder until the module lands). */
export function registerJudge(program: Command): void {
  const judge = program.command('judge').description('LLM judge for generated answers (not yet available)')
  addJudgeAgreement(judge)
}
