/**
 * A judged submission as stored: a directory named after the run with `answers/` (one
 * `<domain>.jsonl` of `{"turn_id", "answer"}` lines per domain) and, for 2c, `retrieval/` (the
 * submission's retrieval run, one TREC file per domain). The upload is one flat list of files:
 * `.jsonl` files are answers, every other file is retrieval. Validation is `trecscore validate
 * --preset reteco-2b|reteco-2c ANSWERS --data DIR --split S [--retrieval RUN]` with its default
 * flags, and its report is the one the CLI prints, with the run's name for the server's paths.
 */
import { mkdirSync, readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import {
  DEFAULT_MAX_LINE_BYTES,
  isTrecscoreError,
  renderRetecoAnswersText,
  validateRetecoAnswers,
} from '../../internal.js'
import type { Track } from '../config/load.js'
import type { PhaseConfig } from '../config/schema.js'

export const ANSWERS_DIR = 'answers'
export const RETRIEVAL_DIR = 'retrieval'

/** Whether an uploaded file is an answers file (else a retrieval run file). */
export function isAnswersFile(name: string): boolean {
  return /\.jsonl$/i.test(name)
}

/** Sort the flat files of an upload directory into `answers/` and `retrieval/`. */
export function arrangeGenerationUpload(dir: string): void {
  const files = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile())
  mkdirSync(join(dir, ANSWERS_DIR))
  for (const f of files) {
    const to = isAnswersFile(f.name) ? ANSWERS_DIR : RETRIEVAL_DIR
    mkdirSync(join(dir, to), { recursive: true })
    renameSync(join(dir, f.name), join(dir, to, f.name))
  }
}

/** The sub-track of a judged track. */
export function generationSubtrack(track: Pick<Track, 'preset'>): '2b' | '2c' {
  return track.preset === 'reteco-2c' ? '2c' : '2b'
}

/** Where a stored judged submission's answers and (2c) retrieval run are. */
export function generationPaths(
  track: Pick<Track, 'preset'>,
  dir: string,
): { answers: string; retrieval: string | null } {
  return {
    answers: join(dir, ANSWERS_DIR),
    retrieval: generationSubtrack(track) === '2c' ? join(dir, RETRIEVAL_DIR) : null,
  }
}

/** Validate a stored judged upload (see the module comment). */
export async function validateGenerationUpload(
  track: Track,
  phase: PhaseConfig,
  dir: string,
  name: string,
): Promise<{ ok: boolean; errors: number; warnings: number; text: string }> {
  const hide = (t: string): string =>
    t.split(`${dir}/`).join(`${name}/`).split(dir).join(name).split(`${track.dataDir}/`).join('')
  const subtrack = generationSubtrack(track)
  const paths = generationPaths(track, dir)
  let strays: string[] = []
  try {
    strays = readdirSync(join(dir, RETRIEVAL_DIR))
  } catch {
    strays = []
  }
  if (subtrack === '2b' && strays.length)
    return {
      ok: false,
      errors: 1,
      warnings: 0,
      text: `${name}: a reteco-2b submission is answers only (one <domain>.jsonl per domain); not answers: ${strays.join(', ')}\n`,
    }
  if (subtrack === '2c' && !strays.length)
    return {
      ok: false,
      errors: 1,
      warnings: 0,
      text: `${name}: a reteco-2c submission is its answers (<domain>.jsonl) and its retrieval run (one TREC file per domain); no retrieval file was sent\n`,
    }
  try {
    const v = await validateRetecoAnswers(paths.answers, {
      subtrack,
      data: track.dataDir,
      split: track.splits![phase.id]!,
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      maxListed: 20,
      strict: false,
      ...(paths.retrieval ? { retrieval: paths.retrieval } : {}),
    })
    return {
      ok: v.ok,
      errors: v.errors,
      warnings: v.warnings,
      text: hide(renderRetecoAnswersText(v, 20)),
    }
  } catch (e) {
    if (!isTrecscoreError(e)) throw e
    return { ok: false, errors: 1, warnings: 0, text: `${hide((e as Error).message)}\n` }
  }
}
