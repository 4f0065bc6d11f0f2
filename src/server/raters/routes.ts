/**
 * The spot-validation routes: rater invites and the rating pages (`/rate…`, raters only), and
 * the organizer's pages and downloads (`/org/validation…`, organizers only). Any other viewer
 * gets the same 404 as an unknown id. {@link confineRaters} keeps a rater on the rating pages:
 * every other route (boards, submissions, the API) is a 404 for a rater.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { setCookie } from 'hono/cookie'
import {
  defaultJudgeConfigPath,
  depthBucket,
  JUDGE_DIMENSIONS,
  type JudgeConfig,
  JudgeInputError,
  loadJudgeConfig,
  parseJudgeConfig,
} from '../../internal.js'
import { AccountError, createSession } from '../auth/accounts.js'
import { findPhase, findTrack, type Track } from '../config/load.js'
import type { ServerContext } from '../context.js'
import { clientIp, cookieOptions, type Env, SESSION_COOKIE } from '../routes/middleware.js'
import type { SafeHtml } from '../web/html.js'
import { layout, messageBody } from '../web/pages.js'
import { acceptRaterInvite, createRaterInvite, listRaters, raterInviteValid } from './accounts.js'
import {
  disclosureBody,
  rateBody,
  rateDoneBody,
  raterInviteBody,
  sampleBody,
  validationBody,
} from './pages.js'
import { disclosure, FILES, sampleResults } from './results.js'
import { designProblem } from './sample.js'
import {
  poolOf,
  raterAssignment,
  raterQueue,
  sampleData,
  saveRating,
  skipAssignment,
  storeSample,
} from './store.js'
import { syncJudgedItems } from './sync.js'

const SESSION_SECONDS = 12 * 3600

/** Paths a rater may open (everything else is a 404 for a rater). */
function raterMayOpen(path: string): boolean {
  return (
    path === '/rate' ||
    path.startsWith('/rate/') ||
    path === '/logout' ||
    path === '/login' ||
    path.startsWith('/static/')
  )
}

/** Keep raters on the rating pages: `/` sends them to `/rate`, any other page is a 404. */
export function confineRaters(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (c.get('viewer').kind !== 'rater' || raterMayOpen(c.req.path)) return next()
    if (c.req.path === '/' && c.req.method === 'GET') return c.redirect('/rate', 303)
    if (c.req.path.startsWith('/api/')) return c.json({ error: 'not found' }, 404)
    return c.html(
      layout({
        title: 'Not found',
        competition: ctx.competition,
        viewer: c.get('viewer'),
        csrf: c.get('csrf'),
        now: ctx.now(),
        body: messageBody('There is nothing here, or it is not yours to see.'),
      }),
      404,
    )
  }
}

/** The judge config of a track: its `judge.config` when it has one, else the shipped default. */
export function trackJudgeConfigPath(track: Track): string {
  return track.judging?.configFile ?? defaultJudgeConfigPath()
}

function frozenConfig(json: string): JudgeConfig {
  const r = parseJudgeConfig(JSON.parse(json) as unknown)
  if (!r.ok) throw new Error('a stored judge config does not parse')
  return r.config
}

/** The spot-validation routes. */
export function raterRoutes(ctx: ServerContext): Hono<Env> {
  const app = new Hono<Env>()
  const page = (
    c: Context<Env>,
    title: string,
    body: SafeHtml,
    status: 200 | 400 | 404 | 429 = 200,
    script?: string,
  ): Response =>
    c.html(
      layout({
        title,
        competition: ctx.competition,
        viewer: c.get('viewer'),
        csrf: c.get('csrf'),
        now: ctx.now(),
        body,
        ...(script ? { script } : {}),
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

  // Rater invites.
  app.get('/rater-invite/:token', async (c) => {
    const token = c.req.param('token')
    if (!(await raterInviteValid(ctx.db, token)))
      return page(
        c,
        'Invite',
        messageBody('This invite link is not valid or was used already.'),
        404,
      )
    return page(c, 'Become a rater', raterInviteBody(`/rater-invite/${token}`, c.get('csrf')))
  })
  app.post('/rater-invite/:token', async (c) => {
    if (
      !(await ctx.limiter.allow(`login:${clientIp(c)}`, ctx.competition.rateLimits.loginPerMinute))
    )
      return page(c, 'Become a rater', messageBody('Too many attempts; wait a minute.'), 429)
    const token = c.req.param('token')
    const f = await form(c)
    try {
      const userId = await acceptRaterInvite(
        ctx.db,
        token,
        f['name'] ?? '',
        f['password'] ?? '',
        ctx.now(),
      )
      const s = await createSession(ctx.db, userId, ctx.now())
      setCookie(c, SESSION_COOKIE, s.cookie, cookieOptions(ctx, SESSION_SECONDS))
      return c.redirect('/rate', 303)
    } catch (e) {
      if (e instanceof AccountError)
        return page(
          c,
          'Become a rater',
          raterInviteBody(`/rater-invite/${token}`, c.get('csrf'), e.message),
          400,
        )
      throw e
    }
  })

  // The rating pages (raters only; an assignment of another rater is a 404).
  app.get('/rate', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'rater') return notFound(c)
    const q = await raterQueue(ctx.db, v.userId)
    const next = q.find((e) => !e.done)
    if (next) return c.redirect(`/rate/${encodeURIComponent(next.id)}`, 303)
    return page(c, 'Rate', rateDoneBody(q.length, q[0]?.id ?? null))
  })
  app.get('/rate/:id', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'rater') return notFound(c)
    const a = await raterAssignment(ctx.db, v.userId, c.req.param('id'))
    if (!a) return notFound(c)
    const q = await raterQueue(ctx.db, v.userId)
    const i = q.findIndex((e) => e.id === a.id)
    return page(
      c,
      'Rate',
      rateBody({
        assignmentId: a.id,
        item: a.item,
        config: frozenConfig(a.configJson),
        scores: a.scores,
        skipReason: a.skipReason,
        index: i,
        total: q.length,
        done: q.filter((e) => e.done).length,
        prev: q[i - 1]?.id ?? null,
        next: q[i + 1]?.id ?? null,
        csrf: c.get('csrf'),
      }),
      200,
      'rate.js',
    )
  })
  const validScore = (dim: unknown, score: unknown): score is string =>
    typeof dim === 'string' &&
    (JUDGE_DIMENSIONS as readonly string[]).includes(dim) &&
    typeof score === 'string' &&
    /^[1-5]$/.test(score)
  // Autosave: one choice (the page's script posts each choice at once).
  app.post('/rate/:id/score', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'rater') return c.json({ error: 'not found' }, 404)
    const f = await form(c)
    if (!validScore(f['dimension'], f['score']))
      return c.json(
        { error: `expected a dimension (${JUDGE_DIMENSIONS.join(', ')}) and a score 1-5` },
        400,
      )
    const id = c.req.param('id')
    if (!(await saveRating(ctx.db, v.userId, id, f['dimension']!, Number(f['score']), ctx.now())))
      return c.json({ error: 'not found' }, 404)
    const q = await raterQueue(ctx.db, v.userId)
    const me = q.find((e) => e.id === id)!
    return c.json({ saved: true, rated: me.rated, done: q.filter((e) => e.done).length })
  })
  // Without the script: the form posts every chosen dimension at once.
  app.post('/rate/:id', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'rater') return notFound(c)
    const id = c.req.param('id')
    if (!(await raterAssignment(ctx.db, v.userId, id))) return notFound(c)
    const f = await form(c)
    for (const d of JUDGE_DIMENSIONS)
      if (validScore(d, f[d])) await saveRating(ctx.db, v.userId, id, d, Number(f[d]), ctx.now())
    return c.redirect('/rate', 303)
  })
  app.post('/rate/:id/skip', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'rater') return notFound(c)
    const reason = ((await form(c))['reason'] ?? '').trim()
    if (reason === '' || reason.length > 500 || reason.includes('\u0000'))
      return page(c, 'Rate', messageBody('A skip needs a reason (at most 500 characters).'), 400)
    if (!(await skipAssignment(ctx.db, v.userId, c.req.param('id'), reason, ctx.now())))
      return notFound(c)
    return c.redirect('/rate', 303)
  })

  // Organizer pages.
  const validationPage = async (
    c: Context<Env>,
    extra: { invite?: string; notice?: string } = {},
    status: 200 | 400 = 200,
  ): Promise<Response> => {
    await syncJudgedItems(ctx)
    const raters = await listRaters(ctx.db)
    const progress = new Map<string, { assigned: number; done: number }>()
    for (const r of raters) {
      const q = await raterQueue(ctx.db, r.id)
      progress.set(r.id, { assigned: q.length, done: q.filter((e) => e.done).length })
    }
    const pools = await ctx.db
      .selectFrom('judged_items')
      .select((eb) => ['track', 'phase', 'config_hash', eb.fn.countAll<number>().as('n')])
      .groupBy(['track', 'phase', 'config_hash'])
      .orderBy('track')
      .orderBy('phase')
      .orderBy('config_hash')
      .execute()
    const samples = await ctx.db
      .selectFrom('rating_samples')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute()
    const sampleRows = []
    for (const s of samples) {
      const d = (await sampleData(ctx.db, s.id))!
      sampleRows.push({
        id: s.id,
        track: s.track,
        phase: s.phase,
        size: s.size,
        seed: s.seed,
        doubleShare: s.double_share,
        createdAt: s.created_at,
        assignments: d.assignments.length,
        done: d.assignments.filter((a) => a.skip_reason !== null || a.scores.length === 5).length,
      })
    }
    return page(
      c,
      'Spot validation',
      validationBody({
        competition: ctx.competition,
        csrf: c.get('csrf'),
        raters: raters.map((r) => ({ ...r, ...progress.get(r.id)! })),
        pools: pools.map((p) => ({
          track: p.track,
          phase: p.phase,
          configHash: p.config_hash,
          items: Number(p.n),
        })),
        samples: sampleRows,
        ...extra,
      }),
      status,
    )
  }
  app.get('/org/validation', (c) =>
    c.get('viewer').kind === 'organizer' ? validationPage(c) : notFound(c),
  )
  app.post('/org/validation/raters', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    const token = await createRaterInvite(ctx.db, v.userId, ctx.now())
    return validationPage(c, { invite: `${new URL(c.req.url).origin}/rater-invite/${token}` })
  })
  app.post('/org/validation/samples', async (c) => {
    const v = c.get('viewer')
    if (v.kind !== 'organizer') return notFound(c)
    const f = await form(c)
    const track = findTrack(ctx.competition, f['track'] ?? '')
    const phase = findPhase(ctx.competition, f['phase'] ?? '')
    if (!track || !phase) return validationPage(c, { notice: 'Choose a track and a phase.' }, 400)
    const num = (k: string): number => (/^\s*[0-9.]+\s*$/.test(f[k] ?? '') ? Number(f[k]) : NaN)
    let loaded: ReturnType<typeof loadJudgeConfig>
    try {
      loaded = loadJudgeConfig(trackJudgeConfigPath(track))
    } catch (e) {
      if (e instanceof JudgeInputError) return validationPage(c, { notice: e.message }, 400)
      throw e
    }
    const design = {
      size: num('size'),
      seed: num('seed'),
      doubleShare: num('doubleShare'),
      raters: (await listRaters(ctx.db)).map((r) => r.id),
    }
    await syncJudgedItems(ctx)
    const pool = await poolOf(ctx.db, track.id, phase.id, loaded.hash)
    const problem = designProblem(design, pool.length)
    if (problem)
      return validationPage(
        c,
        {
          notice: `No sample drawn for ${track.id} / ${phase.id} (judge config ${loaded.hash.slice(0, 12)}): ${problem}.`,
        },
        400,
      )
    const { id } = await storeSample(ctx.db, {
      track: track.id,
      phase: phase.id,
      size: design.size,
      seed: design.seed,
      doubleShare: design.doubleShare,
      configHash: loaded.hash,
      configJson: JSON.stringify(loaded.raw),
      userId: v.userId,
      now: ctx.now(),
    })
    return c.redirect(`/org/validation/samples/${encodeURIComponent(id)}`, 303)
  })
  const organizerSample = async (c: Context<Env>) => {
    if (c.get('viewer').kind !== 'organizer') return null
    const d = await sampleData(ctx.db, c.req.param('id') ?? '')
    return d ? { d, results: sampleResults(d) } : null
  }
  app.get('/org/validation/samples/:id', async (c) => {
    const s = await organizerSample(c)
    if (!s) return notFound(c)
    const { d, results } = s
    const pool = await poolOf(ctx.db, d.sample.track, d.sample.phase, d.sample.config_hash)
    const key = (domain: string | null, depth: number | null, sub: string) =>
      JSON.stringify([domain ?? '', depthBucket(depth), sub])
    const poolCount = new Map<string, number>()
    for (const p of pool) {
      const k = key(p.domain, p.turn_depth, p.submission_id)
      poolCount.set(k, (poolCount.get(k) ?? 0) + 1)
    }
    const strata = new Map<
      string,
      { domain: string | null; depth: string; submission: string; drawn: number; pool: number }
    >()
    for (const a of d.assignments) {
      if (a.slot !== 1) continue
      const k = key(a.domain, a.turn_depth, a.submission_id)
      const st = strata.get(k) ?? {
        domain: a.domain,
        depth: depthBucket(a.turn_depth),
        submission: a.submission_id,
        drawn: 0,
        pool: poolCount.get(k) ?? 0,
      }
      st.drawn++
      strata.set(k, st)
    }
    return page(
      c,
      `Spot-validation sample ${d.sample.id}`,
      sampleBody({
        d,
        model: frozenConfig(d.sample.config_json).model,
        strata: [...strata.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)).map((e) => e[1]),
        judgeHuman: results.judgeHuman,
        humanHuman: results.humanHuman,
      }),
    )
  })
  app.get('/org/validation/samples/:id/disclosure', async (c) => {
    const s = await organizerSample(c)
    if (!s) return notFound(c)
    const base = `/org/validation/samples/${encodeURIComponent(s.d.sample.id)}`
    return page(
      c,
      `Disclosure report of sample ${s.d.sample.id}`,
      disclosureBody(base, disclosure(s.d, s.results).markdown),
    )
  })
  const download = (body: string, name: string, type: string, c: Context<Env>): Response =>
    c.body(body, 200, {
      'content-type': `${type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${name}"`,
    })
  app.get('/org/validation/samples/:id/:file', async (c) => {
    const s = await organizerSample(c)
    if (!s) return notFound(c)
    const f = s.results.files
    switch (c.req.param('file')) {
      case FILES.humanLabels:
        return download(f.humanLabels, FILES.humanLabels, 'application/jsonl', c)
      case FILES.judgments:
        return download(f.judgments, FILES.judgments, 'application/jsonl', c)
      case FILES.humanA:
        return download(f.humanA, FILES.humanA, 'application/jsonl', c)
      case FILES.humanB:
        return download(f.humanB, FILES.humanB, 'application/jsonl', c)
      case FILES.config:
        return download(
          `${JSON.stringify(JSON.parse(s.d.sample.config_json), null, 2)}\n`,
          FILES.config,
          'application/json',
          c,
        )
      case FILES.disclosureMd:
        return download(disclosure(s.d, s.results).markdown, FILES.disclosureMd, 'text/markdown', c)
      case FILES.disclosureJson:
        return download(
          disclosure(s.d, s.results).json,
          FILES.disclosureJson,
          'application/json',
          c,
        )
      default:
        return notFound(c)
    }
  })
  return app
}
