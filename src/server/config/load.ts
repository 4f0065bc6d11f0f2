/**
 * Reading a competition config: JSON, the zod schema, then the checks that need the engine
 * (preset ids, measure names, primary among the columns) and the files (data folders, qrels).
 * Every problem is reported at once, one line each (`FILE: path: message`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import {
  conventionProfiles,
  defaultJudgeConfigPath,
  loadJudgeConfig,
  PRESETS,
  parseMeasure,
  RETECO_PRESETS,
  TrecscoreError,
} from '../../internal.js'
import { defaultJudgedColumns, judgeTableColumns } from '../judging/columns.js'
import type { JudgeTrackConfig } from '../judging/schema.js'
import {
  type CompetitionConfig,
  competitionSchema,
  type PhaseConfig,
  type TrackConfig,
} from './schema.js'

/** How a track is scored (see `scoring.ts`). */
export type TrackKind = 'reteco' | 'preset' | 'plain'

/** A track with its paths resolved against the config file. */
export interface Track extends TrackConfig {
  readonly kind: TrackKind
  /** Absolute data folder. */
  readonly dataDir: string
  /** The columns shown (canonical measure names), the primary first when the config omits it. */
  readonly shownColumns: readonly string[]
  /** A judged track (RETECO 2b/2c with a `judge` block): its judge, loaded; null otherwise. */
  readonly judging: Judging | null
}

/** The judge of a judged track, as loaded when the server starts (the key is never here). */
export interface Judging {
  readonly settings: JudgeTrackConfig
  /** Absolute path of the judge config JSON. */
  readonly configFile: string
  /** `judge_config_id`: sha256 of the judge config; a new hash is a new score version. */
  readonly configHash: string
  readonly configName: string
  readonly model: string
  readonly invalidPolicy: string
  readonly currency: string
  /** The accounting and integrity columns (the board's judge table). */
  readonly tableColumns: readonly string[]
  /** BERTScore as a diagnostic column: the model folder (absolute) and layer. */
  readonly bertscore?: { readonly modelDir: string; readonly layer?: number }
}

/** A loaded competition: the config with resolved tracks. */
export interface Competition extends Omit<CompetitionConfig, 'tracks'> {
  readonly file: string
  readonly tracks: readonly Track[]
}

/** An invalid config: every problem, one line each. */
export class ConfigError extends TrecscoreError {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'), 2)
  }
}

function kindOf(t: TrackConfig): TrackKind {
  if (t.preset === undefined) return 'plain'
  if (t.judge !== undefined) return 'reteco'
  return (RETECO_PRESETS as readonly string[]).includes(t.preset) ? 'reteco' : 'preset'
}

/**
 * Whether a track's runs are directories with one file per domain (RETECO Track 2: `reteco-2a`,
 * `reteco-2c`, whose topic ids repeat across domains); other tracks take one file per run.
 */
export function runIsDirectory(t: Pick<Track, 'kind' | 'preset'>): boolean {
  return (
    t.kind === 'reteco' &&
    (t.preset === 'reteco-2a' || t.preset === 'reteco-2b' || t.preset === 'reteco-2c')
  )
}

/** The canonical name of one measure (`ndcg_cut.10` → `nDCG@10`); null when it is not a single known measure. */
export function measureName(m: string): string | null {
  try {
    const ms = parseMeasure(m)
    return ms.length === 1 ? ms[0]!.name : null
  } catch {
    return null
  }
}

/**
 * How much of the tracks' data folders a process needs: `all` (it scores, or checks uploads
 * against the qrels), or `web` (a web process that holds no qrels: the data folders of qrels and
 * RETECO retrieval tracks, their qrels files and baselines are not looked at, as it never reads
 * them; judged tracks still read their conversations there).
 */
export type DataNeeds = 'all' | 'web'

function checkTrack(
  t: TrackConfig,
  i: number,
  base: string,
  file: string,
  out: string[],
  needs: DataNeeds,
): Track {
  const at = `${file}: tracks[${i}] (${t.id})`
  const kind = kindOf(t)
  const dataDir = isAbsolute(t.data) ? t.data : resolve(base, t.data)
  const looked = needs === 'all' || t.judge !== undefined
  if (looked && (!existsSync(dataDir) || !statSync(dataDir).isDirectory()))
    out.push(`${at}: data folder ${dataDir} does not exist`)
  if (kind === 'preset' && !PRESETS.has(t.preset!))
    out.push(
      `${at}: unknown preset '${t.preset}'; known: ${[...RETECO_PRESETS, ...PRESETS.keys()].join(', ')}`,
    )
  if (
    kind === 'plain' &&
    t.conventions !== undefined &&
    !Object.hasOwn(conventionProfiles, t.conventions)
  )
    out.push(
      `${at}: unknown conventions profile '${t.conventions}'; known: ${Object.keys(conventionProfiles).join(', ')}`,
    )
  const judging = t.judge ? loadJudging(t.judge, base, at, out) : null
  const shown =
    t.columns ?? (judging ? defaultJudgedColumns(t.preset!, !!judging.bertscore) : [t.primary])
  if (kind !== 'reteco') {
    const measures = kind === 'plain' ? t.measures! : (PRESETS.get(t.preset!)?.measures ?? [])
    const known = new Set(measures.map(measureName).filter((m): m is string => m !== null))
    for (const m of kind === 'plain' ? t.measures! : [])
      if (measureName(m) === null) out.push(`${at}: unknown measure '${m}'`)
    for (const c of [t.primary, ...shown]) {
      const name = measureName(c)
      if (name === null || !known.has(name))
        out.push(`${at}: '${c}' is not one of the track's measures (${[...known].join(', ')})`)
    }
  }
  for (const [phase, q] of Object.entries(t.qrels ?? {})) {
    const p = join(dataDir, q)
    if (looked && !existsSync(p)) out.push(`${at}: qrels.${phase}: ${p} does not exist`)
  }
  const baselines: Record<string, string> = {}
  for (const [name, f] of Object.entries(t.baselines ?? {})) {
    baselines[name] = isAbsolute(f) ? f : join(dataDir, f)
    if (looked && !existsSync(baselines[name]))
      out.push(`${at}: baselines.${name}: ${baselines[name]} does not exist`)
  }
  const canon = (c: string): string => (kind === 'reteco' ? c : (measureName(c) ?? c))
  const columns = shown.map(canon)
  const primary = canon(t.primary)
  return {
    ...t,
    baselines,
    kind,
    dataDir,
    judging,
    primary,
    shownColumns: columns.includes(primary) ? columns : [primary, ...columns],
  }
}

function loadJudging(j: JudgeTrackConfig, base: string, at: string, out: string[]): Judging | null {
  const configFile =
    j.config === undefined
      ? defaultJudgeConfigPath()
      : isAbsolute(j.config)
        ? j.config
        : resolve(base, j.config)
  try {
    const l = loadJudgeConfig(configFile)
    const model = j.bertscore?.model
    return {
      settings: j,
      ...(j.bertscore && model
        ? {
            bertscore: {
              modelDir: isAbsolute(model) ? model : resolve(base, model),
              ...(j.bertscore.layer !== undefined ? { layer: j.bertscore.layer } : {}),
            },
          }
        : {}),
      configFile,
      configHash: l.hash,
      configName: l.config.name,
      model: l.config.model,
      invalidPolicy: l.config.invalidPolicy,
      currency: l.config.prices.currency,
      tableColumns: judgeTableColumns(),
    }
  } catch (e) {
    if (!(e instanceof TrecscoreError)) throw e
    out.push(`${at}: judge.config: ${e.message.split('\n').join('; ')}`)
    return null
  }
}

/** Validate an already parsed config value; `file` names it in messages and anchors relative paths. */
export function parseCompetition(
  value: unknown,
  file: string,
  needs: DataNeeds = 'all',
): Competition {
  const parsed = competitionSchema.safeParse(value)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) => `${file}: ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`,
      ),
    )
  }
  const out: string[] = []
  const tracks = parsed.data.tracks.map((t, i) =>
    checkTrack(t, i, dirname(resolve(file)), file, out, needs),
  )
  if (out.length) throw new ConfigError(out)
  return { ...parsed.data, file, tracks }
}

/** Read and validate a competition config file (`needs`: see {@link DataNeeds}). */
export function loadCompetition(file: string, needs: DataNeeds = 'all'): Competition {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new ConfigError([
      `${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    ])
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new ConfigError([`${file}: not JSON: ${(e as Error).message}`])
  }
  return parseCompetition(value, file, needs)
}

/** The phase with this id. */
export function findPhase(c: Competition, id: string): PhaseConfig | undefined {
  return c.phases.find((p) => p.id === id)
}

/** The track with this id. */
export function findTrack(c: Competition, id: string): Track | undefined {
  return c.tracks.find((t) => t.id === id)
}

/** Whether a phase's scores are visible to participants at `now` (not hidden, or released). */
export function phasePublic(phase: PhaseConfig, releasedAt: string | null, now: Date): boolean {
  if (!phase.hidden) return true
  if (releasedAt !== null) return true
  return phase.release !== undefined && new Date(phase.release) <= now
}
