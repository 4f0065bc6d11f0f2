/**
 * What the judged-track server tests share: the example RETECO pilot data and answers
 * (examples/judge), and a judged track's config judged by a scripted mock judge.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { answerOf, dimOf } from '../generation/judge/server.js'
import { ROOT } from './helpers.js'

/** examples/judge: the RETECO pilot release (`recor`), answers and a retrieval run. */
export const JUDGE_EXAMPLES = join(ROOT, 'examples', 'judge')

/** The environment variable the test tracks read the judge key from. */
export const JUDGE_KEY_ENV = 'TRECSCORE_TEST_JUDGE_KEY'

/** The files of a folder by name, as an upload sends them. */
export function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]))
}

/** The example answers (2b) and retrieval run (2c). */
export const EXAMPLE_ANSWERS = filesOf(join(JUDGE_EXAMPLES, 'answers'))
export const EXAMPLE_RUN = filesOf(join(JUDGE_EXAMPLES, 'run'))

/**
 * A judged track on the pilot data (both phases on the pilot split), judged by the mock at
 * `judgeUrl` with no rate limit; `judge` adds to or overrides the judge block.
 */
export function judgedTrack(
  id: string,
  preset: 'reteco-2b' | 'reteco-2c',
  judgeUrl: string,
  judge: Record<string, unknown> = {},
  title = `Generation ${id}`,
) {
  return {
    id,
    title,
    preset,
    data: join(JUDGE_EXAMPLES, 'recor'),
    splits: { dev: 'pilot', test: 'pilot' },
    primary: 'overall',
    judge: { baseUrl: judgeUrl, apiKeyEnv: JUDGE_KEY_ENV, requestsPerMinute: 0, ...judge },
  }
}

/**
 * A deterministic judge for the mock: the score from the request's hash, and the eggshell
 * answer's coherence out of range (one invalid judgment).
 */
export function scriptedJudge(r: { hash: string; user: string }) {
  if (dimOf(r.user) === 'coherence' && answerOf(r.user).includes('ggshell'))
    return { kind: 'score' as const, score: 9 }
  return { kind: 'score' as const, score: (Number.parseInt(r.hash.slice(0, 2), 16) % 5) + 1 }
}
