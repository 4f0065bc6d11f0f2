/**
 * The size limits every input reader enforces, in one place. Pure: the environment is passed in.
 *
 * - `maxLineBytes`: the longest line any line-based reader accepts (runs, qrels, id lists,
 *   prefs, JSONL inputs of the judge and of textsim). A longer line is an error naming the file
 *   and line, read in bounded memory (binary junk or a file without newlines stops there).
 * - `maxInputBytes`: the most bytes one input may hold after gzip decompression. A gzip bomb or
 *   an endless stream (`/dev/zero`) stops with a one-line error at that size.
 * - Files read whole (JSON documents such as `benchmark_*.json`) are also refused past
 *   {@link MAX_WHOLE_FILE_BYTES}, the longest text a JavaScript engine can hold as one string.
 *
 * Both limits can be raised (or lowered) with the environment variables
 * `TRECSCORE_MAX_LINE_BYTES` and `TRECSCORE_MAX_INPUT_BYTES` (a byte count, optionally with a
 * `K`, `M`, `G` or `T` suffix for powers of 1024); `validate --max-line-bytes` overrides the line
 * limit for one run.
 */

import { TrecscoreError } from '../errors/trecscore-error.js'

/** The limits of {@link readChunks}, {@link readAll} and the line readers. */
export interface InputLimits {
  /** Longest line accepted, in bytes (without the `\n`). */
  readonly maxLineBytes: number
  /** Most bytes one input may hold after decompression. */
  readonly maxInputBytes: number
}

/** The documented defaults: 16 MiB lines, 16 GiB inputs (after decompression). */
export const DEFAULT_INPUT_LIMITS: InputLimits = Object.freeze({
  maxLineBytes: 16 * 1024 * 1024,
  maxInputBytes: 16 * 1024 * 1024 * 1024,
})

/** Longest file read whole into memory (as one string): 512 MiB, below V8's string limit. */
export const MAX_WHOLE_FILE_BYTES = 512 * 1024 * 1024

/** The environment variables that set {@link InputLimits}. */
export const LIMIT_ENV = {
  maxLineBytes: 'TRECSCORE_MAX_LINE_BYTES',
  maxInputBytes: 'TRECSCORE_MAX_INPUT_BYTES',
} as const

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
}

/** A byte count such as `1048576`, `64M` or `2G`; `null` when the text is not one. */
export function parseByteCount(text: string): number | null {
  const m = /^\s*(\d+)\s*([KMGT]?)(?:i?B)?\s*$/i.exec(text)
  if (!m) return null
  const v = Number(m[1]) * UNITS[m[2]!.toUpperCase()]!
  return Number.isSafeInteger(v) && v > 0 ? v : null
}

/**
 * The limits in force: the defaults, overridden by `TRECSCORE_MAX_LINE_BYTES` and
 * `TRECSCORE_MAX_INPUT_BYTES` in `env`. Throws a one-line {@link TrecscoreError} (exit 2) for a
 * value that is not a positive byte count.
 */
export function inputLimitsFrom(env: Readonly<Record<string, string | undefined>>): InputLimits {
  const pick = (key: keyof InputLimits): number => {
    const name = LIMIT_ENV[key]
    const text = env[name]
    if (text === undefined || text === '') return DEFAULT_INPUT_LIMITS[key]
    const v = parseByteCount(text)
    if (v === null)
      throw new TrecscoreError(
        `${name}=${JSON.stringify(text)}: expected a positive byte count such as 1048576, 64M or 2G`,
        2,
      )
    return v
  }
  return { maxLineBytes: pick('maxLineBytes'), maxInputBytes: pick('maxInputBytes') }
}
