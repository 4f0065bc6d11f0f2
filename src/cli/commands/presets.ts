import type { Command } from 'commander'
import { describePreset, getPreset, listPresets, PRESET_POINTERS } from '../../entries/presets.js'

/** `trecscore presets [show NAME]`: list the benchmark presets, or document one (from the registry). */
export function registerPresets(program: Command): void {
  const cmd = program
    .command('presets')
    .description(
      'list the benchmark presets, or show one with every convention and the official evaluator it reproduces',
    )
    .action(() => {
      process.stdout.write(listPresets())
    })
  cmd
    .command('show')
    .description(
      'show a preset: official tool, version and command, measures, every convention, checks',
    )
    .argument('<name>', 'preset id, e.g. dl21-passage')
    .action((name: string) => {
      const pointer = PRESET_POINTERS.find((p) => p.id === name)
      if (pointer) {
        process.stdout.write(`${pointer.id}: ${pointer.title}\n  ${pointer.pointer}\n`)
        return
      }
      process.stdout.write(describePreset(getPreset(name)))
    })
}
