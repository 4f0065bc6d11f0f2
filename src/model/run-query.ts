/**
 * Access to the documents of a {@link RunQuery}, whichever way its ids are stored: as strings
 * (`docIds`), or as raw bytes in one buffer (`docBytes`, what the streaming parser produces for
 * evaluation: no string per document is made unless one is needed).
 */
import type { DocBytes, RunQuery } from './types.js'

function asBuffer(u: Uint8Array): Buffer {
  // Buffers become plain Uint8Arrays when sent between threads.
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength)
}

/** Number of documents retrieved for the query. */
export function docCount(q: RunQuery): number {
  return q.docBytes ? q.docBytes.offsets.length - 1 : q.docIds.length
}

/** The id of document `i` as a binary string. */
export function docIdAt(q: RunQuery, i: number): string {
  const d = q.docBytes
  if (!d) return q.docIds[i]!
  return asBuffer(d.bytes).toString('latin1', d.offsets[i]!, d.offsets[i + 1]!)
}

/** Every doc id as binary strings (made once per call: keep the result). */
export function docIdsOf(q: RunQuery): string[] {
  if (!q.docBytes) return q.docIds
  const n = docCount(q)
  const out = new Array<string>(n)
  for (let i = 0; i < n; i++) out[i] = docIdAt(q, i)
  return out
}

/** Byte-order comparison of the ids of documents `i` and `j` (as C `strcmp`). */
export function compareDocIds(q: RunQuery, i: number, j: number): number {
  const d = q.docBytes
  if (!d) {
    const a = q.docIds[i]!
    const b = q.docIds[j]!
    return a < b ? -1 : a > b ? 1 : 0
  }
  const bytes = d.bytes
  let x = d.offsets[i]!
  const xe = d.offsets[i + 1]!
  let y = d.offsets[j]!
  const ye = d.offsets[j + 1]!
  while (x < xe && y < ye) {
    const c = bytes[x]! - bytes[y]!
    if (c !== 0) return c
    x++
    y++
  }
  return xe - x - (ye - y)
}

/** Whether the id of document `i` equals the binary string `id`. */
export function docIdEquals(q: RunQuery, i: number, id: string): boolean {
  const d = q.docBytes
  if (!d) return q.docIds[i] === id
  const s = d.offsets[i]!
  const len = d.offsets[i + 1]! - s
  if (len !== id.length) return false
  const bytes = d.bytes
  for (let k = 0; k < len; k++) if (bytes[s + k] !== id.charCodeAt(k)) return false
  return true
}

/** The documents of `b` appended to those of `a` (same query; e.g. lines split in the file). */
export function concatRunQueries(a: RunQuery, b: RunQuery): RunQuery {
  let ids: Pick<RunQuery, 'docIds'> & { docBytes?: DocBytes }
  if (a.docBytes && b.docBytes) {
    const ab = a.docBytes
    const bb = b.docBytes
    const aLen = ab.offsets[ab.offsets.length - 1]!
    const bLen = bb.offsets[bb.offsets.length - 1]!
    const bytes = new Uint8Array(aLen + bLen)
    bytes.set(ab.bytes.subarray(0, aLen), 0)
    bytes.set(bb.bytes.subarray(0, bLen), aLen)
    const offsets = ab.offsets.concat(bb.offsets.slice(1).map((o) => o + aLen))
    ids = { docIds: [], docBytes: { bytes, offsets } }
  } else {
    ids = { docIds: docIdsOf(a).concat(docIdsOf(b)) }
  }
  return {
    queryId: a.queryId,
    ...ids,
    scores: a.scores.concat(b.scores),
    ranks: a.ranks && b.ranks ? a.ranks.concat(b.ranks) : null,
    lines: a.lines.concat(b.lines),
    ...(a.docHashes && b.docHashes ? { docHashes: a.docHashes.concat(b.docHashes) } : {}),
  }
}
