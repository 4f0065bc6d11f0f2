/**
 * Every benchmark preset, by id. Presets scored by the generic preset scorer are full
 * {@link Preset} values; the RETECO presets have their own data layout and scorer and are listed
 * here as pointers to `trecscore score --preset reteco-…`.
 */

import { dl21Doc, dl21Passage, dl21PassagePash } from './dl21.js'
import { NEUCLIR_PRESETS } from './neuclir.js'
import type { Preset } from './preset.js'
import { RETECO_PRESETS } from './reteco/score-runs.js'
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

/** The RETECO (SemEval-2027 Task 1) presets, scored by their own module (`src/presets/reteco`). */
export const PRESET_POINTERS: readonly PresetPointer[] = RETECO_PRESETS.map((id) => ({
  id,
  title: `RETECO (SemEval-2027 Task 1) sub-track ${id.slice('reteco-'.length)}`,
  pointer: `trecscore score --preset ${id} --data DIR RUN... (conventions: --conventions plan|official-baseline|scorer-py; see README "RETECO")`,
}))

/** The preset with this id, or `undefined`. */
export function findPreset(id: string): Preset | undefined {
  return PRESETS.get(id)
}

/** Every preset id, generic and pointer, in listing order. */
export function presetIds(): string[] {
  return [...PRESETS.keys(), ...PRESET_POINTERS.map((p) => p.id)]
}
