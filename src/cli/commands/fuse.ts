import type { Command } from 'commander'

/** `trecscore fuse` (placeholder until the module lands). */
export function registerFuse(program: Command): void {
  program
    .command('fuse')
    .description('(not yet available)')
    .action(() => {
      process.stderr.write('trecscore: fuse is not available yet\n')
      process.exitCode = 2
    })
}
