/**
 * The documents and ranks of the topic whose block of lines is open in the run validator, kept
 * as bytes: doc ids go into one growing byte arena with an open-addressing table on their hash
 * (a hit is confirmed by comparing the bytes, so a collision never changes a result), ranks
 * 0..65535 into a dense table of line numbers. No string is made for an id that is not a
 * duplicate. A block that ends is archived at its exact size and reloaded if the topic reopens.
 */

/** A topic's documents and ranks once its block has ended (compact: three arrays). */
export interface TopicArchive {
  readonly docBytes: Uint8Array
  /** `n + 1` starts then `n` lines: doc `i` is `docBytes[docs[i], docs[i + 1])`, first seen on `docs[n + 1 + i]`. */
  readonly docs: Int32Array
  /** `m` ranks then their `m` lines. */
  readonly ranks: Float64Array
}

import { HASH_SEED, hashFinish, hashStep } from '../rank/id-hash.js'

const DENSE_RANKS = 1 << 16

/** The id hash of rank/id-hash.ts on `buf[s, e)`, read 4 bytes at a time through `view`. */
export function hashBytes(buf: Uint8Array, view: DataView, s: number, e: number): number {
  let h = HASH_SEED
  let k = s
  for (; k + 4 <= e; k += 4) h = hashStep(h, view.getInt32(k, true))
  for (; k < e; k++) h = hashStep(h, buf[k]!)
  return hashFinish(h)
}

/** The open topic's documents and ranks (one instance, reused from block to block). */
export class OpenTopic {
  private arena = new Uint8Array(1 << 16)
  private arenaView = new DataView(this.arena.buffer)
  private used = 0
  private starts: Int32Array = new Int32Array(1025)
  private hashes: Int32Array = new Int32Array(1024)
  private lines: Int32Array = new Int32Array(1024)
  private count = 0
  /** Slots hold doc index + 1 (0: empty). */
  private slots = new Int32Array(2048)
  private mask = 2047

  private readonly rankLine = new Int32Array(DENSE_RANKS)
  private rankList: number[] = []
  private rankLines: number[] = []
  private otherRanks = new Map<number, number>()

  /** Empty, for a topic seen for the first time. */
  clear(): void {
    for (const r of this.rankList)
      if (r >= 0 && r < DENSE_RANKS && r === Math.floor(r)) this.rankLine[r] = 0
    this.rankList = []
    this.rankLines = []
    this.otherRanks.clear()
    // Zero the table at once when it is well used, else only the used slots (the table may have
    // grown for one large topic, then serve many small ones).
    if (this.count * 16 >= this.mask + 1) this.slots.fill(0)
    else
      for (let j = 0; j < this.count; j++) {
        let slot = this.hashes[j]! & this.mask
        while (this.slots[slot] !== j + 1) slot = (slot + 1) & this.mask
        this.slots[slot] = 0
      }
    this.used = 0
    this.count = 0
  }

  /**
   * Record doc id `buf[s, e)` first seen on `line`; returns 0, or the line where the same id was
   * first seen (the duplicate is not recorded again).
   */
  addDoc(buf: Uint8Array, view: DataView, s: number, e: number, line: number): number {
    return this.addHashed(buf, view, s, e, hashBytes(buf, view, s, e), line)
  }

  /** {@link addDoc} for an id whose hash `h` (rank/id-hash.ts) is known. */
  addHashed(
    buf: Uint8Array,
    view: DataView,
    s: number,
    e: number,
    h: number,
    line: number,
  ): number {
    const len = e - s
    const arena = this.arena
    let slot = h & this.mask
    for (;;) {
      const at = this.slots[slot]!
      if (at === 0) break
      const j = at - 1
      if (this.hashes[j] === h) {
        const js = this.starts[j]!
        if (this.starts[j + 1]! - js === len) {
          let k = 0
          while (k < len && arena[js + k] === buf[s + k]) k++
          if (k === len) return this.lines[j]!
        }
      }
      slot = (slot + 1) & this.mask
    }
    const n = this.count
    if (n + 1 >= this.hashes.length) this.growDocs()
    if (this.used + len > this.arena.length) this.growArena(len)
    const into = this.arena
    const intoView = this.arenaView
    let at = this.used
    let k = s
    for (; k + 4 <= e; k += 4, at += 4) intoView.setInt32(at, view.getInt32(k, true), true)
    for (; k < e; k++) into[at++] = buf[k]!
    this.used = at
    this.starts[n + 1] = this.used
    this.hashes[n] = h
    this.lines[n] = line
    this.count = n + 1
    this.slots[slot] = n + 1
    if (2 * this.count > this.mask) this.rehash()
    return 0
  }

  /** Record `rank` first seen on `line`; returns 0, or the line where it was first seen. */
  addRank(rank: number, line: number): number {
    if (rank >= 0 && rank < DENSE_RANKS && rank === Math.floor(rank)) {
      const first = this.rankLine[rank]!
      if (first !== 0) return first
      this.rankLine[rank] = line
    } else {
      const first = this.otherRanks.get(rank)
      if (first !== undefined) return first
      this.otherRanks.set(rank, line)
    }
    this.rankList.push(rank)
    this.rankLines.push(line)
    return 0
  }

  /** The open block at its exact size; the instance is cleared. */
  archive(): TopicArchive {
    const n = this.count
    const docs = new Int32Array(2 * n + 1)
    docs.set(this.starts.subarray(0, n + 1))
    docs.set(this.lines.subarray(0, n), n + 1)
    const m = this.rankList.length
    const ranks = new Float64Array(2 * m)
    for (let i = 0; i < m; i++) {
      ranks[i] = this.rankList[i]!
      ranks[m + i] = this.rankLines[i]!
    }
    const a: TopicArchive = { docBytes: this.arena.slice(0, this.used), docs, ranks }
    this.clear()
    return a
  }

  /** Reopen an archived topic (the instance must be clear). */
  reload(a: TopicArchive): void {
    const n = (a.docs.length - 1) / 2
    const view = new DataView(a.docBytes.buffer, a.docBytes.byteOffset, a.docBytes.byteLength)
    for (let i = 0; i < n; i++)
      this.addDoc(a.docBytes, view, a.docs[i]!, a.docs[i + 1]!, a.docs[n + 1 + i]!)
    const m = a.ranks.length / 2
    for (let i = 0; i < m; i++) this.addRank(a.ranks[i]!, a.ranks[m + i]!)
  }

  private growDocs(): void {
    const cap = this.hashes.length * 2
    const grow = (old: Int32Array, size: number): Int32Array => {
      const next = new Int32Array(size)
      next.set(old)
      return next
    }
    this.hashes = grow(this.hashes, cap)
    this.lines = grow(this.lines, cap)
    this.starts = grow(this.starts, cap + 1)
  }

  private growArena(len: number): void {
    const next = new Uint8Array(Math.max(2 * this.arena.length, this.used + len))
    next.set(this.arena.subarray(0, this.used))
    this.arena = next
    this.arenaView = new DataView(next.buffer)
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2
    this.slots = new Int32Array(size)
    this.mask = size - 1
    for (let j = 0; j < this.count; j++) {
      let slot = this.hashes[j]! & this.mask
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask
      this.slots[slot] = j + 1
    }
  }
}
