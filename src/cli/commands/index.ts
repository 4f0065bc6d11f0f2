import type { Command } from 'commander'

/** Each command module exports a function that adds its command(s) to the program. */
export type RegisterCommand = (program: Command) => void

/**
 * One command module: the top-level command names it registers, and how to load it. A module is
 * loaded only when one of its commands runs (or for the full `--help`), so `trecscore evaluate`
 * loads the evaluation modules and not the server, the judge or the presets (README
 * "Performance": start-up).
 */
export interface CommandModule {
  readonly names: readonly string[]
  readonly load: () => Promise<RegisterCommand>
}

/** Every command of the CLI besides `trec-eval` (which takes trec_eval's own argv), in help order. */
export const COMMANDS: readonly CommandModule[] = [
  { names: ['evaluate'], load: async () => (await import('./evaluate.js')).registerEvaluate },
  { names: ['measures'], load: async () => (await import('./measures.js')).registerMeasures },
  { names: ['presets'], load: async () => (await import('./presets.js')).registerPresets },
  { names: ['score'], load: async () => (await import('./score.js')).registerScore },
  { names: ['validate'], load: async () => (await import('./validate.js')).registerValidate },
  { names: ['reteco'], load: async () => (await import('./reteco.js')).registerReteco },
  { names: ['textsim'], load: async () => (await import('./textsim.js')).registerTextsim },
  { names: ['judge'], load: async () => (await import('./judge.js')).registerJudge },
  { names: ['compare'], load: async () => (await import('./compare.js')).registerCompare },
  { names: ['fuse'], load: async () => (await import('./fuse.js')).registerFuse },
  { names: ['report'], load: async () => (await import('./report.js')).registerReport },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServe },
  { names: ['worker'], load: async () => (await import('./worker.js')).registerWorker },
  { names: ['submit', 'board'], load: async () => (await import('./submit.js')).registerSubmit },
]

/**
 * The modules to load for `argv`: the one that registers `argv[0]`, or every module (for
 * `trecscore --help`, a bare `trecscore`, an option first, or an unknown name, which commander
 * then words with its suggestion).
 */
export function commandModulesFor(argv: readonly string[]): readonly CommandModule[] {
  const first = argv[0]
  const one = COMMANDS.find((m) => first !== undefined && m.names.includes(first))
  return one ? [one] : COMMANDS
}
