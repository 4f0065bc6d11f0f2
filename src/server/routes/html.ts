/**
 * The HTML routes: overview, boards, sign-in, invites, the team page with uploads and tokens,
 * submission pages and the organizer page. Any id that is unknown or not the viewer's gives
 * the same 404 page.
 */
import { type Context, Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import {
  AccountError,
  acceptInvite,
  checkLogin,
  createApiToken,
  createInvite,
  createSession,
  createTeam,
  deleteSession,
  inviteTeam,
  revokeApiToken,
} from '../auth/accounts.js'
import { loadBoard, loadBoardDiff } from '../board.js'
import { findPhase, findTrack, runIsDirectory } from '../config/load.js'
import type { ServerContext } from '../context.js'
import {
  pausedJudging,
  queueRejudging,
  scorerVersion,
  setJudgingPaused,
} from '../judging/controls.js'
import { addQrelsVersion, currentQrels, QrelsVersionError } from '../qrels-versions.js'
import { listSnapshots, writeDueSnapshots } from '../release-snapshot.js'
import {
  fieldsBeforeFile,
  fileParts,
  multipartBoundary,
  readMultipart,
} from '../storage/multipart.js'
import { UploadRejected } from '../storage/upload.js'
import { remaining, selectSubmission, submitRun } from '../submissions.js'
import { publishTopicList } from '../topic-cache.js'
import { submissionView, teamSubmissions } from '../views.js'
import { webAsset } from '../web/assets.js'
import type { SafeHtml } from '../web/html.js'
import {
  boardBody,
  diffBody,
  inviteBody,
  layout,
  loginBody,
  messageBody,
  overviewBody,
} from '../web/pages.js'
import { STYLE_CSS } from '../web/style.js'
import {
  orgBody,
  rejectedBody,
  selectControl,
  submissionBody,
  teamBody,
} from '../web/team-pages.js'
import { diffVersions } from './api.js'
import { clientIp, cookieOptions, type Env, SESSION_COOKIE } from './middleware.js'

const SESSION_SECONDS = 12 * 3600

/** Read a request body up to `max` bytes (counted as they arrive); throws {@link UploadRejected} past it. */
export async function boundedBody(c: Context, max: number): Promise<Uint8Array> {
  const body = c.req.raw.body
  if (!body) return new Uint8Array()
  const parts: Uint8Array[] = []
  let n = 0
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    n += chunk.length
    if (n > max) throw new UploadRejected(`upload limit: the upload is over ${max} bytes`, 413)
    parts.push(chunk)
  }
  return Buffer.concat(parts)
}

/** Room for the form's fields and part headers beside the run's bytes (`upload.maxBytes`). */
const FORM_OVERHEAD_BYTES = 256 * 1024
/** The most bytes of one text field of an upload form. */
const FIELD_BYTES = 64 * 1024

const NO_BODY: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({
    next: () => Promise.resolve({ done: true as const, value: undefined }),
  }),
}

/** The request body as it arrives. */
export function streamOf(c: Context): AsyncIterable<Uint8Array> {
  return (c.req.raw.body as unknown as AsyncIterable<Uint8Array> | null) ?? NO_BODY
}

/** Why a web process that holds no qrels takes no qrels version. */
export const QRELS_NOT_HERE =
  "this web process holds no qrels (Postgres, no scoring here): add the version with `trecscore serve admin add-qrels` on a machine with the qrels and the workers' --data folder"

/** The HTML routes of a server. */
export function htmlRoutes(ctx: ServerContext): Hono<Env> {
  const app = new Hono<Env>()
  const page = (
    c: Context<Env>,
    title: string,
    body: SafeHtml,
    status: 200 | 400 | 403 | 404 | 413 | 422 | 429 | 503 = 200,
    uploadScript = false,
  ): Response =>
    c.html(
      layout({
        title,
        competition: ctx.competition,
        viewer: c.get('viewer'),
        csrf: c.get('csrf'),
        now: ctx.now(),
        body,
        uploadScript,
      }),
      status,
    )
  const notFound = (c: Context<Env>): Response =>
    page(c, 'Not found', messageBody('There is nothing here, or it is not yours to see.'), 404)
  const form = async (c: Context<Env>): Promise<Record<string, string>> => {
    const body = await c.req.parseBody()
    return Object.fromEntries(
      Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'),
    )
  }

  app.get('/static/style.css', (c) =>
    c.body(STYLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }),
  )
  // The upload page's script and its validating Web Worker (built into dist/web-assets by
  // `npm run build`); without them the pages work as before and the server validates.
  for (const name of ['upload.js', 'validate-worker.js', 'rate.js']) {
    app.get(`/static/${name}`, (c) => {
      const code = webAsset(name)
      return code === null
        ? notFound(c)
        : c.body(code, 200, { 'content-type': 'text/javascript; charset=utf-8' })
    })
  }
  app.get('/', (c) => page(c, 'Overview', overviewBody(ctx.competition)))

  app.get('/boards/:track/:phase', async (c) => {
    const board = await loadBoard(
      ctx.db,
      ctx.competition,
      c.req.param('track'),
      c.req.param('phase'),
      ctx.now(),
    )
    if (!board) return notFound(c)
    const track = findTrack(ctx.competition, board.track)!
    return page(c, `${track.title}: ${board.phase} board`, boardBody(board, track.title))
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
    const track = findTrack(ctx.competition, c.req.param('track'))!
    if (typeof v === 'string') return page(c, `${track.title}: rank changes`, messageBody(v), 400)
    const d = (await loadBoardDiff(
      ctx.db,
      ctx.competition,
      track.id,
      c.req.param('phase'),
      v.from,
      v.to,
      ctx.now(),
    ))!
    return page(
      c,
      `${track.title}: ${d.phase} rank changes, qrels v${d.from} → v${d.to}`,
      diffBody(d, track.title),
    )
  })

  app.get('/login', (c) => page(c, 'Sign in', loginBody(c.get('csrf'))))
  app.post('/login', async (c) => {
    if (
      !(await ctx.limiter.allow(`login:${clientIp(c)}`, ctx.competition.rateLimits.loginPerMinute))
    )
      return page(
        c,
        'Sign in',
        loginBody(c.get('csrf'), 'Too many sign-in attempts; wait a minute.'),
        429,
      )
    const f = await form(c)
    const userId = await checkLogin(ctx.db, f['name'] ?? '', f['password'] ?? '')
    if (!userId) return page(c, 'Sign in', loginBody(c.get('csrf'), 'Wrong name or password.'), 403)
    const s = await createSession(ctx.db, userId, ctx.now())
    setCookie(c, SESSION_COOKIE, s.cookie, cookieOptions(ctx, SESSION_SECONDS))
    return c.redirect('/', 303)
  })
  app.post('/logout', async (c) => {
    const cookie = getCookie(c, SESSION_COOKIE)
    if (cookie) await deleteSession(ctx.db, cookie)
    deleteCookie(c, SESSION_COOKIE, { path: '/' })
    return c.redirect('/', 303)
  })

  app.get('/invite/:token', async (c) => {
    const team = await inviteTeam(ctx.db, c.req.param('token'))
    if (!team)
      return page(
        c,
        'Invite',
        messageBody('This invite link is not valid or was used already.'),
        404,
      )
    return page(
      c,
      'Join a team',
      inviteBody(team.name, `/invite/${c.req.param('token')}`, c.get('csrf')),
    )
  })
  app.post('/invite/:token', async (c) => {
    if (
      !(await ctx.limiter.allow(`login:${clientIp(c)}`, ctx.competition.rateLimits.loginPerMinute))
    )
      return page(c, 'Join a team', messageBody('Too many attempts; wait a minute.'), 429)
    const token = c.req.param('token')
    const team = await inviteTeam(ctx.db, token)
    if (!team)
      return page(
        c,
        'Invite',
        messageBody('This invite link is not valid or was used already.'),
        404,
      )
    const f = await form(c)
    try {
      const userId = await acceptInvite(
        ctx.db,
        token,
        f['name'] ?? '',
        f['password'] ?? '',
        ctx.now(),
      )
      const s = await createSession(ctx.db, userId, ctx.now())
      setCookie(c, SESSION_COOKIE, s.cookie, cookieOptions(ctx, SESSION_SECONDS))
      return c.redirect('/team', 303)
    } catch (e) {
      if (e instanceof AccountError)
        return page(
          c,
          'Join a team',
          inviteBody(team.name, `/invite/${token}`, c.get('csrf'), e.message),
          400,
        )
      throw e
    }
  })

  const teamPage = async (c: Context<Env>, newToken?: string): Promise<Response> => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return c.redirect('/login', 303)
    const team = await ctx.db
      .selectFrom('teams')
      .select(['name', 'anonymous'])
      .where('id', '=', v.teamId)
      .executeTakeFirstOrThrow()
    const tokens = await ctx.db
      .selectFrom('api_tokens')
      .select(['id', 'label', 'created_at', 'revoked_at'])
      .where('team_id', '=', v.teamId)
      .orderBy('created_at')
      .execute()
    const left = []
    for (const t of ctx.competition.tracks)
      for (const p of ctx.competition.phases) {
        const r = await remaining(ctx, v.teamId, t.id, p.id)
        left.push({ track: t.id, phase: p.id, day: r.day, phase_: r.phase })
      }
    const topics = new Map<string, string[]>()
    for (const t of ctx.competition.tracks)
      for (const p of ctx.competition.phases) {
        const set = await ctx.topics.topics(t, p).catch(() => undefined)
        if (set) topics.set(`${t.id}\u0000${p.id}`, [...set])
      }
    return page(
      c,
      'My team',
      teamBody({
        topics,
        competition: ctx.competition,
        teamName: team.name,
        csrf: c.get('csrf'),
        submissions: await teamSubmissions(ctx, v.teamId),
        tokens: tokens.map((t) => ({
          id: t.id,
          label: t.label,
          createdAt: t.created_at,
          revokedAt: t.revoked_at,
        })),
        remaining: left,
        anonymous: team.anonymous === 1,
        now: ctx.now(),
        ...(newToken ? { newToken } : {}),
      }),
      200,
      true,
    )
  }
  app.get('/team', (c) => teamPage(c))
  app.post('/team/tokens', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return notFound(c)
    const f = await form(c)
    try {
      const t = await createApiToken(ctx.db, v.userId, v.teamId, f['label'] ?? '', ctx.now())
      return teamPage(c, t.token)
    } catch (e) {
      if (e instanceof AccountError) return page(c, 'My team', rejectedBody(e.message), 400)
      throw e
    }
  })
  app.post('/team/tokens/:id/revoke', async (c) => {
    const v = c.get('viewer')
    if (
      v.kind !== 'member' ||
      !(await revokeApiToken(ctx.db, v.teamId, c.req.param('id'), ctx.now()))
    )
      return notFound(c)
    return c.redirect('/team', 303)
  })
  app.post('/team/anonymity', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return notFound(c)
    const f = await form(c)
    await ctx.db
      .updateTable('teams')
      .set({ anonymous: f['anonymous'] === 'true' ? 1 : 0 })
      .where('id', '=', v.teamId)
      .execute()
    return c.redirect('/team', 303)
  })
  app.post('/team/submissions/:id/select', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return notFound(c)
    const out = await selectSubmission(ctx, v.teamId, c.req.param('id'))
    if (out.kind === 'selected') return c.redirect(`/submissions/${out.id}`, 303)
    if (out.status === 404) return notFound(c)
    return page(c, 'Not selected', rejectedBody(out.message), out.status === 409 ? 400 : 403)
  })
  app.post('/team/submissions', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'member') return notFound(c)
    if (
      !(await ctx.limiter.allow(`upload:${v.teamId}`, ctx.competition.rateLimits.uploadPerMinute))
    )
      return page(c, 'Upload refused', rejectedBody('Too many uploads; wait a minute.'), 429)
    // Streamed: the fields come first (the form puts the file inputs last), then each file
    // goes to disk under the upload limits as its bytes arrive; nothing is read whole.
    const refused = (message: string, status: 400 | 413 = 400): Response =>
      page(c, 'Upload refused', rejectedBody(message), status)
    const boundary = multipartBoundary(c.req.header('content-type'))
    if (!boundary)
      return refused('the form could not be read (expected multipart/form-data with a run file)')
    const parts = readMultipart(streamOf(c), boundary, {
      maxBytes: ctx.competition.upload.maxBytes + FORM_OVERHEAD_BYTES,
    })[Symbol.asyncIterator]()
    let out: Awaited<ReturnType<typeof submitRun>>
    try {
      const { fields, file } = await fieldsBeforeFile(parts, FIELD_BYTES)
      if (!file) return refused('no run file in the form')
      const track = fields['track'] ?? ''
      if (track === '' || (fields['phase'] ?? '') === '')
        return refused(
          'the form could not be read: the track and phase fields must come before the run file',
        )
      const metadata: Record<string, string> = {}
      for (const [k, x] of Object.entries(fields))
        if (k.startsWith('meta.') && x !== '') metadata[k.slice(5)] = x
      for (const f of ctx.competition.metadata)
        if (f.type === 'boolean' && metadata[f.name] === undefined) metadata[f.name] = 'false'
      const dir = findTrack(ctx.competition, track)
      out = await submitRun(ctx, {
        teamId: v.teamId,
        userId: v.userId,
        track,
        phase: fields['phase'] ?? '',
        name:
          dir && runIsDirectory(dir)
            ? fields['runName'] || 'run'
            : (file.filename ?? '') || 'run.txt',
        metadata,
        files: fileParts(file, parts),
      })
    } catch (e) {
      if (e instanceof UploadRejected) return refused(e.message, e.status)
      throw e
    }
    if (out.kind === 'accepted') return c.redirect(`/submissions/${out.id}`, 303)
    return page(c, 'Upload refused', rejectedBody(out.message, out.report), out.status)
  })

  app.get('/submissions/:id', async (c) => {
    const s = await submissionView(ctx, c.get('viewer'), c.req.param('id'))
    if (!s) return notFound(c)
    const v = c.get('viewer')
    const select =
      v.kind === 'member' && ctx.competition.limits.counts === 'selected'
        ? selectControl(ctx.competition, s, c.get('csrf'), ctx.now())
        : undefined
    return page(c, `Submission ${s.id}`, submissionBody(s, select))
  })

  /** The judged tracks and phases, paused or not, with the scorer version new judgments get. */
  const judgingStates = async () => {
    const paused = await pausedJudging(ctx.db)
    return ctx.competition.tracks
      .filter((t) => t.judging)
      .flatMap((t) =>
        ctx.competition.phases.map((p) => ({
          track: t.id,
          phase: p.id,
          paused: paused.has(`${t.id}\u0000${p.id}`),
          scorerVersion: scorerVersion(t),
        })),
      )
  }
  const orgPage = async (
    c: Context<Env>,
    invite?: { team: string; link: string },
    notice?: string,
  ): Promise<Response> => {
    const teams = await ctx.db
      .selectFrom('teams')
      .leftJoin('users', 'users.team_id', 'teams.id')
      .select((eb) => [
        'teams.id',
        'teams.name',
        'teams.is_baseline',
        'teams.anonymous',
        eb.fn.count<number>('users.id').as('members'),
      ])
      .groupBy('teams.id')
      .orderBy('teams.created_at')
      .execute()
    const released = new Map(
      (await ctx.db.selectFrom('releases').selectAll().execute()).map((r) => [
        r.phase,
        r.released_at,
      ]),
    )
    const qrels = []
    for (const t of ctx.competition.tracks)
      for (const p of ctx.competition.phases)
        qrels.push({
          track: t.id,
          phase: p.id,
          version: (await currentQrels(ctx.db, t, p, ctx.dataDir)).version,
          perDomain: t.kind === 'reteco',
        })
    const rescoreRows = await ctx.db
      .selectFrom('rescores')
      .innerJoin('submissions', 'submissions.id', 'rescores.submission_id')
      .innerJoin('teams', 'teams.id', 'submissions.team_id')
      .select([
        'submissions.track',
        'submissions.phase',
        'rescores.qrels_version',
        'rescores.state',
        'rescores.reason',
        'submissions.id as submission',
        'teams.name as team',
      ])
      .orderBy('submissions.track')
      .orderBy('submissions.phase')
      .orderBy('rescores.qrels_version')
      .orderBy('rescores.created_at')
      .execute()
    const rescores = new Map<
      string,
      {
        track: string
        phase: string
        version: number
        queued: number
        scoring: number
        done: number
        failed: { submission: string; team: string; reason: string }[]
      }
    >()
    for (const r of rescoreRows) {
      const k = `${r.track}\u0000${r.phase}\u0000${r.qrels_version}`
      const g = rescores.get(k) ?? {
        track: r.track,
        phase: r.phase,
        version: r.qrels_version,
        queued: 0,
        scoring: 0,
        done: 0,
        failed: [],
      }
      rescores.set(k, g)
      if (r.state === 'failed')
        g.failed.push({
          submission: r.submission,
          team: r.team,
          reason: r.reason ?? 'no reason recorded',
        })
      else g[r.state]++
    }
    const states = Object.fromEntries(
      (
        await ctx.db
          .selectFrom('submissions')
          .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('state')
          .execute()
      ).map((r) => [r.state, Number(r.n)]),
    )
    const failedSubs = await ctx.db
      .selectFrom('submissions')
      .innerJoin('teams', 'teams.id', 'submissions.team_id')
      .select([
        'submissions.id',
        'teams.name as team',
        'submissions.track',
        'submissions.phase',
        'submissions.attempts',
        'submissions.reason',
      ])
      .where('submissions.state', '=', 'failed')
      .orderBy('submissions.finished_at', 'desc')
      .orderBy('submissions.id')
      .limit(100)
      .execute()
    return page(
      c,
      'Organizer',
      orgBody({
        scoring: {
          states,
          failed: failedSubs.map((f) => ({ ...f, reason: f.reason ?? 'no reason recorded' })),
        },
        rescores: [...rescores.values()],
        judging: await judgingStates(),
        competition: ctx.competition,
        csrf: c.get('csrf'),
        teams: teams.map((t) => ({
          id: t.id,
          name: t.name,
          baseline: t.is_baseline === 1,
          anonymous: t.anonymous === 1,
          members: Number(t.members),
        })),
        released,
        qrels,
        snapshots: ctx.competition.phases.flatMap((p) => listSnapshots(ctx.dataDir, p.id)),
        ...(invite ? { invite } : {}),
        ...(notice ? { notice } : {}),
      }),
    )
  }
  const inviteLink = (c: Context<Env>, token: string): string =>
    `${new URL(c.req.url).origin}/invite/${token}`
  app.get('/org', (c) => (c.get('viewer').kind === 'organizer' ? orgPage(c) : notFound(c)))
  app.post('/org/teams', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    const f = await form(c)
    try {
      const id = await createTeam(ctx.db, f['name'] ?? '', ctx.now())
      return orgPage(c, {
        team: f['name'] ?? '',
        link: inviteLink(c, await createInvite(ctx.db, id, v.userId, ctx.now())),
      })
    } catch (e) {
      if (e instanceof AccountError) return page(c, 'Organizer', messageBody(e.message), 400)
      throw e
    }
  })
  app.post('/org/teams/:id/invites', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    const team = await ctx.db
      .selectFrom('teams')
      .select(['id', 'name'])
      .where('id', '=', c.req.param('id'))
      .executeTakeFirst()
    if (!team) return notFound(c)
    return orgPage(c, {
      team: team.name,
      link: inviteLink(c, await createInvite(ctx.db, team.id, v.userId, ctx.now())),
    })
  })
  app.post('/org/qrels', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    if (!ctx.holdsQrels) return page(c, 'Qrels refused', rejectedBody(QRELS_NOT_HERE), 403)
    let fd: FormData
    try {
      const bytes = await boundedBody(c, ctx.competition.upload.maxBytes + 256 * 1024)
      fd = await new Request('http://local/', {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': c.req.header('content-type') ?? '' },
      }).formData()
    } catch (e) {
      if (e instanceof UploadRejected)
        return page(c, 'Qrels refused', rejectedBody(e.message), e.status)
      return page(
        c,
        'Qrels refused',
        rejectedBody('the form could not be read (expected multipart/form-data with a qrels file)'),
        400,
      )
    }
    const track = findTrack(ctx.competition, String(fd.get('track') ?? ''))
    const phase = findPhase(ctx.competition, String(fd.get('phase') ?? ''))
    const blobs = fd
      .getAll('qrels')
      .filter((f) => typeof f !== 'string' && f.size > 0) as unknown as (Blob & {
      name?: string
    })[]
    if (!track || !phase || !blobs.length)
      return page(
        c,
        'Qrels refused',
        rejectedBody('a track, a phase and a qrels file are needed'),
        400,
      )
    try {
      const out = await addQrelsVersion(ctx, {
        track,
        phase,
        files: await Promise.all(
          blobs.map(async (f) => ({
            name: f.name || 'qrels.txt',
            bytes: new Uint8Array(await f.arrayBuffer()),
          })),
        ),
        note: String(fd.get('note') ?? ''),
        userId: v.userId,
      })
      await publishTopicList(ctx.db, track, phase, ctx.dataDir)
      return orgPage(
        c,
        undefined,
        `Qrels version ${out.version} of ${track.id} / ${phase.id} added; ${out.rescoring} submission(s) queued for re-scoring.`,
      )
    } catch (e) {
      if (e instanceof QrelsVersionError)
        return page(c, 'Qrels refused', rejectedBody(e.message), 400)
      throw e
    }
  })
  app.post('/org/judging/:track/:phase/:action', async (c) => {
    const v = c.get('viewer')
    const track = findTrack(ctx.competition, c.req.param('track'))
    const phase = findPhase(ctx.competition, c.req.param('phase'))
    const action = c.req.param('action')
    if (v.kind !== 'organizer' || !track?.judging || !phase) return notFound(c)
    if (action === 'pause' || action === 'resume') {
      const changed = await setJudgingPaused(
        ctx.db,
        track.id,
        phase.id,
        action === 'pause',
        v.userId,
        ctx.now(),
      )
      if (action === 'resume') ctx.kick()
      return orgPage(
        c,
        undefined,
        `Judging of ${track.id} / ${phase.id} ${action === 'pause' ? (changed ? 'paused: no new judging job starts until it is resumed' : 'was paused already') : changed ? 'resumed' : 'was not paused'}.`,
      )
    }
    if (action !== 'rejudge') return notFound(c)
    const out = await queueRejudging(ctx.db, track, phase, ctx.dataDir, ctx.now())
    ctx.kick()
    return orgPage(
      c,
      undefined,
      `Re-judging ${track.id} / ${phase.id} under scorer version ${out.version}: ${out.queued} submission(s) queued; ${out.alreadyJudged} judged under this config already (or being judged).`,
    )
  })
  app.post('/org/submissions/:id/requeue', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    const id = c.req.param('id')
    const r = await ctx.db
      .updateTable('submissions')
      .set({ state: 'queued', attempts: 0, reason: null, started_at: null, finished_at: null })
      .where('id', '=', id)
      .where('state', '=', 'failed')
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) === 0) return notFound(c)
    ctx.kick()
    return orgPage(c, undefined, `Submission ${id} queued again.`)
  })
  app.post('/org/phases/:id/release', async (c) => {
    const v = c.get('viewer')
    const phase = findPhase(ctx.competition, c.req.param('id'))
    if (v.kind !== 'organizer' || !phase || !phase.hidden) return notFound(c)
    await ctx.db
      .insertInto('releases')
      .values({ phase: phase.id, released_at: ctx.now().toISOString(), released_by: v.userId })
      .onConflict((oc) => oc.doNothing())
      .execute()
    await writeDueSnapshots(ctx)
    return c.redirect('/org', 303)
  })
  app.notFound((c) => notFound(c))
  return app
}
