import { docIdEquals } from '../model/run-query.js'
import type { RunQuery } from '../model/types.js'

/**
 * Hashing of byte-string ids for the hot path: a 32-bit hash computed while parsing, and
 * open-addressing tables that use it to skip most string work. Every hit is confirmed by
 * comparing the strings themselves, so a hash collision can never change a result.
 *
 * The hash reads 4 bytes at a time (little-endian words, then the last 1–3 bytes one by one)
 * with MurmurHash3's mixing steps, so the parser can hash a doc id while copying it word by word.
 * It is defined here once for strings ({@link hashId}) and mirrored by the run parser on bytes.
 */

/** Initial state of the id hash. */
export const HASH_SEED = 0x811c9dc5 | 0

/** Mix one 32-bit word (or one trailing byte) into the hash state. */
export function hashStep(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51)
  k = (k << 15) | (k >>> 17)
  h ^= Math.imul(k, 0x1b873593)
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

/** Final avalanche of the id hash (every input bit reaches the low bits the tables use). */
export function hashFinish(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** Hash of a binary string (one byte per char), equal to what the run parser computes from its bytes. */
export function hashId(id: string): number {
  let h = HASH_SEED
  const n = id.length
  let k = 0
  for (; k + 4 <= n; k += 4) {
    h = hashStep(
      h,
      id.charCodeAt(k) |
        (id.charCodeAt(k + 1) << 8) |
        (id.charCodeAt(k + 2) << 16) |
        (id.charCodeAt(k + 3) << 24),
    )
  }
  for (; k < n; k++) h = hashStep(h, id.charCodeAt(k))
  return hashFinish(h)
}

function capacityFor(n: number): number {
  let c = 16
  while (c < n * 2) c <<= 1
  return c
}

/** An immutable id → number map probed by precomputed hash (the judgments of one query). */
export class IdTable {
  private readonly mask: number
  private readonly slotHash: Int32Array
  private readonly slotIndex: Int32Array
  constructor(
    private readonly ids: readonly string[],
    private readonly values: readonly number[],
  ) {
    const cap = capacityFor(ids.length)
    this.mask = cap - 1
    this.slotHash = new Int32Array(cap)
    this.slotIndex = new Int32Array(cap).fill(-1)
    for (let i = 0; i < ids.length; i++) {
      const h = hashId(ids[i]!)
      let s = h & this.mask
      while (this.slotIndex[s] !== -1) s = (s + 1) & this.mask
      this.slotHash[s] = h
      this.slotIndex[s] = i
    }
  }
  /** The value stored for the id of document `i` of `run` (whose hash is `hash`), or `undefined`. */
  getDoc(run: RunQuery, i: number, hash: number): number | undefined {
    let s = hash & this.mask
    for (;;) {
      const idx = this.slotIndex[s]!
      if (idx === -1) return undefined
      if (this.slotHash[s] === hash && docIdEquals(run, i, this.ids[idx]!)) return this.values[idx]
      s = (s + 1) & this.mask
    }
  }
}

/**
 * A reusable set of document indices for finding duplicate ids within one query without
 * allocating: `reset` starts a new query in O(1) (generation stamps) with the equality test of
 * its documents; `add` returns false when an equal id is already in the set.
 */
export class IdSet {
  private mask = 0
  private stamp = new Int32Array(0)
  private slotHash = new Int32Array(0)
  private slotIndex = new Int32Array(0)
  private generation = 0
  private equal: (i: number, j: number) => boolean = () => false

  /** Start a new, empty set able to hold `n` documents whose ids compare with `equal`. */
  reset(n: number, equal: (i: number, j: number) => boolean): void {
    const cap = capacityFor(n)
    if (cap > this.stamp.length) {
      this.stamp = new Int32Array(cap)
      this.slotHash = new Int32Array(cap)
      this.slotIndex = new Int32Array(cap)
      this.generation = 0
    }
    this.mask = cap - 1
    this.equal = equal
    this.generation++
    if (this.generation === 0x7fffffff) {
      this.stamp.fill(0)
      this.generation = 1
    }
  }

  /** Add document `i` (id hash `hash`); false if a document with an equal id is there. */
  add(i: number, hash: number): boolean {
    const g = this.generation
    let s = hash & this.mask
    for (;;) {
      if (this.stamp[s] !== g) {
        this.stamp[s] = g
        this.slotHash[s] = hash
        this.slotIndex[s] = i
        return true
      }
      if (this.slotHash[s] === hash && this.equal(this.slotIndex[s]!, i)) return false
      s = (s + 1) & this.mask
    }
  }
}
