/**
 * The `negativeJudgments` convention applied to qrels already in memory (the qrels reader applies
 * it while reading, see `io/trec-qrels.ts`; this is for qrels read or built without it). Pure.
 */
import type { NegativeJudgments } from '../conventions/conventions.js'
import type { InputIssue } from '../errors/issues.js'
import { InputError, TrecscoreError } from '../errors/trecscore-error.js'
import type { Qrels } from '../model/types.js'
import { JudgmentStoreBuilder } from './judgment-store.js'

/**
 * The qrels as `policy` reads them: unchanged for `nonrelevant`; without their negative lines
 * for `unjudged` (a query judged only negative stays, with no judgment; the count goes to
 * `negativeJudgments.dropped`); for `error`, an {@link InputError} naming each negative line
 * (`file`:line). Qrels the reader already read under `policy` come back as they are.
 */
export function applyNegativeJudgments(
  qrels: Qrels,
  policy: NegativeJudgments,
  file = 'qrels',
): Qrels {
  const read = qrels.negativeJudgments?.policy ?? 'nonrelevant'
  if (read === policy || policy === 'nonrelevant') {
    if (read === 'unjudged' && policy === 'nonrelevant')
      throw new TrecscoreError(
        'the qrels were read with negative judgments dropped (unjudged), but the conventions say nonrelevant: read them again with the same convention',
        2,
      )
    return qrels
  }
  // Dropping lines after an `error` read, or checking after an `unjudged` one, changes nothing.
  if (read !== 'nonrelevant') return { ...qrels, negativeJudgments: { policy, dropped: 0 } }
  if (policy === 'error') {
    const issues: (InputIssue & { readonly line: number })[] = []
    for (const q of qrels.queries.values())
      for (const [doc, g] of q.grades)
        if (g < 0)
          issues.push({
            code: 'negative_judgment',
            file,
            line: q.lines.get(doc) ?? 0,
            found: String(g),
            text: `${q.queryId} 0 ${doc} ${g}`,
            convention: true,
          })
    if (issues.length) {
      issues.sort((a, b) => a.line - b.line)
      throw new InputError(
        issues,
        `${issues.length} negative judgment(s) (negative judgments: error)`,
      )
    }
    return { ...qrels, negativeJudgments: { policy, dropped: 0 } }
  }
  const b = new JudgmentStoreBuilder()
  let dropped = 0
  for (const q of qrels.queries.values()) {
    b.addQuery(q.queryId)
    for (const [doc, g] of q.grades) {
      if (g < 0) dropped++
      else b.add(q.queryId, doc, g, q.lines.get(doc) ?? 0)
    }
  }
  return {
    ...qrels,
    queries: b.finish(),
    judgmentLines: qrels.judgmentLines - dropped,
    negativeJudgments: { policy, dropped },
  }
}
