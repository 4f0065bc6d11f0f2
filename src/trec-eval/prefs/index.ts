/**
 * The `-R prefs`, `-R qrels_prefs` and `-R qrels_jg` relevance formats of the trec_eval drop-in:
 * read the file (trec_eval's messages on bad input) and prepare, per query, what the preference
 * and judgment-group measures read.
 */
import type { Conventions } from '../../conventions/conventions.js'
import { formatIssue } from '../../errors/format-issue.js'
import type { RunQuery } from '../../model/types.js'
import { GradeArena } from '../../rank/grade-arena.js'
import type { JudgedRanking } from '../../rank/judged-ranking.js'
import { prepareQuery } from '../../rank/prepare.js'
import { prepareFailureMessage } from '../messages.js'
import type { Prepared, RelInfo, TrecEvalIO } from '../types.js'
import { readWholeFile, reportMalformed } from './field-lines.js'
import { formPrefCounts, type PrefCounts } from './pref-counts.js'
import { type PrefsFormat, parsePrefs } from './prefs-file.js'
import { parseQrelsJg } from './qrels-jg-file.js'

/**
 * Read a `prefs` or `qrels_prefs` file. On bad input prints trec_eval's message and gives null
 * (the caller adds "Quit in file").
 */
export async function readPrefsRelInfo(
  file: string,
  format: PrefsFormat,
  conv: Conventions,
  io: TrecEvalIO,
): Promise<RelInfo | null> {
  // trec_eval names get_prefs for an unreadable file of either format.
  const bytes = await readWholeFile(file, 'trec_eval.get_prefs', 'prefs', io)
  if (!bytes) return null
  const parsed = parsePrefs(bytes, { file, format, comments: conv.comments })
  if (!parsed.ok) {
    reportMalformed(
      format === 'prefs' ? 'trec_eval.get_prefs' : 'trec_eval.get_qrels_prefs',
      parsed,
      io,
    )
    return null
  }
  const prefs = parsed.value
  return {
    queryIds: [...prefs.keys()].sort(),
    has: (qid) => prefs.has(qid),
    inputs(run) {
      let counts: Prepared<PrefCounts> | null = null
      return { prefs: () => (counts ??= formPrefCounts(prefs.get(run.queryId)!, run, conv.depth)) }
    },
  }
}

/**
 * Read a `qrels_jg` file. On bad input prints trec_eval's message and gives null (the caller
 * adds "Quit in file").
 */
export async function readQrelsJgRelInfo(
  file: string,
  conv: Conventions,
  io: TrecEvalIO,
  runFile: string,
): Promise<RelInfo | null> {
  const bytes = await readWholeFile(file, 'trec_eval.get_qrels_jg', 'qrels', io)
  if (!bytes) return null
  const parsed = parseQrelsJg(bytes, { file, comments: conv.comments })
  if (!parsed.ok) {
    if ('duplicateDoc' in parsed)
      io.err(
        `trec_eval.get_qrels: duplicate docs ${parsed.duplicateDoc}\ntrecscore: ${formatIssue(parsed.issue)}\n`,
      )
    else reportMalformed('trec_eval.get_qrels_jg', parsed, io)
    return null
  }
  const byQuery = parsed.value
  const grades = new GradeArena()
  const prepare = (run: RunQuery): Prepared<readonly JudgedRanking[]> => {
    const rankings: JudgedRanking[] = []
    for (const group of byQuery.get(run.queryId)!) {
      // Unlike a qrels query, a group with no judgment >= 0 is evaluated (trec_eval sizes its
      // per-level counts from 0 up).
      const r = prepareQuery({ ...group, maxJudgment: Math.max(0, group.maxJudgment) }, run, conv, {
        grades,
      })
      if (!r.ok)
        return {
          ok: false,
          message:
            r.failure.code === 'duplicate_doc'
              ? prepareFailureMessage(r.failure, run.queryId, runFile)
              : '',
        }
      rankings.push(r.ranking)
    }
    return { ok: true, value: rankings }
  }
  return {
    queryIds: [...byQuery.keys()].sort(),
    has: (qid) => byQuery.has(qid),
    inputs(run) {
      let groups: Prepared<readonly JudgedRanking[]> | null = null
      return { judgmentGroups: () => (groups ??= prepare(run)) }
    },
  }
}
