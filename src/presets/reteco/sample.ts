/**
 * `reteco sample`: a valid RETECO run to check a pipeline against (upload, validation, scoring):
 * for every topic of the sub-track and split, `depth` distinct documents drawn at random from
 * the domain's corpus, ranks 1..n with strictly decreasing scores (distinct in float32, so every
 * scorer orders them the same way), one run tag. Deterministic for a seed. Topics come from the
 * qrels, or from the task files for a split without qrels (the hidden test). Track 1 gives one
 * file for every domain; Track 2 one file per domain (its topic ids collide across domains).
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { describeWriteError, OutputError, writeOutputFile } from '../../io/output.js'
import { mulberry32 } from '../../stats/random.js'
import { loadRetecoData, readCorpusIds } from './data.js'
import { RetecoInputError } from './errors.js'
import { type RetecoSubtrack, trackOf } from './types.js'
import { expectedTopics, RETECO_MAX_DEPTH } from './validate.js'

/** Options of {@link makeRetecoSample}. */
export interface RetecoSampleOptions {
  readonly subtrack: RetecoSubtrack
  /** The data folder (release layout or the pilot sample). */
  readonly data: string
  /** Split whose topics the run covers. @default 'dev' */
  readonly split?: string
  /** Seed of the random rankings (a non-negative integer). @default 1 */
  readonly seed?: number
  /** Documents per topic, 1..1000 (fewer when the corpus is smaller). @default 100 */
  readonly depth?: number
}

/** A sample run: the text of each file (TREC 6 columns, binary strings) and how to lay it out. */
export interface RetecoSample {
  readonly subtrack: RetecoSubtrack
  readonly split: string
  readonly seed: number
  /** `single-file`: one entry (Track 1, all domains); `per-domain`: one per domain (Track 2). */
  readonly layout: 'single-file' | 'per-domain'
  /** File name (`run.trec` for a single file, `<domain>.trec` otherwise) → contents. */
  readonly files: ReadonlyMap<string, string>
  /** Topics written, over all files. */
  readonly topics: number
}

/** FNV-1a of a string's char codes (mixes the domain into the seed). */
function fnv(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/** `k` distinct indices of `0..n-1` in random order (sparse Fisher–Yates). */
function draw(n: number, k: number, random: () => number): number[] {
  const swapped = new Map<number, number>()
  const out: number[] = []
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i))
    const vj = swapped.get(j) ?? j
    swapped.set(j, swapped.get(i) ?? i)
    out.push(vj)
  }
  return out
}

/**
 * Build a sample run for a sub-track from a data folder. Throws {@link RetecoInputError} when
 * the folder lacks the sub-track's topics or a domain's corpus, or an option is out of range.
 *
 * @example
 * const sample = await makeRetecoSample({ subtrack: '1a', data: 'RETECO-SemEval2027', seed: 7 })
 * for (const [name, text] of sample.files) await writeFile(name, text, 'latin1')
 */
export async function makeRetecoSample(options: RetecoSampleOptions): Promise<RetecoSample> {
  const { subtrack } = options
  const seed = options.seed ?? 1
  const depth = options.depth ?? 100
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new RetecoInputError([`--seed: expected a non-negative integer, found ${seed}`])
  if (!Number.isSafeInteger(depth) || depth < 1 || depth > RETECO_MAX_DEPTH)
    throw new RetecoInputError([
      `--depth: expected an integer from 1 to ${RETECO_MAX_DEPTH}, found ${depth}`,
    ])
  const track = trackOf(subtrack)
  const data = await loadRetecoData(options.data, {
    split: options.split ?? 'dev',
    tracks: [track],
  })
  const domains = track === 'track1_tempo' ? data.track1 : data.track2
  const tag = `trecscore-sample-${subtrack}-seed${seed}`
  const parts = new Map<string, string>()
  let topics = 0
  for (const [domain, d] of domains) {
    const ids = expectedTopics(d, subtrack)
    if (ids.length === 0) continue
    if (!d.corpusFile)
      throw new RetecoInputError([
        `${d.dir}: no documents.jsonl: cannot draw documents for ${domain}`,
      ])
    const corpus = [...(await readCorpusIds(d.corpusFile))]
    if (corpus.length === 0) throw new RetecoInputError([`${d.corpusFile}: no documents`])
    const random = mulberry32((seed ^ fnv(domain)) >>> 0)
    const k = Math.min(depth, corpus.length)
    const lines: string[] = []
    for (const qid of ids) {
      const picked = draw(corpus.length, k, random)
      for (let i = 0; i < k; i++)
        lines.push(`${qid} Q0 ${corpus[picked[i]!]} ${i + 1} ${((k - i) / k).toFixed(6)} ${tag}\n`)
      topics++
    }
    parts.set(domain, lines.join(''))
  }
  if (topics === 0)
    throw new RetecoInputError([`${options.data}: no ${subtrack} topics for split ${data.split}`])
  const layout = track === 'track1_tempo' ? 'single-file' : 'per-domain'
  const files =
    layout === 'single-file'
      ? new Map([['run.trec', [...parts.values()].join('')]])
      : new Map([...parts].map(([d, text]) => [`${d}.trec`, text]))
  return { subtrack, split: data.split, seed, layout, files, topics }
}

/**
 * Write a sample: a single-file sample to the file `out`, a per-domain sample into the directory
 * `out` (created if needed). Returns the paths written.
 */
export async function writeRetecoSample(sample: RetecoSample, out: string): Promise<string[]> {
  if (sample.layout === 'single-file') {
    const st = await fsp.stat(out).catch(() => null)
    if (st?.isDirectory())
      throw new RetecoInputError([
        `${out}: is a directory; a ${sample.subtrack} sample is one file (for example ${join(out, 'run.trec')})`,
      ])
    await writeOutputFile(out, sample.files.values().next().value!, 'latin1')
    return [out]
  }
  const st = await fsp.stat(out).catch(() => null)
  if (st && !st.isDirectory())
    throw new RetecoInputError([
      `${out}: is a file; a ${sample.subtrack} sample is a directory with one file per domain`,
    ])
  await fsp.mkdir(out, { recursive: true }).catch((e: unknown) => {
    throw new OutputError(out, describeWriteError(e), e)
  })
  const paths: string[] = []
  for (const [name, text] of sample.files) {
    const p = join(out, name)
    await writeOutputFile(p, text, 'latin1')
    paths.push(p)
  }
  return paths
}
