import type { Command } from 'commander'

/** Adds `trecscore judge agreement` to the `judge` command (placeholder until the module lands). */
export function addJudgeAgreement(judge: Command): void {
  judge
    .command('agreement')
    .description('(not yet available)')
    .action(() => {
      process.stderr.write('trecscore: judge agreement is not available yet\n')
      process.exitCode = 2
    })
}
