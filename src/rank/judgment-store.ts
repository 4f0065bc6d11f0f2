/**
 * Compact storage of a qrels file: every judgment in a few flat columns (doc id strings, and
 * grade, line and id hash as 32-bit integers), grouped by query, instead of one `Map` per query.
 * A million one-judgment queries take about 130 bytes each (ids included) rather than several
 * kilobytes. Pure: no I/O.
 *
 * {@link JudgmentStore} is the `ReadonlyMap<string, QueryJudgments>` of a parsed {@link Qrels}:
 * `get` builds a light {@link QueryJudgments} view over a query's slice of the columns (cheap,
 * made anew on each call). Duplicate judgments keep the first line, as the parser always did;
 * the later ones are listed in `duplicateDocs` and still count in `relLevels` and `maxJudgment`.
 */

import { docIdEquals } from '../model/run-query.js'
import type { JudgmentLookup, QueryJudgments, RunQuery } from '../model/types.js'
import { hashId, IdSet } from './id-hash.js'

/** Later judgments of docs already judged for the query. */
interface Duplicates {
  readonly docs: Set<string>
  readonly grades: number[]
}

function grow(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n < a.length) return a
  const b = new Int32Array(Math.max(1024, a.length * 2))
  b.set(a)
  return b
}

/** Collects judgments line by line; {@link finish} groups them by query. */
export class JudgmentStoreBuilder {
  private readonly index = new Map<string, number>()
  private readonly names: string[] = []
  private docIds: string[] = []
  private query: Int32Array<ArrayBuffer> = new Int32Array(0)
  private grade: Int32Array<ArrayBuffer> = new Int32Array(0)
  private line: Int32Array<ArrayBuffer> = new Int32Array(0)
  private n = 0
  private grouped = true

  /** Record one judgment (grades are integers; ids binary strings). */
  add(queryId: string, docId: string, grade: number, line: number): void {
    let q = this.index.get(queryId)
    if (q === undefined) {
      q = this.names.length
      this.index.set(queryId, q)
      this.names.push(queryId)
    } else if (this.grouped && q !== this.names.length - 1) this.grouped = false
    const n = this.n
    this.query = grow(this.query, n)
    this.grade = grow(this.grade, n)
    this.line = grow(this.line, n)
    this.query[n] = q
    this.grade[n] = grade
    this.line[n] = line
    this.docIds.push(docId)
    this.n = n + 1
  }

  /** Register a query even if no judgment of it is added (its lines were all dropped). */
  addQuery(queryId: string): void {
    if (this.index.has(queryId)) return
    this.index.set(queryId, this.names.length)
    this.names.push(queryId)
  }

  /** The judgments grouped by query (file order within a query), duplicates set apart. */
  finish(): JudgmentStore {
    let n = this.n
    const nq = this.names.length
    let docIds = this.docIds
    let grade: Int32Array = this.grade.subarray(0, n)
    let line: Int32Array = this.line.subarray(0, n)
    const start = new Int32Array(nq + 1)
    for (let k = 0; k < n; k++) start[this.query[k]! + 1]!++
    for (let q = 0; q < nq; q++) start[q + 1]! += start[q]!
    if (!this.grouped) {
      // Stable counting sort by query.
      const at = start.slice(0, nq)
      const ids = new Array<string>(n)
      const g = new Int32Array(n)
      const l = new Int32Array(n)
      for (let k = 0; k < n; k++) {
        const dst = at[this.query[k]!]!++
        ids[dst] = docIds[k]!
        g[dst] = grade[k]!
        l[dst] = line[k]!
      }
      docIds = ids
      grade = g
      line = l
    }
    this.query = new Int32Array(0)
    const hash = new Int32Array(n)
    for (let k = 0; k < n; k++) hash[k] = hashId(docIds[k]!)
    // Duplicates: keep the first judgment of each doc, compacting the columns in place.
    const dups = new Map<number, Duplicates>()
    const seen = new IdSet()
    let w = 0
    for (let q = 0; q < nq; q++) {
      const s = start[q]!
      const e = start[q + 1]!
      start[q] = w
      const base = w
      seen.reset(e - s, (i, j) => docIds[base + i] === docIds[base + j])
      for (let k = s; k < e; k++) {
        const id = docIds[k]!
        docIds[w] = id
        grade[w] = grade[k]!
        line[w] = line[k]!
        hash[w] = hash[k]!
        if (!seen.add(w - base, hash[w]!)) {
          let d = dups.get(q)
          if (!d) dups.set(q, (d = { docs: new Set(), grades: [] }))
          d.docs.add(id)
          d.grades.push(grade[k]!)
          continue
        }
        w++
      }
    }
    start[nq] = w
    n = w
    docIds.length = n
    return new JudgmentStore(
      this.index,
      this.names,
      docIds,
      grade.slice(0, n),
      line.slice(0, n),
      hash.slice(0, n),
      start,
      dups,
    )
  }
}

/** The judgments of every query of a qrels file, as a read-only map of query id to judgments. */
export class JudgmentStore implements ReadonlyMap<string, QueryJudgments> {
  /** @internal */
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly names: readonly string[],
    /** @internal */ readonly docIds: readonly string[],
    /** @internal */ readonly grade: Int32Array,
    /** @internal */ readonly line: Int32Array,
    /** @internal */ readonly hash: Int32Array,
    private readonly start: Int32Array,
    private readonly dups: ReadonlyMap<number, Duplicates>,
  ) {}

  get size(): number {
    return this.names.length
  }
  has(queryId: string): boolean {
    return this.index.has(queryId)
  }
  get(queryId: string): QueryJudgments | undefined {
    const q = this.index.get(queryId)
    return q === undefined ? undefined : this.at(q)
  }
  /** Position of a query in file order (what `keys()` yields), or -1. */
  indexOf(queryId: string): number {
    return this.index.get(queryId) ?? -1
  }
  /** The id of the query at position `q` (the store's own string). */
  idAt(q: number): string {
    return this.names[q]!
  }
  keys(): MapIterator<string> {
    return this.index.keys()
  }
  *values(): MapIterator<QueryJudgments> {
    for (let q = 0; q < this.names.length; q++) yield this.at(q)
  }
  *entries(): MapIterator<[string, QueryJudgments]> {
    for (let q = 0; q < this.names.length; q++) yield [this.names[q]!, this.at(q)]
  }
  [Symbol.iterator](): MapIterator<[string, QueryJudgments]> {
    return this.entries()
  }
  forEach(
    fn: (value: QueryJudgments, key: string, map: ReadonlyMap<string, QueryJudgments>) => void,
    thisArg?: unknown,
  ): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this)
  }

  private at(q: number): QueryJudgments {
    const s = this.start[q]!
    const e = this.start[q + 1]!
    const relLevels: number[] = []
    let maxJudgment = -Infinity
    const count = (g: number): void => {
      if (g > maxJudgment) maxJudgment = g
      if (g >= 0) {
        while (relLevels.length <= g) relLevels.push(0)
        relLevels[g]!++
      }
    }
    for (let k = s; k < e; k++) count(this.grade[k]!)
    const d = this.dups.get(q)
    if (d) for (const g of d.grades) count(g)
    const grades = new JudgmentSlice(this, s, e, this.grade)
    return {
      queryId: this.names[q]!,
      grades,
      lines: new JudgmentSlice(this, s, e, this.line),
      relLevels,
      maxJudgment,
      duplicateDocs: d ? [...d.docs].sort() : NONE,
      table: grades,
    }
  }
}

const NONE: readonly string[] = Object.freeze([])

/** Slices shorter than this are searched by a scan of their hashes; longer ones get a table. */
const SCAN_MAX = 8

/** One query's judgments, as doc id → a column value (grade or line), probed by id hash. */
class JudgmentSlice implements ReadonlyMap<string, number>, JudgmentLookup {
  private slots: Int32Array | null = null
  constructor(
    private readonly store: JudgmentStore,
    private readonly s: number,
    private readonly e: number,
    private readonly column: Int32Array,
  ) {}

  get size(): number {
    return this.e - this.s
  }

  /** Index in the store of the judgment whose hash is `h` and that `same` accepts, or -1. */
  private find(h: number, same: (k: number) => boolean): number {
    const hash = this.store.hash
    if (this.e - this.s <= SCAN_MAX) {
      for (let k = this.s; k < this.e; k++) if (hash[k] === h && same(k)) return k
      return -1
    }
    const slots = (this.slots ??= this.buildSlots())
    const mask = slots.length - 1
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const k = slots[p]!
      if (k < 0) return -1
      if (hash[k] === h && same(k)) return k
    }
  }

  private buildSlots(): Int32Array {
    let cap = 16
    while (cap < (this.e - this.s) * 2) cap <<= 1
    const slots = new Int32Array(cap).fill(-1)
    const mask = cap - 1
    const hash = this.store.hash
    for (let k = this.s; k < this.e; k++) {
      let p = hash[k]! & mask
      while (slots[p] !== -1) p = (p + 1) & mask
      slots[p] = k
    }
    return slots
  }

  getDoc(run: RunQuery, i: number, h: number): number | undefined {
    // `find` spelled out: this runs once per retrieved doc, and a closure per call costs more
    // than the lookup.
    const ids = this.store.docIds
    const hash = this.store.hash
    if (this.e - this.s <= SCAN_MAX) {
      for (let k = this.s; k < this.e; k++)
        if (hash[k] === h && docIdEquals(run, i, ids[k]!)) return this.column[k]
      return undefined
    }
    const slots = (this.slots ??= this.buildSlots())
    const mask = slots.length - 1
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const k = slots[p]!
      if (k < 0) return undefined
      if (hash[k] === h && docIdEquals(run, i, ids[k]!)) return this.column[k]
    }
  }
  get(docId: string): number | undefined {
    const ids = this.store.docIds
    const k = this.find(hashId(docId), (k) => ids[k] === docId)
    return k < 0 ? undefined : this.column[k]
  }
  has(docId: string): boolean {
    return this.get(docId) !== undefined
  }
  *keys(): MapIterator<string> {
    for (let k = this.s; k < this.e; k++) yield this.store.docIds[k]!
  }
  *values(): MapIterator<number> {
    for (let k = this.s; k < this.e; k++) yield this.column[k]!
  }
  *entries(): MapIterator<[string, number]> {
    for (let k = this.s; k < this.e; k++) yield [this.store.docIds[k]!, this.column[k]!]
  }
  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries()
  }
  forEach(
    fn: (value: number, key: string, map: ReadonlyMap<string, number>) => void,
    thisArg?: unknown,
  ): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this)
  }
}
