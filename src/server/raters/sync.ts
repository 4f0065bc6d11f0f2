/**
 * Filling the judged-items table from judged submissions: for each scored submission of a
 * judged track (RETECO 2b/2c with a `judge` block) that has no judged items under the track's
 * judge config yet, the items the judge saw are rebuilt from the stored answers (and retrieval
 * run) exactly as `judge run --preset` builds them, and paired with the judgments JSONL that
 * judging kept beside the run (`judge-<hash12>/judgments.jsonl`). Run when the organizer opens
 * the spot-validation pages, so it works whichever worker (supervisor or queue) judged, and
 * whichever store holds the run (see storage/run-store.ts: the job kept its `judge-…/` there).
 */
import { dirname, join } from 'node:path'
import {
  type JudgeItem,
  type Judgment,
  readJudgments,
  resolveJudgeItems,
  retecoJudgeItemsRoute,
} from '../../internal.js'
import type { ServerContext } from '../context.js'
import { generationPaths } from '../judging/upload.js'
import { recordJudgedItems } from './store.js'

/** Record the judged items of every judged submission not recorded yet; returns how many items. */
export async function syncJudgedItems(ctx: ServerContext): Promise<number> {
  let added = 0
  for (const track of ctx.competition.tracks) {
    const judging = track.judging
    if (!judging || !track.preset) continue
    const rows = await ctx.db
      .selectFrom('submissions')
      .select(['id', 'phase', 'file', 'run_sha256'])
      .where('track', '=', track.id)
      .where('state', '=', 'scored')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('judged_items')
              .select('judged_items.id')
              .whereRef('judged_items.submission_id', '=', 'submissions.id')
              .where('judged_items.config_hash', '=', judging.configHash),
          ),
        ),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute()
    for (const r of rows) {
      const split = track.splits?.[r.phase]
      const judgedPath = `judge-${judging.configHash.slice(0, 12)}/judgments.jsonl`
      if (!split) continue
      const store = ctx.runs.holding(r)
      if (!(await store.files(r.id)).some((f) => f.path === judgedPath)) continue
      let items: JudgeItem[]
      let judgments: Judgment[]
      let opened: Awaited<ReturnType<typeof store.open>> | null = null
      try {
        opened = await store.open(r, ctx.tmpDir)
        const dir = opened.path
        const paths = generationPaths(track, dir)
        items = (
          await resolveJudgeItems({
            preset: track.preset,
            routes: [retecoJudgeItemsRoute],
            data: track.dataDir,
            answers: paths.answers,
            ...(paths.retrieval ? { retrieval: paths.retrieval } : {}),
            split,
          })
        ).items
        judgments = (await readJudgments(join(dirname(dir), judgedPath))).filter(
          (j) => j.configHash === judging.configHash,
        )
      } catch (e) {
        // A submission whose stored files cannot be read again stays out of the pool, said once per page view.
        process.stderr.write(
          `trecscore serve: spot validation: submission ${r.id} left out of the pool: ${(e as Error).message.split('\n')[0]}\n`,
        )
        continue
      } finally {
        await opened?.release().catch(() => undefined)
      }
      added += await recordJudgedItems(ctx.db, {
        track: track.id,
        phase: r.phase,
        submissionId: r.id,
        configHash: judging.configHash,
        items,
        judgments,
        now: ctx.now(),
      })
    }
  }
  return added
}
