import type { Command } from 'commander'

/** `trecscore textsim` (placeholder until the module lands). */
export function registerTextsim(program: Command): void {
  program
    .command('textsim')
    .description('(not yet available)')
    .action(() => {
      process.stderr.write('trecscore: textsim is not available yet\n')
      process.exitCode = 2
    })
}
