import type { Command } from 'commander'

/** `trecscore report` (placeholder until the module lands). */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('(not yet available)')
    .action(() => {
      process.stderr.write('trecscore: report is not available yet\n')
      process.exitCode = 2
    })
}
