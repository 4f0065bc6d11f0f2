/**
 * Run labels: the name a run is printed under. A command takes run paths, optionally as
 * `LABEL=PATH` arguments, `--name LABEL` per run, or `--names-from tag|file|path`; by default a
 * run is named by the shortest unambiguous suffix of its path (its file name when the file names
 * differ). The library's run inputs carry the label ({@link NamedRun}), so renderers print it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { TrecscoreError } from '../errors/trecscore-error.js'
import { binaryString } from './bytes.js'
import { LineSplitter, splitFields } from './lines.js'
import { readChunks } from './source.js'

/** A run file and the label it is printed under. */
export interface NamedRun {
  readonly path: string
  readonly name: string
}

/** A run input of the library: a path (named by the path) or a {@link NamedRun}. */
export type RunInput = string | NamedRun

/** The path of a run input. */
export function runInputPath(r: RunInput): string {
  return typeof r === 'string' ? r : r.path
}

/** The label of a run input (the path itself when it has none). */
export function runInputName(r: RunInput): string {
  return typeof r === 'string' ? r : r.name
}

/** Where `--names-from` takes labels: the run tag (6th column), the file name, or the path as typed. */
export const RUN_LABEL_SOURCES = ['tag', 'file', 'path'] as const
/** One of {@link RUN_LABEL_SOURCES}. */
export type RunLabelSource = (typeof RUN_LABEL_SOURCES)[number]

function components(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .split('/')
    .filter((c, i, all) => c !== '' || i === all.length - 1)
}

/** The file name of a path (last component). */
export function fileLabel(path: string): string {
  const c = components(path)
  return c[c.length - 1] || path
}

/**
 * Default labels: for each run, the shortest suffix of its path (in whole components) that no
 * other run shares, so `a/bm25.run b/dense.run` are `bm25.run dense.run` and `x/run.txt
 * y/run.txt` stay `x/run.txt y/run.txt`. The same path given twice gets ` #2`, ` #3`, ...
 */
export function defaultRunLabels(paths: readonly string[]): string[] {
  const parts = paths.map(components)
  const suffix = (i: number, k: number): string => parts[i]!.slice(-k).join('/')
  const labels = paths.map((p, i) => {
    const n = parts[i]!.length
    for (let k = 1; k <= n; k++) {
      const mine = suffix(i, k)
      if (parts.every((_, j) => j === i || suffix(j, k) !== mine)) return mine
    }
    return p === '-' ? '-' : parts[i]!.join('/')
  })
  return numberRepeats(labels)
}

function numberRepeats(labels: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return labels.map((l) => {
    const n = (seen.get(l) ?? 0) + 1
    seen.set(l, n)
    return n === 1 ? l : `${l} #${n}`
  })
}

/**
 * The run tag of a TREC run file: the 6th field (C white space, as the run parser splits) of its
 * first data line (blank lines and lines whose first field starts with `#` skipped); null when
 * there is none or that line is longer than 1 MiB. For a run directory (one file per domain, as
 * RETECO's), the tag of its first file in name order that has one.
 */
export async function readRunTag(path: string): Promise<string | null> {
  if (path === '-')
    throw new TrecscoreError(
      '--names-from tag: standard input cannot be read twice; give the run a --name',
      2,
    )
  if (existsSync(path) && statSync(path).isDirectory()) {
    for (const f of readdirSync(path).sort()) {
      const file = join(path, f)
      if (f.startsWith('.') || !statSync(file).isFile()) continue
      const tag = await readRunTag(file)
      if (tag !== null) return tag
    }
    return null
  }
  let tag: string | null | undefined
  const f: number[] = []
  const lines = new LineSplitter(
    (buf, start, end) => {
      const n = splitFields(buf, start, end, f)
      if (n === 0 || buf[f[0]!] === 0x23) return true
      tag = n > 5 ? binaryString(buf, f[10]!, f[11]!) : null
      return false
    },
    { maxLineBytes: 1 << 20 },
  )
  for await (const chunk of readChunks(path)) {
    lines.feed(chunk)
    if (lines.stopped) break
  }
  lines.end()
  return tag ?? null
}

/** How {@link resolveRunLabels} names the runs. */
export interface RunLabelOptions {
  /** One label per run, in order (`--name`). */
  readonly names?: readonly string[]
  /** Take every label from here (`--names-from`). */
  readonly from?: RunLabelSource
  /**
   * Where the runs that no `LABEL=`, `--name` or `from` names take their label: `path` (the path
   * as typed: what `score --preset` has always printed) or, by default, {@link defaultRunLabels}.
   */
  readonly fallback?: 'path' | 'shortest'
}

/**
 * Split `LABEL=PATH` arguments (an argument that is an existing file is always a path) and name
 * every run: an explicit `LABEL=`, else `--name` in order, else `--names-from`, else
 * {@link defaultRunLabels} (or the path as typed, with `fallback: 'path'`). Throws a usage error (exit 2) for too many `--name`s, an empty label,
 * or two runs under one label.
 */
export async function resolveRunLabels(
  args: readonly string[],
  options: RunLabelOptions = {},
): Promise<NamedRun[]> {
  const split = args.map((a) => {
    const eq = a.indexOf('=')
    if (eq <= 0 || a === '-' || existsSync(a)) return { path: a, label: undefined }
    return { path: a.slice(eq + 1), label: a.slice(0, eq) }
  })
  const names = options.names ?? []
  if (names.length > args.length)
    throw new TrecscoreError(
      `--name given ${names.length} times for ${args.length} run(s); give one --name per run, in the order of the runs`,
      2,
    )
  if (names.length > 0 && options.from !== undefined)
    throw new TrecscoreError('--name and --names-from: give one or the other', 2)
  const both = split.flatMap((s, i) =>
    s.label !== undefined && names[i] !== undefined ? [`${s.label}=${s.path}`] : [],
  )
  if (both.length)
    throw new TrecscoreError(
      `${both.join(', ')}: labelled twice (LABEL=PATH and --name); use one way for all runs`,
      2,
    )
  const paths = split.map((s) => s.path)
  const from = options.from ?? (options.fallback === 'path' ? 'path' : undefined)
  const fallback =
    from === 'path' ? [...paths] : from === 'file' ? paths.map(fileLabel) : defaultRunLabels(paths)
  const labels: string[] = []
  for (let i = 0; i < split.length; i++) {
    const s = split[i]!
    let label = s.label ?? names[i]
    if (label === undefined && options.from === 'tag') {
      const tag = await readRunTag(s.path)
      if (tag === null)
        throw new TrecscoreError(
          `--names-from tag: ${s.path} has no run line to take a tag from; give it a --name`,
          2,
        )
      label = tag
    }
    label ??= fallback[i]!
    if (label.trim() === '')
      throw new TrecscoreError(`run ${JSON.stringify(s.path)}: empty label`, 2)
    labels.push(label)
  }
  const first = new Map<string, string>()
  for (let i = 0; i < labels.length; i++) {
    const other = first.get(labels[i]!)
    if (other !== undefined && other !== paths[i])
      throw new TrecscoreError(
        `two runs are labelled ${JSON.stringify(labels[i])} (${other} and ${paths[i]}); give them distinct --name labels`,
        2,
      )
    first.set(labels[i]!, paths[i]!)
  }
  // The same file given twice under one label: number the repeats, as the default labels do.
  const unique = numberRepeats(labels)
  return split.map((s, i) => ({ path: s.path, name: unique[i]! }))
}
