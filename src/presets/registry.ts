/**
 * Every benchmark preset, by id: each a {@link Preset} value run by `runPreset`. The RETECO
 * presets (`reteco/presets.ts`) are found by {@link findPreset} too, and listed by
 * `trecscore presets` as pointers to `score --preset reteco-… --data DIR` (their CLI takes a
 * convention set: `plan` on the engine, or a reference port).
 */

import { dl21Doc, dl21Passage, dl21PassagePash } from './dl21.js'
import { NEUCLIR_PRESETS } from './neuclir.js'
import type { Preset } from './preset.js'
import { RETECO_PRESET_VALUES, RETECO_PRESETS, type RetecoPreset } from './reteco/presets.js'
import { skillRet, skillRetFusion } from './skillret.js'

/**
 * Full presets, by id: those with `input.qrels` `trec-qrels` are run by `scorePreset`, the
 * SkillRet ones (`skillret-data`) by `scoreSkillRet`.
 */
export const PRESETS: ReadonlyMap<string, Preset> = new Map(
  [dl21Passage, dl21Doc, dl21PassagePash, skillRet, skillRetFusion, ...NEUCLIR_PRESETS].map((p) => [
    p.id,
    p,
  ]),
)

/** A preset implemented elsewhere: where to find it. */
export interface PresetPointer {
  /** Preset id (what `score --preset` takes). */
  readonly id: string
  /** One-line title. */
  readonly title: string
  /** How it is run and documented. */
  readonly pointer: string
}

/**
 * The RETECO (SemEval-2027 Task 1) presets as listed by `trecscore presets`: their definitions
 * are `RETECO_PRESET_VALUES` (`reteco/presets.ts`), run by `runPreset`; the CLI scores them with
 * `--data` and a convention set (`plan` on the engine, or a reference port).
 */
export const PRESET_POINTERS: readonly PresetPointer[] = RETECO_PRESETS.map((id) => ({
  id,
  title: `RETECO (SemEval-2027 Task 1) sub-track ${id.slice('reteco-'.length)}`,
  pointer: `trecscore score --preset ${id} --data DIR RUN... (conventions: --conventions plan|official-baseline|scorer-py; see README "RETECO")`,
}))

/**
 * The preset with this id (the RETECO presets included, which `PRESETS` lists as pointers), or
 * `undefined`.
 */
export function findPreset(id: string): Preset | undefined {
  return PRESETS.get(id) ?? RETECO_PRESET_VALUES.get(id as RetecoPreset)
}

/** Every preset id, generic and pointer, in listing order. */
export function presetIds(): string[] {
  return [...PRESETS.keys(), ...PRESET_POINTERS.map((p) => p.id)]
}
