/**
 * A fused run as a six-column TREC run (`qid Q0 docno rank score tag`), and as a {@link Run}
 * value to evaluate in memory. Ids stay binary strings: write the text as latin1 to get the
 * input bytes back.
 */
import type { Run, RunQuery } from '../model/types.js'
import type { FusedRun } from './types.js'

/**
 * The TREC run text in pieces of about `chunkChars` characters (binary strings: one char per
 * byte), each ending with a newline; memory stays bounded by one piece, whatever the number of
 * lines or the length of the tag. Scores are printed in JavaScript's shortest round-trip form, so
 * distinct doubles stay distinct when read back as doubles.
 */
export function* fusedRunChunks(run: FusedRun, chunkChars = 1 << 20): Generator<string> {
  let parts: string[] = []
  let size = 0
  for (const [qid, docs] of run.queries) {
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!
      const line = `${qid} Q0 ${d.docId} ${i + 1} ${String(d.score)} ${run.tag}\n`
      parts.push(line)
      size += line.length
      if (size >= chunkChars) {
        yield parts.join('')
        parts = []
        size = 0
      }
    }
  }
  if (parts.length > 0) yield parts.join('')
}

/** The whole TREC run text (binary string); {@link fusedRunChunks} for large runs. */
export function formatFusedRun(run: FusedRun): string {
  return [...fusedRunChunks(run)].join('')
}

/** The fused run as a {@link Run}, e.g. to evaluate it without writing it out. */
export function fusedToRun(run: FusedRun): Run {
  const queries = new Map<string, RunQuery>()
  let n = 0
  for (const [qid, docs] of run.queries) {
    queries.set(qid, {
      queryId: qid,
      docIds: docs.map((d) => d.docId),
      scores: docs.map((d) => d.score),
      ranks: null,
      lines: docs.map(() => ++n),
    })
  }
  return { queries, tag: run.tag, tags: [run.tag], lineCount: n }
}

/** One line per count, for stderr (`fuse`) and reports. */
export function describeFuse(run: FusedRun): string {
  const c = run.counts
  const s = run.settings
  return [
    `method ${run.method}, normalisation ${run.norm}${run.method === 'rrf' ? `, k ${s.k}` : ''}${s.weights ? `, weights ${s.weights.join(',')}` : ''}, depth ${s.depth}, ties ${s.keepTies ? 'kept' : 'broken (doc id descending)'}`,
    `${c.inputRuns} runs, ${c.queries} queries; runs lacking a query: ${c.missingQueryRuns}; duplicate docs removed: ${c.duplicatesRemoved}; docs below depth: ${c.cutByDepth}; tied scores lowered: ${c.tiesBroken}`,
  ].join('\n')
}
