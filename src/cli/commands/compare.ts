import type { Command } from 'commander'

/** `trecscore compare` (placeholder until the module lands). */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description('(not yet available)')
    .action(() => {
      process.stderr.write('trecscore: compare is not available yet\n')
      process.exitCode = 2
    })
}
