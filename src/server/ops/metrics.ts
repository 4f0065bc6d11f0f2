/**
 * `GET /metrics`: Prometheus text exposition format 0.0.4, computed from the database on each
 * scrape (so every web process answers the same, however many there are):
 *
 * - `trecscore_submissions{track,phase,state}` (gauge): submissions by state — the queue depth is
 *   `state="queued"` plus `state="scoring"`;
 * - `trecscore_rescores{track,phase,state}` (gauge): re-scoring jobs by state;
 * - `trecscore_submissions_total{track,phase}` (counter): submissions stored, baselines included;
 * - `trecscore_failures_total{kind}` (counter): failed submissions (`kind="score"`) and failed
 *   re-scoring jobs (`kind="rescore"`);
 * - `trecscore_scores_total` (counter): score rows written (first scores and re-scores);
 * - `trecscore_job_duration_seconds{track}` (histogram): `finished_at − started_at` of every
 *   finished (scored or failed) submission.
 *
 * Labels are only config ids (track, phase) and fixed words: no team, run name or score, so
 * nothing about anonymous teams or hidden phases leaks.
 *
 * Access: from a loopback address only, unless the server has a metrics token
 * (`TRECSCORE_METRICS_TOKEN`); then from anywhere with `Authorization: Bearer TOKEN` (and
 * loopback without it still works).
 */
import { timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import type { ServerContext } from '../context.js'

/** Histogram buckets (seconds) of job durations. */
export const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600] as const

/** A label value escaped as the format says: backslash, double quote and newline. */
export function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

function labels(l: Readonly<Record<string, string>>): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${escapeLabel(v)}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

/** Builds an exposition: one `# HELP` and `# TYPE` per family, then its samples. */
class Exposition {
  private readonly lines: string[] = []

  family(
    name: string,
    type: 'gauge' | 'counter' | 'histogram',
    help: string,
    samples: readonly {
      readonly suffix?: string
      readonly labels?: Record<string, string>
      readonly value: number
    }[],
  ): void {
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`)
    this.lines.push(`# TYPE ${name} ${type}`)
    for (const s of samples)
      this.lines.push(`${name}${s.suffix ?? ''}${labels(s.labels ?? {})} ${formatValue(s.value)}`)
  }

  text(): string {
    return `${this.lines.join('\n')}\n`
  }
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(v)
}

const STATES = ['queued', 'scoring', 'scored', 'failed'] as const
const RESCORE_STATES = ['queued', 'scoring', 'done', 'failed'] as const

/** The metrics text of a server's database. */
export async function metricsText(ctx: ServerContext): Promise<string> {
  const { db, competition } = ctx
  const byState = await db
    .selectFrom('submissions')
    .select(['track', 'phase', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['track', 'phase', 'state'])
    .execute()
  const rescores = await db
    .selectFrom('rescores')
    .innerJoin('submissions', 'submissions.id', 'rescores.submission_id')
    .select([
      'submissions.track as track',
      'submissions.phase as phase',
      'rescores.state as state',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['submissions.track', 'submissions.phase', 'rescores.state'])
    .execute()
  const scores = await db
    .selectFrom('scores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst()
  const finished = await db
    .selectFrom('submissions')
    .select(['track', 'started_at', 'finished_at'])
    .where('state', 'in', ['scored', 'failed'])
    .where('started_at', 'is not', null)
    .where('finished_at', 'is not', null)
    .execute()

  // Every configured track × phase × state, zeros included (a series must not vanish at 0).
  const count = (
    rows: readonly { track: string; phase: string; state: string; n: number | string | bigint }[],
    track: string,
    phase: string,
    state: string,
  ): number =>
    rows
      .filter((r) => r.track === track && r.phase === phase && r.state === state)
      .reduce((a, r) => a + Number(r.n), 0)
  const pairs = competition.tracks.flatMap((t) =>
    competition.phases.map((p) => ({ track: t.id, phase: p.id })),
  )
  // Rows of tracks or phases since removed from the config are counted too.
  for (const r of byState)
    if (!pairs.some((p) => p.track === r.track && p.phase === r.phase))
      pairs.push({ track: r.track, phase: r.phase })

  const out = new Exposition()
  out.family(
    'trecscore_submissions',
    'gauge',
    'Submissions by state (queue depth: queued plus scoring).',
    pairs.flatMap((p) =>
      STATES.map((state) => ({
        labels: { ...p, state },
        value: count(byState, p.track, p.phase, state),
      })),
    ),
  )
  out.family(
    'trecscore_rescores',
    'gauge',
    'Re-scoring jobs (new qrels versions) by state.',
    pairs.flatMap((p) =>
      RESCORE_STATES.map((state) => ({
        labels: { ...p, state },
        value: count(rescores, p.track, p.phase, state),
      })),
    ),
  )
  out.family(
    'trecscore_submissions_total',
    'counter',
    'Submissions stored, per track and phase (baselines included).',
    pairs.map((p) => ({
      labels: p,
      value: STATES.reduce((a, s) => a + count(byState, p.track, p.phase, s), 0),
    })),
  )
  const sum = (rows: readonly { state: string; n: number | string | bigint }[], state: string) =>
    rows.filter((r) => r.state === state).reduce((a, r) => a + Number(r.n), 0)
  out.family('trecscore_failures_total', 'counter', 'Failed scoring jobs.', [
    { labels: { kind: 'score' }, value: sum(byState, 'failed') },
    { labels: { kind: 'rescore' }, value: sum(rescores, 'failed') },
  ])
  out.family('trecscore_scores_total', 'counter', 'Score rows written (scores and re-scores).', [
    { value: Number(scores?.n ?? 0) },
  ])
  const tracks = [
    ...new Set([...competition.tracks.map((t) => t.id), ...finished.map((f) => f.track)]),
  ]
  out.family(
    'trecscore_job_duration_seconds',
    'histogram',
    'Scoring time of finished submissions (finished_at minus started_at).',
    tracks.flatMap((track) => {
      const secs = finished
        .filter((f) => f.track === track)
        .map((f) => Math.max(0, (Date.parse(f.finished_at!) - Date.parse(f.started_at!)) / 1000))
      return [
        ...[...DURATION_BUCKETS, Number.POSITIVE_INFINITY].map((le) => ({
          suffix: '_bucket',
          labels: { track, le: formatValue(le) },
          value: secs.filter((s) => s <= le).length,
        })),
        { suffix: '_sum', labels: { track }, value: secs.reduce((a, s) => a + s, 0) },
        { suffix: '_count', labels: { track }, value: secs.length },
      ]
    }),
  )
  return out.text()
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1', 'local'])

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The handler of `GET /metrics`; `ip` gives the client's address ('local' in-process). */
export function metrics(
  ctx: ServerContext,
  token: string | undefined,
  ip: (c: Context) => string,
): (c: Context) => Promise<Response> {
  return async (c) => {
    const m = /^Bearer\s+(\S+)$/.exec(c.req.header('authorization') ?? '')
    const allowed =
      (token !== undefined && token !== '' && m !== null && same(m[1]!, token)) ||
      LOOPBACK.has(ip(c))
    if (!allowed)
      return c.text(
        token
          ? 'forbidden: /metrics needs Authorization: Bearer <metrics token>\n'
          : 'forbidden: /metrics answers loopback only (set TRECSCORE_METRICS_TOKEN to allow others)\n',
        403,
      )
    return c.body(await metricsText(ctx), 200, {
      'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
    })
  }
}
