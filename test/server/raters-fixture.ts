/**
 * Judged items for the spot-validation tests, written the way judging on the platform writes
 * them (`recordJudgedItems`): two submissions of one team, two domains, two conversations of
 * three turns each (24 items), judged under the shipped judge config with fixed scores (one
 * invalid judgment), and a hostile tail on every answer that must render as text.
 */
import {
  defaultJudgeConfigPath,
  JUDGE_DIMENSIONS,
  type JudgeItem,
  type Judgment,
  loadJudgeConfig,
} from '../../src/internal.js'
import type { Db } from '../../src/server/db/database.js'
import { recordJudgedItems } from '../../src/server/raters/store.js'

export const HOSTILE_ANSWER = '<script>window.__pwned=1</script>The answer & more'
export const JUDGE_SCORE_MARKER = 'RATIONALE-SECRET'

/** Fill the judged-items table; returns the submission ids, the team name and the config hash. */
export async function fillJudgedItems(
  db: Db,
  o: { track: string; phase: string; now: Date },
): Promise<{ submissions: string[]; team: string; configHash: string }> {
  const configHash = loadJudgeConfig(defaultJudgeConfigPath()).hash
  const team = 'Hidden Team Name'
  await db
    .insertInto('teams')
    .values({ id: 'team-judged', name: team, is_baseline: 0, created_at: o.now.toISOString() })
    .execute()
  const submissions = ['subAAAA', 'subBBBB']
  for (const [k, id] of submissions.entries()) {
    await db
      .insertInto('submissions')
      .values({
        id,
        team_id: 'team-judged',
        user_id: null,
        track: o.track,
        phase: o.phase,
        state: 'scored',
        reason: null,
        charged: 1,
        original_name: `answers-${k}.jsonl`,
        file: `runs/${id}`,
        run_sha256: '0'.repeat(64),
        bytes: 1,
        metadata: '{}',
        attempts: 1,
        created_at: o.now.toISOString(),
        started_at: null,
        finished_at: null,
      })
      .execute()
    const items: JudgeItem[] = []
    const judgments: Judgment[] = []
    let n = 0
    for (const domain of ['biomedical', 'legal'])
      for (const conv of ['c1', 'c2'])
        for (let t = 1; t <= 3; t++) {
          const turnId = `${conv}_turn_${t}`
          const history = []
          for (let u = 1; u < t; u++)
            history.push(
              { role: 'user' as const, content: `${domain} question ${u} of ${conv}` },
              { role: 'assistant' as const, content: `earlier answer ${u}` },
            )
          items.push({
            turnId,
            conversationId: conv,
            domain,
            turnDepth: t,
            history,
            question: `What about ${domain} ${conv} turn ${t}?`,
            answer: `Answer ${k} to ${domain} ${conv} turn ${t}. ${HOSTILE_ANSWER}`,
            passages: [
              { id: `${domain}-p${t}`, text: `Passage about ${domain} turn ${t}.` },
              { id: null, text: 'A second passage.' },
            ],
            reference: null,
          })
          for (const [di, dimension] of JUDGE_DIMENSIONS.entries()) {
            const invalid = k === 1 && n === 3 && dimension === 'coherence'
            judgments.push({
              turnId,
              conversationId: conv,
              domain,
              turnDepth: t,
              dimension,
              score: invalid ? null : 1 + ((n * 3 + di * 2 + k) % 5),
              status: invalid ? 'invalid' : 'ok',
              rationale: `${JUDGE_SCORE_MARKER} ${n}`,
              configHash,
              attempts: 1,
              reason: invalid ? 'not one JSON object' : null,
              unanswered: false,
            })
          }
          n++
        }
    await recordJudgedItems(db, {
      track: o.track,
      phase: o.phase,
      submissionId: id,
      configHash,
      items,
      judgments,
      now: o.now,
    })
  }
  return { submissions, team, configHash }
}

/** The score a test rater gives: close to the judge's, not equal, different per rater. */
export function raterScore(rater: number, item: number, dim: number): number {
  return 1 + ((item * 2 + dim * 3 + rater) % 5)
}
