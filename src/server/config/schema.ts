/**
 * The competition config of `trecscore serve` (a JSON file), as a zod schema: tracks, phases,
 * per-team limits, upload limits, worker limits and the run metadata every submission carries.
 * The README prints this schema; `describeConfigSchema` (below) is what it prints.
 */
import { z } from 'zod'
import { judgeTrackSchema } from '../judging/schema.js'

const id = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,63}$/,
    'expected an id: lowercase letters, digits, - and _ (at most 64)',
  )

/** A UTC instant written as ISO 8601 with a `Z` or an offset (e.g. `2027-01-10T23:59:59Z`). */
const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s).toISOString())

/** One phase, shared by every track: dev (public qrels, live board) or test (hidden qrels, board released later). */
export const phaseSchema = z
  .strictObject({
    id,
    title: z.string().min(1).max(200).optional(),
    /** Submissions are accepted from `start` (inclusive) to `end` (exclusive), UTC. */
    start: instant,
    end: instant,
    /** Hidden: the qrels and per-query values never leave the server, scores stay hidden until release. */
    hidden: z.boolean().default(false),
    /** Hidden phases: scores are published at this instant (or when an organizer releases the phase). */
    release: instant.optional(),
    /** Hidden phases: the release snapshot holds the per-query files only from this instant (a later snapshot adds them). */
    perQueryEmbargo: instant.optional(),
  })
  .refine((p) => p.start < p.end, { message: 'start must be before end', path: ['end'] })

/** One metadata field a team states for each run. */
export const metadataFieldSchema = z.discriminatedUnion('type', [
  z.strictObject({
    name: id,
    type: z.literal('boolean'),
    label: z.string().optional(),
    required: z.boolean().default(true),
  }),
  z.strictObject({
    name: id,
    type: z.literal('string'),
    label: z.string().optional(),
    required: z.boolean().default(true),
    maxLength: z.number().int().min(1).max(10_000).default(500),
  }),
  z.strictObject({
    name: id,
    type: z.literal('integer'),
    label: z.string().optional(),
    required: z.boolean().default(true),
    min: z.number().int().optional(),
    max: z.number().int().optional(),
  }),
  z.strictObject({
    name: id,
    type: z.literal('enum'),
    label: z.string().optional(),
    required: z.boolean().default(true),
    values: z.array(z.string().min(1).max(100)).min(1),
  }),
])

/**
 * One track. Bound to a preset of `trecscore presets` (`dl21-passage`, `neuclir23-mlir`, …;
 * qrels per phase), to a RETECO sub-track (`reteco-1a`, `reteco-1b`, `reteco-2a`, `reteco-2c`; a data folder and a split
 * per phase), or to plain qrels with a measure list (`measures`, optional `conventions` profile).
 */
export const trackSchema = z
  .strictObject({
    id,
    title: z.string().min(1).max(200),
    preset: z.string().optional(),
    measures: z.array(z.string().min(1)).min(1).optional(),
    /** Plain tracks: a convention profile (`trec-eval`, `trec-eval-v9`, `pytrec-eval`). */
    conventions: z.string().optional(),
    /** Folder of the track's data, relative to the config file. */
    data: z.string().min(1),
    /** Qrels file per phase id (relative to `data`): presets and plain tracks. */
    qrels: z.record(z.string(), z.string().min(1)).optional(),
    /** RETECO: the split per phase id (`dev`, `test`, …). */
    splits: z.record(z.string(), z.string().min(1)).optional(),
    /** The measure the board ranks by (higher is better). */
    primary: z.string().min(1),
    /** Measures shown as columns, in order (default: the primary only). */
    columns: z.array(z.string().min(1)).optional(),
    /** Runs the organizers score as baselines (marked on the board): name → file (relative to `data`; resolved on load). */
    baselines: z.record(z.string().min(1).max(100), z.string().min(1)).optional(),
    /** RETECO generation (`reteco-2b`, `reteco-2c`): the LLM judge that scores the answers (see judging/schema.ts). */
    judge: judgeTrackSchema.optional(),
  })
  .refine((t) => (t.preset === undefined) !== (t.measures === undefined), {
    message: 'give exactly one of preset and measures',
  })
  .refine((t) => t.preset !== 'reteco-2b' || t.judge !== undefined, {
    message: 'a reteco-2b track is judged: give its judge block',
    path: ['judge'],
  })
  .refine((t) => t.judge === undefined || t.preset === 'reteco-2b' || t.preset === 'reteco-2c', {
    message: 'a judge block goes with preset reteco-2b or reteco-2c',
    path: ['judge'],
  })

/** Limits per team, shared by its members. Failed and invalid submissions are never charged. */
export const limitsSchema = z.strictObject({
  /** Charged submissions per team and track in any rolling 24 hours. */
  perDay: z.number().int().min(1).default(5),
  /** Charged submissions per team, track and phase. */
  perPhase: z.number().int().min(1).default(50),
  /** Submissions per team queued or scoring at once. */
  concurrent: z.number().int().min(1).default(2),
  /** Which scored submission of a team counts on the board: its best, its latest, or the one it selected (its latest until it selects one). */
  counts: z.enum(['best', 'latest', 'selected']).default('best'),
})

/** Upload limits, enforced while the bytes arrive (never trusting a declared size). */
export const uploadLimitsSchema = z.strictObject({
  maxBytes: z
    .number()
    .int()
    .min(1)
    .default(64 * 1024 * 1024),
  /** For `.gz` uploads: the most bytes the decompressed run may have. */
  maxDecompressedBytes: z
    .number()
    .int()
    .min(1)
    .default(256 * 1024 * 1024),
  maxLines: z.number().int().min(1).default(5_000_000),
  maxLineBytes: z.number().int().min(16).default(4096),
})

/** The scoring worker (a child process of the server). */
export const workerSchema = z.strictObject({
  /** A job running longer fails visibly ("time limit exceeded") and is not charged. */
  timeLimitSeconds: z.number().min(0.1).default(600),
  /** Attempts of a job whose worker died (crash, kill) or passed the time limit before it is failed. */
  maxAttempts: z.number().int().min(1).default(3),
  /** Postgres queue: seconds before a failed attempt is retried (doubled each time with `retryBackoff`). */
  retryDelaySeconds: z.number().int().min(0).default(5),
  /** Postgres queue: double the retry delay on each retry (exponential backoff). */
  retryBackoff: z.boolean().default(true),
  /**
   * Postgres queue: a job whose worker process vanished (SIGKILL, a lost machine) is handed to
   * another worker once it expires, `timeLimitSeconds` plus this many seconds after it started.
   */
  expireGraceSeconds: z.number().int().min(0).default(30),
  /** Postgres queue: jobs of one team scored at once, over all workers (the rest wait their turn). */
  perTeamConcurrency: z.number().int().min(1).default(2),
  /** Postgres queue: how often pg-boss's maintenance (expiry, retries, dead letters) runs, in seconds. */
  maintenanceIntervalSeconds: z.number().int().min(1).default(10),
})

/** Requests per minute, per IP (login) and per team or token (upload, API). */
export const rateLimitsSchema = z.strictObject({
  loginPerMinute: z.number().int().min(1).default(10),
  uploadPerMinute: z.number().int().min(1).default(10),
  apiPerMinute: z.number().int().min(1).default(120),
})

/** The paired tests a board's tiers can use (those of `compare`). */
export const TIER_TESTS = ['t', 'wilcoxon', 'permutation'] as const

/** Significance tiers on every board (see `tiers.ts`): the paired test, its correction and level. */
export const significanceSchema = z.strictObject({
  /** false: boards show no tiers. */
  enabled: z.boolean().default(true),
  test: z.enum(TIER_TESTS).default('t'),
  correction: z.enum(['holm', 'bonferroni', 'bh', 'none']).default('holm'),
  alpha: z.number().gt(0).lt(1).default(0.05),
  /** Sign-flip budget of the permutation test. */
  permutations: z.number().int().min(1).max(100_000).default(10_000),
  seed: z.number().int().default(42),
})

export const competitionSchema = z
  .strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(5000).optional(),
    phases: z.array(phaseSchema).min(1),
    tracks: z.array(trackSchema).min(1),
    limits: limitsSchema.prefault({}),
    upload: uploadLimitsSchema.prefault({}),
    worker: workerSchema.prefault({}),
    rateLimits: rateLimitsSchema.prefault({}),
    significance: significanceSchema.prefault({}),
    metadata: z.array(metadataFieldSchema).default([]),
    /** How pages show instants: `utc`, or `aoe` (UTC and, beside it, Anywhere on Earth, UTC-12). Instants stay UTC in the config and the API. */
    timeDisplay: z.enum(['utc', 'aoe']).default('utc'),
  })
  .superRefine((c, ctx) => {
    const unique = (ids: readonly string[], what: string, path: string): void => {
      const seen = new Set<string>()
      for (const x of ids) {
        if (seen.has(x))
          ctx.addIssue({ code: 'custom', message: `duplicate ${what} id '${x}'`, path: [path] })
        seen.add(x)
      }
    }
    unique(
      c.phases.map((p) => p.id),
      'phase',
      'phases',
    )
    unique(
      c.tracks.map((t) => t.id),
      'track',
      'tracks',
    )
    unique(
      c.metadata.map((m) => m.name),
      'metadata field',
      'metadata',
    )
    c.tracks.forEach((t, i) => {
      const perPhase = t.preset?.startsWith('reteco-') ? t.splits : t.qrels
      const key = t.preset?.startsWith('reteco-') ? 'splits' : 'qrels'
      for (const p of c.phases) {
        if (perPhase?.[p.id] === undefined)
          ctx.addIssue({
            code: 'custom',
            message: `track '${t.id}' needs ${key}.${p.id} (one entry per phase)`,
            path: ['tracks', i, key],
          })
      }
      for (const k of Object.keys(perPhase ?? {})) {
        if (!c.phases.some((p) => p.id === k))
          ctx.addIssue({
            code: 'custom',
            message: `track '${t.id}': ${key}.${k} names no phase`,
            path: ['tracks', i, key, k],
          })
      }
    })
  })

/** A parsed competition config (defaults filled). */
export type CompetitionConfig = z.output<typeof competitionSchema>
export type TrackConfig = z.output<typeof trackSchema>
export type PhaseConfig = z.output<typeof phaseSchema>
export type MetadataField = z.output<typeof metadataFieldSchema>
export type LimitsConfig = z.output<typeof limitsSchema>
export type UploadLimits = z.output<typeof uploadLimitsSchema>
export type SignificanceConfig = z.output<typeof significanceSchema>

/** The config schema as JSON Schema (printed in the README and by `trecscore serve --print-schema`). */
export function configJsonSchema(): unknown {
  return z.toJSONSchema(competitionSchema, { io: 'input', unrepresentable: 'any' })
}
