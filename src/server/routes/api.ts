/**
 * The JSON API (/api/v1): the competition, boards, and a team's submissions. Authenticated by
 * a team's API token (`Authorization: Bearer tsk_…`) or a browser session (then CSRF applies
 * to POST). Rate-limited per token and per IP.
 *
 * Every route is listed, with its request and response schemas, in `api-schemas.ts`, from
 * which `GET /api/v1/openapi.json` is generated (a test keeps the two in step):
 *
 * - `GET  /api/v1/competition`
 * - `GET  /api/v1/boards/:track/:phase` (and `/csv`, `/markdown`, `/latex`: the same board;
 *   `/diff?from=&to=`: rank changes between two qrels versions)
 * - `GET  /api/v1/submissions` (the team's)
 * - `POST /api/v1/submissions?track=T&phase=P&name=FILE` with the run as the raw body (or as
 *   `multipart/form-data` file parts, one per domain for a per-domain RETECO run, `name` then
 *   naming the run) and the metadata as JSON in the `X-Trecscore-Metadata` header: 202
 *   `{id, state}`, or 4xx `{error, report?}` (422 carries the validator's report; nothing
 *   stored, nothing charged)
 * - `GET  /api/v1/submissions/:id`, `GET /api/v1/submissions/:id/per-query` (the team's only)
 * - `POST /api/v1/submissions/:id/select` (the team's only; `limits.counts: "selected"`)
 */
import { type Context, Hono } from 'hono'
import { type Board, loadBoard, loadBoardDiff } from '../board.js'
import { findPhase, findTrack, runIsDirectory } from '../config/load.js'
import type { ServerContext } from '../context.js'
import { currentQrels } from '../qrels-versions.js'
import { TRECSCORE_VERSION } from '../scoring.js'
import { fileParts, multipartBoundary, readMultipart } from '../storage/multipart.js'
import { UploadRejected } from '../storage/upload.js'
import { selectSubmission, submitRun } from '../submissions.js'
import { submissionView, teamSubmissions } from '../views.js'
import { boardCsv, boardLatex, boardMarkdown } from '../web/exports.js'
import type {
  acceptedResponse,
  boardDiffResponse,
  boardResponse,
  competitionResponse,
  perQueryResponse,
  Reply,
  selectedResponse,
  submissionListResponse,
  submissionResponse,
} from './api-schemas.js'
import { clientIp, type Env } from './middleware.js'
import { openApiDocument } from './openapi.js'

const EMPTY: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.resolve({ done: true as const, value: undefined }),
  }),
}

/** The qrels versions a diff compares (defaults: the newest and the one before), null for an unknown board, or what is wrong. */
export async function diffVersions(
  ctx: ServerContext,
  trackId: string,
  phaseId: string,
  from: string | undefined,
  to: string | undefined,
): Promise<{ from: number; to: number } | string | null> {
  const track = findTrack(ctx.competition, trackId)
  const phase = findPhase(ctx.competition, phaseId)
  if (!track || !phase) return null
  const newest = (await currentQrels(ctx.db, track, phase, ctx.dataDir)).version
  const t = to === undefined ? newest : Number(to)
  const f = from === undefined ? t - 1 : Number(from)
  if (
    !Number.isInteger(f) ||
    !Number.isInteger(t) ||
    f < 1 ||
    t < 1 ||
    f > newest ||
    t > newest ||
    f === t
  )
    return newest === 1
      ? 'this board has one qrels version only; nothing to compare'
      : `from and to: two different qrels versions of 1..${newest}`
  return { from: f, to: t }
}

/** The API routes of a server. */
export function apiRoutes(ctx: ServerContext): Hono<Env> {
  const app = new Hono<Env>()
  const notFound = (c: Context<Env>): Response => c.json({ error: 'not found' }, 404)
  app.use('*', async (c, next) => {
    const limit = ctx.competition.rateLimits.apiPerMinute
    const token = c.get('tokenId')
    if (
      !(await ctx.limiter.allow(`api-ip:${clientIp(c)}`, limit * 4)) ||
      (token !== null && !(await ctx.limiter.allow(`api:${token}`, limit)))
    )
      return c.json({ error: 'rate limit: too many requests; wait a minute' }, 429)
    return next()
  })
  let openapi: unknown = null
  app.get('/openapi.json', (c) =>
    c.json((openapi ??= openApiDocument(TRECSCORE_VERSION)) as object),
  )
  app.get('/competition', (c) =>
    c.json({
      name: ctx.competition.name,
      serverTime: ctx.now().toISOString(),
      timeDisplay: ctx.competition.timeDisplay,
      phases: ctx.competition.phases.map((p) => ({
        id: p.id,
        title: p.title ?? p.id,
        start: p.start,
        end: p.end,
        hidden: p.hidden,
        release: p.release ?? null,
      })),
      tracks: ctx.competition.tracks.map((t) => ({
        id: t.id,
        title: t.title,
        preset: t.preset ?? null,
        measures: t.measures ?? null,
        primary: t.primary,
        columns: [...t.shownColumns],
      })),
      metadata: ctx.competition.metadata,
      limits: ctx.competition.limits,
      upload: ctx.competition.upload,
    } satisfies Reply<typeof competitionResponse>),
  )
  app.get('/boards/:track/:phase', async (c) => {
    const b = await loadBoard(
      ctx.db,
      ctx.competition,
      c.req.param('track'),
      c.req.param('phase'),
      ctx.now(),
    )
    if (!b) return notFound(c)
    return c.json(b satisfies Reply<typeof boardResponse>)
  })
  app.get('/boards/:track/:phase/diff', async (c) => {
    const v = await diffVersions(
      ctx,
      c.req.param('track'),
      c.req.param('phase'),
      c.req.query('from'),
      c.req.query('to'),
    )
    if (v === null) return notFound(c)
    if (typeof v === 'string') return c.json({ error: v }, 400)
    const d = await loadBoardDiff(
      ctx.db,
      ctx.competition,
      c.req.param('track'),
      c.req.param('phase'),
      v.from,
      v.to,
      ctx.now(),
    )
    return d ? c.json(d satisfies Reply<typeof boardDiffResponse>) : notFound(c)
  })
  const exportRoute = (
    suffix: string,
    media: string,
    ext: string,
    render: (b: Board) => string,
  ): void => {
    app.get(`/boards/:track/:phase/${suffix}`, async (c) => {
      const b = await loadBoard(
        ctx.db,
        ctx.competition,
        c.req.param('track'),
        c.req.param('phase'),
        ctx.now(),
      )
      if (!b) return notFound(c)
      return c.body(render(b), 200, {
        'content-type': `${media}; charset=utf-8`,
        'content-disposition': `attachment; filename="${b.track}-${b.phase}.${ext}"`,
      })
    })
  }
  exportRoute('csv', 'text/csv', 'csv', boardCsv)
  exportRoute('markdown', 'text/markdown', 'md', boardMarkdown)
  exportRoute('latex', 'application/x-latex', 'tex', boardLatex)
  app.get('/submissions', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return c.json({ error: 'sign in or send a team API token' }, 401)
    return c.json({ submissions: await teamSubmissions(ctx, v.teamId) } satisfies Reply<
      typeof submissionListResponse
    >)
  })
  app.post('/submissions', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return c.json({ error: 'sign in or send a team API token' }, 401)
    if (
      !(await ctx.limiter.allow(`upload:${v.teamId}`, ctx.competition.rateLimits.uploadPerMinute))
    )
      return c.json({ error: 'rate limit: too many uploads; wait a minute' }, 429)
    let metadata: Record<string, unknown> = {}
    const raw = c.req.header('x-trecscore-metadata')
    if (raw !== undefined) {
      try {
        const parsed: unknown = JSON.parse(raw)
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new Error('not an object')
        metadata = parsed as Record<string, unknown>
      } catch {
        return c.json({ error: 'X-Trecscore-Metadata: expected a JSON object' }, 400)
      }
    }
    const body = (c.req.raw.body as unknown as AsyncIterable<Uint8Array> | null) ?? EMPTY
    const boundary = multipartBoundary(c.req.header('content-type'))
    const track = findTrack(ctx.competition, c.req.query('track') ?? '')
    let out: Awaited<ReturnType<typeof submitRun>>
    try {
      out = await submitRun(ctx, {
        teamId: v.teamId,
        userId: v.userId,
        track: c.req.query('track') ?? '',
        phase: c.req.query('phase') ?? '',
        name: c.req.query('name') ?? (track && runIsDirectory(track) ? 'run' : 'run.txt'),
        metadata,
        // multipart/form-data: every file part is one file of the run (a per-domain run sends
        // one per domain); any other body is the run file itself.
        ...(boundary
          ? {
              files: fileParts(
                null,
                readMultipart(body, boundary, {
                  maxBytes: ctx.competition.upload.maxBytes + 256 * 1024,
                })[Symbol.asyncIterator](),
              ),
            }
          : { body }),
      })
    } catch (e) {
      if (e instanceof UploadRejected) return c.json({ error: e.message }, e.status)
      throw e
    }
    if (out.kind === 'accepted')
      return c.json(
        { id: out.id, state: 'queued', url: `/api/v1/submissions/${out.id}` } satisfies Reply<
          typeof acceptedResponse
        >,
        202,
      )
    return c.json(
      { error: out.message, ...(out.report !== undefined ? { report: out.report } : {}) },
      out.status,
    )
  })
  app.get('/submissions/:id', async (c) => {
    const s = await submissionView(ctx, c.get('viewer'), c.req.param('id'))
    if (!s) return notFound(c)
    const { perQuery: _pq, ...rest } = s
    void _pq
    return c.json(rest satisfies Reply<typeof submissionResponse>)
  })
  app.get('/submissions/:id/per-query', async (c) => {
    const s = await submissionView(ctx, c.get('viewer'), c.req.param('id'))
    if (!s) return notFound(c)
    if (s.perQuery === null)
      return c.json(
        { error: 'per-query values are published for dev phases only, once scored' },
        404,
      )
    return c.json({ id: s.id, perQuery: s.perQuery } satisfies Reply<typeof perQueryResponse>)
  })
  app.post('/submissions/:id/select', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return notFound(c)
    const out = await selectSubmission(ctx, v.teamId, c.req.param('id'))
    if (out.kind === 'selected')
      return c.json({ track: out.track, phase: out.phase, selected: out.id } satisfies Reply<
        typeof selectedResponse
      >)
    return c.json({ error: out.message }, out.status)
  })
  app.notFound((c) => notFound(c))
  return app
}
