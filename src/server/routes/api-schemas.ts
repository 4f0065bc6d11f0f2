/**
 * The JSON API's request and response shapes as zod schemas, and the list of its routes. The
 * handlers in `api.ts` type their answers with these schemas, and `openapi.ts` turns the list
 * into the OpenAPI document served at `/api/v1/openapi.json`; a test checks the list against
 * the routes the app actually registers and every answer against its schema.
 */
import { z } from 'zod'
import { limitsSchema, metadataFieldSchema, uploadLimitsSchema } from '../config/schema.js'

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T

/** What a handler may answer for a response schema (read-only views of the data are fine). */
export type Reply<S extends z.ZodType> = DeepReadonly<z.output<S>>

const value = z.number().nullable().describe('a measure value; null when undefined for this run')
const instant = z.string().describe('a UTC instant, ISO 8601')

export const errorSchema = z
  .strictObject({
    error: z.string(),
    report: z
      .string()
      .optional()
      .describe('the validator report, exactly as `trecscore validate` prints it (422 only)'),
  })
  .meta({ id: 'Error' })

export const competitionResponse = z
  .object({
    name: z.string(),
    serverTime: instant,
    timeDisplay: z
      .enum(['utc', 'aoe'])
      .describe('whether pages show phase instants also in AoE (UTC-12)'),
    phases: z.array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        start: instant,
        end: instant,
        hidden: z.boolean(),
        release: instant.nullable(),
      }),
    ),
    tracks: z.array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        preset: z.string().nullable(),
        measures: z.array(z.string()).nullable(),
        primary: z.string(),
        columns: z.array(z.string()),
      }),
    ),
    metadata: z.array(metadataFieldSchema),
    limits: limitsSchema,
    upload: uploadLimitsSchema,
  })
  .meta({ id: 'Competition' })

export const boardEntrySchema = z
  .object({
    rank: z.number().int(),
    team: z.string().describe("the team's name, or its alias when the team is anonymous"),
    anonymous: z.boolean(),
    baseline: z.boolean(),
    run: z.string().nullable().describe('the file name; null for anonymous teams'),
    submissionId: z.string().nullable().describe('null for anonymous teams'),
    primary: z.number(),
    columns: z.record(z.string(), value),
    submittedAt: instant,
    tier: z
      .number()
      .int()
      .nullable()
      .describe(
        'significance tier (1: statistically tied with #1); null without tiers or per-query values',
      ),
    pTierHead: z
      .number()
      .nullable()
      .describe('corrected p-value against the head of its tier; null for a head'),
    pAbove: z
      .number()
      .nullable()
      .describe('corrected p-value against the entry ranked directly above; null for the first'),
    domains: z
      .record(z.string(), value)
      .nullable()
      .describe(
        'RETECO tracks: per domain, the mean of the primary measure over its queries; null for other tracks',
      ),
    turnDepth: z
      .record(z.string(), value)
      .nullable()
      .describe(
        'RETECO Track 2: per turn-depth bucket (T1 … T4, T5+), the mean of the primary measure over its turns, pooled over domains; null for other tracks',
      ),
  })
  .meta({ id: 'BoardEntry' })

export const boardResponse = z
  .object({
    track: z.string(),
    phase: z.string(),
    primary: z.string(),
    columns: z.array(z.string()),
    released: z
      .boolean()
      .describe('false for a hidden phase not yet released: then entries is empty'),
    counts: z.enum(['best', 'latest', 'selected']).describe('which submission of a team counts'),
    tiePolicy: z.string(),
    qrelsVersion: z.number().int().describe("the newest qrels version (1: the config's qrels)"),
    rescoring: z
      .number()
      .int()
      .describe(
        're-scoring jobs still waiting or running (the board mixes qrels versions until 0)',
      ),
    domains: z
      .array(z.string())
      .describe('RETECO tracks: the domains of the per-domain breakdown; empty for other tracks'),
    turnDepths: z
      .array(z.string())
      .describe(
        'RETECO Track 2: the turn-depth buckets of the breakdown that hold turns (T1 … T4, T5+); empty for other tracks',
      ),
    tierPolicy: z
      .string()
      .nullable()
      .describe(
        'how the significance tiers are computed; null when the competition turned them off',
      ),
    entries: z.array(boardEntrySchema),
    judge: z
      .object({
        configName: z.string(),
        configHash: z.string().describe('judge_config_id: sha256 of the judge config'),
        model: z.string(),
        invalidPolicy: z.string(),
        currency: z.string(),
        columns: z
          .array(z.string())
          .describe(
            "the judge's accounting columns each entry carries in `columns`: tokens, cost, requests, cache hits, invalid and missing (total and per dimension)",
          ),
      })
      .nullable()
      .describe('judged tracks (RETECO 2b/2c): the judge in force; null for other tracks'),
  })
  .meta({ id: 'Board' })

const diffSide = z
  .strictObject({ rank: z.number().int(), primary: z.number(), run: z.string().nullable() })
  .nullable()
  .describe('null: not on the board under that version')

export const boardDiffResponse = z
  .strictObject({
    track: z.string(),
    phase: z.string(),
    primary: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    released: z.boolean(),
    rows: z.array(
      z.strictObject({
        team: z.string(),
        anonymous: z.boolean(),
        baseline: z.boolean(),
        from: diffSide,
        to: diffSide,
        rankChange: z
          .number()
          .int()
          .nullable()
          .describe('places moved up; null when on one side only'),
      }),
    ),
  })
  .meta({ id: 'BoardDiff' })

const state = z.enum(['queued', 'scoring', 'scored', 'failed'])

export const submissionRowSchema = z
  .object({
    id: z.string(),
    track: z.string(),
    phase: z.string(),
    state,
    reason: z.string().nullable(),
    name: z.string(),
    createdAt: instant,
    primary: value.describe('null while hidden or unscored'),
    selected: z.boolean().describe('the team selected this submission as the one that counts'),
  })
  .meta({ id: 'SubmissionRow' })

export const submissionListResponse = z
  .strictObject({ submissions: z.array(submissionRowSchema) })
  .meta({ id: 'SubmissionList' })

export const acceptedResponse = z
  .strictObject({ id: z.string(), state: z.literal('queued'), url: z.string() })
  .meta({ id: 'Accepted' })

export const submissionResponse = submissionRowSchema
  .extend({
    teamName: z.string(),
    sha256: z.string(),
    bytes: z.number().int(),
    charged: z.boolean(),
    attempts: z.number().int(),
    metadata: z.record(z.string(), z.unknown()),
    scoresVisible: z.boolean(),
    versions: z.array(
      z.strictObject({
        version: z.number().int(),
        qrelsVersion: z.number().int(),
        createdAt: instant,
        columns: z.record(z.string(), value),
        notes: z.strictObject({
          warnings: z.array(z.string()),
          counts: z.record(z.string(), z.number()),
        }),
        provenance: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'Submission' })

export const perQueryResponse = z
  .strictObject({
    id: z.string(),
    perQuery: z.array(z.strictObject({ query: z.string(), values: z.record(z.string(), value) })),
  })
  .meta({ id: 'PerQuery' })

export const selectedResponse = z
  .strictObject({ track: z.string(), phase: z.string(), selected: z.string() })
  .meta({ id: 'Selection' })

/** Every named schema: each becomes one entry of the OpenAPI document's `components.schemas`. */
export const API_COMPONENTS: readonly z.ZodType[] = [
  errorSchema,
  competitionResponse,
  boardEntrySchema,
  boardResponse,
  submissionRowSchema,
  submissionListResponse,
  acceptedResponse,
  submissionResponse,
  perQueryResponse,
  selectedResponse,
  boardDiffResponse,
]

/** One documented route. `path` is written the Hono way (`:param`), relative to `/api/v1`. */
export interface ApiRoute {
  readonly method: 'get' | 'post'
  readonly path: string
  readonly summary: string
  /** Whether it needs a team (API token or session). */
  readonly team: boolean
  readonly query?: Readonly<
    Record<string, { readonly required: boolean; readonly description: string }>
  >
  readonly headers?: Readonly<Record<string, string>>
  /** The request body, when there is one (`binary`: the run as the raw body). */
  readonly body?: 'binary'
  /** Status → a schema for JSON, or a media type for other bodies. */
  readonly responses: Readonly<
    Record<
      number,
      { readonly description: string; readonly schema?: z.ZodType; readonly media?: string }
    >
  >
}

const notFound = { description: 'unknown, or not yours (the same answer)', schema: errorSchema }
const unauthorized = {
  description: 'no team: sign in or send a team API token',
  schema: errorSchema,
}
const exportRoute = (suffix: string, media: string, what: string): ApiRoute => ({
  method: 'get',
  path: `/boards/:track/:phase/${suffix}`,
  summary: `The board as ${what}, built from the same board as the JSON (a hidden phase exports the header only until released; anonymous teams by alias)`,
  team: false,
  responses: { 200: { description: what, media }, 404: notFound },
})

/** Every route of the JSON API. */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    team: false,
    responses: { 200: { description: 'OpenAPI 3.1', media: 'application/json' } },
  },
  {
    method: 'get',
    path: '/competition',
    summary: 'Phases, tracks, metadata fields, limits, server time',
    team: false,
    responses: { 200: { description: 'the competition', schema: competitionResponse } },
  },
  {
    method: 'get',
    path: '/boards/:track/:phase',
    summary: 'A ranked board',
    team: false,
    responses: { 200: { description: 'the board', schema: boardResponse }, 404: notFound },
  },
  {
    method: 'get',
    path: '/boards/:track/:phase/diff',
    summary:
      'How the ranks change between two qrels versions (each submission by its newest score against each version)',
    team: false,
    query: {
      from: { required: false, description: 'qrels version (default: the one before `to`)' },
      to: { required: false, description: 'qrels version (default: the newest)' },
    },
    responses: {
      200: { description: 'the diff', schema: boardDiffResponse },
      400: { description: 'no such versions', schema: errorSchema },
      404: notFound,
    },
  },
  exportRoute('csv', 'text/csv', "CSV (RFC 4180; formula-like cells prefixed with ')"),
  exportRoute('markdown', 'text/markdown', 'a Markdown table (punctuation backslash-escaped)'),
  exportRoute('latex', 'application/x-latex', 'a LaTeX tabular (special characters escaped)'),
  {
    method: 'get',
    path: '/submissions',
    summary: "The team's submissions, newest first",
    team: true,
    responses: {
      200: { description: 'the list', schema: submissionListResponse },
      401: unauthorized,
    },
  },
  {
    method: 'post',
    path: '/submissions',
    summary:
      'Upload a run (raw body, or multipart file parts for a per-domain run); validated while it streams, stored and charged only when valid',
    team: true,
    query: {
      track: { required: true, description: 'track id' },
      phase: { required: true, description: 'phase id' },
      name: {
        required: false,
        description:
          'the file name (default run.txt); for a per-domain run, the run name (default run)',
      },
    },
    headers: {
      'X-Trecscore-Metadata': 'the run metadata as a JSON object',
      'x-csrf-token': 'browser sessions only: the CSRF token',
    },
    body: 'binary',
    responses: {
      202: { description: 'accepted and queued', schema: acceptedResponse },
      400: { description: 'bad metadata', schema: errorSchema },
      401: unauthorized,
      403: { description: 'phase closed, or CSRF refused', schema: errorSchema },
      404: { description: 'no such track or phase', schema: errorSchema },
      413: { description: 'an upload limit was passed', schema: errorSchema },
      422: {
        description: 'the run is invalid (report attached; nothing stored or charged)',
        schema: errorSchema,
      },
      429: { description: 'a quota or rate limit', schema: errorSchema },
    },
  },
  {
    method: 'get',
    path: '/submissions/:id',
    summary: 'One submission of the team: state, reason, metadata, score versions with provenance',
    team: true,
    responses: {
      200: { description: 'the submission', schema: submissionResponse },
      404: notFound,
    },
  },
  {
    method: 'get',
    path: '/submissions/:id/per-query',
    summary: 'Per-query values (phases that are not hidden)',
    team: true,
    responses: {
      200: { description: 'per-query values', schema: perQueryResponse },
      404: notFound,
    },
  },
  {
    method: 'post',
    path: '/submissions/:id/select',
    summary:
      'Make this the submission that counts for its track and phase (competitions with `limits.counts: "selected"`, while the phase is open)',
    team: true,
    headers: { 'x-csrf-token': 'browser sessions only: the CSRF token' },
    responses: {
      200: { description: 'selected', schema: selectedResponse },
      403: { description: 'the phase is closed, or selection is off', schema: errorSchema },
      404: notFound,
      409: { description: 'a failed submission cannot count', schema: errorSchema },
    },
  },
]
