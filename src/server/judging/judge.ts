/**
 * Judging one stored submission of a judged track, in the scoring worker: exactly `trecscore
 * judge run --preset reteco-2b|reteco-2c --data DATA --split S --config JUDGE_CONFIG ANSWERS
 * [--retrieval RUN]` (the library function the CLI calls, so the requests, cache keys and numbers
 * are the CLI's), with the server's judgment cache (see cache-home.ts): on SQLite one cache file
 * per judge config hash under the server's data folder; on Postgres the database's `judge_*`
 * tables. Either is shared by every submission and every worker (each request is claimed before
 * it is asked, so none is asked twice). The judgments JSONL and the JSON report are kept beside
 * the run (`judge-<hash12>/`), for the organizers.
 *
 * The endpoint is the organizer's `judge.baseUrl`; the key is read from the environment
 * variable `judge.apiKeyEnv` here and handed to the client only: the worker's other environment
 * is not passed, and neither the key nor the endpoint reaches a score, a reason or a log.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import {
  JUDGE_DIMENSIONS,
  judgeRunCommand,
  loadJudgeConfig,
  retecoJudgeItemsRoute,
  scoreRetecoRuns,
} from '../../internal.js'
import type { Track } from '../config/load.js'
import type { PhaseConfig } from '../config/schema.js'
import { type ScoreOutcome, ScoringFailure, sha256Run, TRECSCORE_VERSION } from '../scoring.js'
import { type JudgeCacheHome, openJudgeStore } from './cache-home.js'
import {
  ACCOUNTING,
  BERTSCORE,
  invalidColumn,
  METEOR,
  missingColumn,
  OVERALL,
  RETRIEVAL_PREFIX,
  ROUGE_L,
} from './columns.js'
import { generationPaths, generationSubtrack } from './upload.js'

export { judgeCacheFile } from './cache-home.js'

/** What the judge report (`judge run --report-json`) holds that a score needs. */
interface ReportJson {
  judge_config_id: string
  config_name: string
  model: string
  invalid_policy: string
  invalid_policy_text: string
  overall: number | null
  dimensions: { dimension: string; mean: number | null; invalid: number; missing: number }[]
  turns: {
    turnId: string
    domain: string | null
    values: Record<string, number | null>
    mean: number | null
  }[]
  run: {
    dimensions: { dimension: string; cacheHits: number; calls: number }[]
    tokens: { promptTokens: number; completionTokens: number }
    recordedTokens: { promptTokens: number; completionTokens: number }
    cost: number
    recordedCost: number
    currency: string
    structuredOutput: string
    models: string[]
    systemFingerprints: string[]
  }
  lexical?: { all: { rougeL: number | null; meteor: number | null } }
  bertscore?: { f1: number | null }
}

/** Remove the organizer's endpoint from a message a team may see. */
function scrub(text: string, baseUrl: string): string {
  let host = ''
  try {
    host = new URL(baseUrl).host
  } catch {
    host = ''
  }
  let out = text.split(baseUrl).join('the judge endpoint')
  if (host) out = out.split(host).join('the judge endpoint')
  return out
}

/**
 * Judge a stored submission directory (see the module comment), with the judgment cache at
 * `cache` (a data folder: its cache files).
 */
export async function judgeSubmission(
  track: Track,
  phase: PhaseConfig,
  dir: string,
  cache: JudgeCacheHome | string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ScoreOutcome> {
  const judging = track.judging
  if (!judging) throw new ScoringFailure(`track ${track.id} is not judged`)
  const loaded = loadJudgeConfig(judging.configFile)
  if (loaded.hash !== judging.configHash)
    throw new ScoringFailure(
      `the judge config of track ${track.id} changed since the server started (${judging.configHash.slice(0, 12)} → ${loaded.hash.slice(0, 12)}); an organizer restarts the server to judge under the new config`,
    )
  const s = judging.settings
  const split = track.splits![phase.id]!
  const paths = generationPaths(track, dir)
  const out = join(dirname(dir), `judge-${loaded.hash.slice(0, 12)}`)
  mkdirSync(out, { recursive: true })
  // Written under names of this run, then renamed into place: two workers judging the same
  // submission at once (a job delivered twice) never read or keep each other's half-written file.
  const tmp = `.${process.pid}-${randomUUID().slice(0, 8)}.tmp`
  const judgmentsFile = join(out, 'judgments.jsonl')
  const reportFile = join(out, 'report.json')
  const home: JudgeCacheHome = typeof cache === 'string' ? { kind: 'file', dataDir: cache } : cache
  const key = s.apiKeyEnv ? env[s.apiKeyEnv] : undefined
  let r: Awaited<ReturnType<typeof judgeRunCommand>>
  let opened: Awaited<ReturnType<typeof openJudgeStore>> = null
  try {
    opened = openJudgeStore(home, loaded.hash, { create: true })!
    r = await judgeRunCommand({
      config: judging.configFile,
      store: opened.store,
      baseUrl: s.baseUrl,
      env: key ? { TRECSCORE_JUDGE_API_KEY: key } : {},
      preset: track.preset!,
      routes: [retecoJudgeItemsRoute],
      data: track.dataDir,
      answers: paths.answers,
      ...(paths.retrieval ? { retrieval: paths.retrieval } : {}),
      split,
      out: judgmentsFile + tmp,
      reportJson: reportFile + tmp,
      format: 'json',
      force: true,
      quiet: true,
      stderr: { write: () => true },
      maxFailedShare: s.maxFailedShare,
      ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
      ...(s.requestsPerMinute !== undefined ? { requestsPerMinute: s.requestsPerMinute } : {}),
      ...(judging.bertscore ? { bertscore: judging.bertscore } : {}),
    })
  } catch (e) {
    rmSync(judgmentsFile + tmp, { force: true })
    rmSync(reportFile + tmp, { force: true })
    throw new ScoringFailure(scrub((e as Error).message, s.baseUrl))
  } finally {
    await opened?.close().catch(() => undefined)
  }
  // This run's report, read before another run's may replace it under the final name; its
  // note names the judgments file by its final name.
  const inJson = (p: string) => JSON.stringify(p).slice(1, -1)
  const text = readFileSync(reportFile + tmp, 'utf8')
    .split(inJson(judgmentsFile + tmp))
    .join(inJson(judgmentsFile))
  writeFileSync(reportFile + tmp, text)
  const rep = JSON.parse(text) as ReportJson
  renameSync(judgmentsFile + tmp, judgmentsFile)
  renameSync(reportFile + tmp, reportFile)
  if (r.failure) throw new ScoringFailure(`${scrub(r.failure, s.baseUrl)}; not charged`)
  const columns: Record<string, number | null> = { [OVERALL]: rep.overall }
  for (const d of rep.dimensions) columns[d.dimension] = d.mean
  columns[ROUGE_L] = rep.lexical?.all.rougeL ?? null
  columns[METEOR] = rep.lexical?.all.meteor ?? null
  if (judging.bertscore) columns[BERTSCORE] = rep.bertscore?.f1 ?? null
  const run = rep.run
  columns[ACCOUNTING.tokensIn] = run.tokens.promptTokens
  columns[ACCOUNTING.tokensOut] = run.tokens.completionTokens
  columns[ACCOUNTING.cost] = run.cost
  columns[ACCOUNTING.calls] = run.dimensions.reduce((n, d) => n + d.calls, 0)
  columns[ACCOUNTING.cacheHits] = run.dimensions.reduce((n, d) => n + d.cacheHits, 0)
  columns[ACCOUNTING.invalid] = rep.dimensions.reduce((n, d) => n + d.invalid, 0)
  columns[ACCOUNTING.missing] = rep.dimensions.reduce((n, d) => n + d.missing, 0)
  for (const d of JUDGE_DIMENSIONS) {
    const x = rep.dimensions.find((y) => y.dimension === d)
    columns[invalidColumn(d)] = x?.invalid ?? null
    columns[missingColumn(d)] = x?.missing ?? null
  }
  const warnings: string[] = []
  if (generationSubtrack(track) === '2c') {
    const [ret] = await scoreRetecoRuns({
      preset: 'reteco-2c',
      data: track.dataDir,
      split,
      runs: [paths.retrieval!],
    })
    if (!ret || ret.errors.length)
      throw new ScoringFailure(
        `the retrieval run could not be scored: ${(ret?.errors ?? ['no report']).slice(0, 5).join('; ')}`
          .split(dir)
          .join('RUN'),
      )
    columns[`${RETRIEVAL_PREFIX}${ret.headline.measure}`] = ret.headline.value
    for (const [k, v] of Object.entries(ret.diagnostics))
      if (k !== 'n') columns[`${RETRIEVAL_PREFIX}${k}`] = v
    for (const w of ret.warnings) warnings.push(`retrieval: ${w.split(dir).join('RUN')}`)
  }
  const perQuery = rep.turns.map((t) => ({
    query: `${t.domain ?? ''}/${t.turnId}`,
    values: { [OVERALL]: t.mean, ...t.values },
  }))
  const counts: Record<string, number> = {
    targetTurns: rep.turns.length,
    requests: columns[ACCOUNTING.calls] as number,
    cacheHits: columns[ACCOUNTING.cacheHits] as number,
  }
  const retrieval = paths.retrieval ? ' --retrieval RUN' : ''
  return {
    primary: columns[track.primary] ?? null,
    columns,
    perQuery,
    notes: { warnings, counts },
    provenance: {
      trecscoreVersion: TRECSCORE_VERSION,
      preset: track.preset!,
      track: track.id,
      phase: phase.id,
      qrelsSha256: 'not used (judged track: the target turns come from the data folder)',
      runSha256: paths.retrieval
        ? `${await sha256Run(paths.answers)}+${await sha256Run(paths.retrieval)}`
        : await sha256Run(paths.answers),
      conventions: [
        `judge config: ${rep.config_name} (judge_config_id ${rep.judge_config_id})`,
        `judge model: ${rep.model}; served by: ${run.models.join(', ') || 'no request made'}${run.systemFingerprints.length ? ` (system fingerprints ${run.systemFingerprints.join(', ')})` : ''}`,
        `invalid policy: ${rep.invalid_policy} (${rep.invalid_policy_text})`,
        `structured output: ${run.structuredOutput}`,
        `this run: ${run.tokens.promptTokens} tokens in, ${run.tokens.completionTokens} out, cost ${run.cost} ${run.currency}; all its judgments when made (cache hits included): ${run.recordedTokens.promptTokens} in, ${run.recordedTokens.completionTokens} out, cost ${run.recordedCost} ${run.currency}`,
      ],
      command: `trecscore judge run --preset ${track.preset} --data DATA --split ${split} --config JUDGE_CONFIG --base-url ENDPOINT${retrieval} ANSWERS -f json --report-json REPORT`,
    },
  }
}
