/**
 * Compact stores for many small keys and rows, where a `Map` or `Set` per entry would cost more
 * than the data: a million one-document queries must stay well under 500 bytes each.
 * Pure: no I/O.
 */
import { HASH_SEED, hashFinish, hashId, hashStep } from './id-hash.js'

function grown<T extends Int32Array | Uint8Array | Float64Array>(
  a: T,
  need: number,
  make: (n: number) => T,
): T {
  if (need <= a.length) return a
  const b = make(Math.max(need, Math.ceil(a.length * 1.5), 64))
  b.set(a)
  return b
}

/**
 * A growing set of binary-string ids (one char per byte), each given a dense index in order of
 * first insertion. The ids' bytes sit in one column with their hashes and an open-addressing
 * table, all typed arrays: about 20 bytes for a short id, instead of a string and a `Set` entry
 * (60 or more). An id with a char above 0xff (only from library callers) goes to a side map.
 */
export class IdIndex {
  private bytes = new Uint8Array(1024)
  /** `ends[i]`: end of id i in `bytes` (it starts at `ends[i - 1]`, or 0). */
  private ends = new Int32Array(64)
  private hashes = new Int32Array(64)
  private slots = new Int32Array(128).fill(-1)
  private used = 0
  private n = 0
  private wide: Map<string, number> | null = null
  private wideIds: Map<number, string> | null = null

  /** Number of distinct ids. */
  get size(): number {
    return this.n
  }

  /** The index of `id`, or -1. */
  indexOf(id: string): number {
    const h = hashId(id)
    const mask = this.slots.length - 1
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const k = this.slots[p]!
      if (k < 0) break
      if (this.hashes[k] === h && this.equals(k, id)) return k
    }
    return this.wide?.get(id) ?? -1
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0
  }

  /** The index of `id`, added (as the next index) when new. */
  add(id: string): number {
    const known = this.indexOf(id)
    if (known >= 0) return known
    const k = this.n++
    this.ends = grown(this.ends, this.n, (n) => new Int32Array(n))
    this.hashes = grown(this.hashes, this.n, (n) => new Int32Array(n))
    let wide = false
    for (let i = 0; i < id.length && !wide; i++) wide = id.charCodeAt(i) > 0xff
    if (wide) {
      ;(this.wide ??= new Map()).set(id, k)
      ;(this.wideIds ??= new Map()).set(k, id)
      this.ends[k] = this.used
      return k
    }
    this.bytes = grown(this.bytes, this.used + id.length, (n) => new Uint8Array(n))
    for (let i = 0; i < id.length; i++) this.bytes[this.used + i] = id.charCodeAt(i)
    this.used += id.length
    this.ends[k] = this.used
    const h = hashId(id)
    this.hashes[k] = h
    if (this.n * 2 > this.slots.length) this.rehash()
    else this.place(k, h)
    return k
  }

  /** The id of index `k` (a new string). */
  idAt(k: number): string {
    const w = this.wideIds?.get(k)
    if (w !== undefined) return w
    const s = k ? this.ends[k - 1]! : 0
    const e = this.ends[k]!
    let out = ''
    for (let i = s; i < e; i += 4096)
      out += String.fromCharCode(...this.bytes.subarray(i, Math.min(e, i + 4096)))
    return out
  }

  private equals(k: number, id: string): boolean {
    const s = k ? this.ends[k - 1]! : 0
    if (this.ends[k]! - s !== id.length) return false
    for (let i = 0; i < id.length; i++) if (this.bytes[s + i] !== id.charCodeAt(i)) return false
    return true
  }

  private place(k: number, h: number): void {
    const mask = this.slots.length - 1
    let p = h & mask
    while (this.slots[p] !== -1) p = (p + 1) & mask
    this.slots[p] = k
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1)
    for (let k = 0; k < this.n; k++) if (!this.wideIds?.has(k)) this.place(k, this.hashes[k]!)
  }
}

/**
 * Rows of `width` values (numbers, or `null`) stored once each: equal rows (bit for bit) share
 * one index, so a million queries with a handful of distinct outcomes cost 4 bytes each for
 * their row index. Distinct rows cost what a flat column would, plus a hash slot.
 */
export class ValueRows {
  private values: Float64Array
  private bits: Int32Array
  private nulls: Uint8Array
  private slots = new Int32Array(128).fill(-1)
  private n = 0

  constructor(readonly width: number) {
    this.values = new Float64Array(16 * width)
    this.bits = new Int32Array(this.values.buffer)
    this.nulls = new Uint8Array(16 * width)
  }

  /** Number of distinct rows. */
  get size(): number {
    return this.n
  }

  /** The index of the row equal to `row` (`null`: undefined value), added when new. */
  intern(row: ArrayLike<number | null>): number {
    const w = this.width
    const k = this.n
    if ((k + 1) * w > this.values.length) {
      this.values = grown(this.values, (k + 1) * w, (n) => new Float64Array(n))
      this.bits = new Int32Array(this.values.buffer)
      this.nulls = grown(this.nulls, this.values.length, (n) => new Uint8Array(n))
    }
    // Written at the next row, then compared with the rows of the same hash.
    const at = k * w
    for (let i = 0; i < w; i++) {
      const v = row[i] ?? null
      this.values[at + i] = v ?? 0
      this.nulls[at + i] = v === null ? 1 : 0
    }
    const h = this.hash(k)
    const mask = this.slots.length - 1
    let p = h & mask
    for (; ; p = (p + 1) & mask) {
      const j = this.slots[p]!
      if (j < 0) break
      if (this.same(j, k)) return j
    }
    this.slots[p] = k
    this.n = k + 1
    if (this.n * 2 > this.slots.length) this.rehash()
    return k
  }

  /** Value `i` of row `k` (`null` when undefined). */
  get(k: number, i: number): number | null {
    const at = k * this.width + i
    return this.nulls[at] ? null : this.values[at]!
  }

  /** Row `k` as a new array. */
  row(k: number): (number | null)[] {
    const out: (number | null)[] = []
    for (let i = 0; i < this.width; i++) out.push(this.get(k, i))
    return out
  }

  /** Row `k` as a new Float64Array (undefined values read as 0). */
  floats(k: number): Float64Array {
    return this.values.slice(k * this.width, (k + 1) * this.width)
  }

  /** Row `k` written into `into` (undefined values read as 0); returns `into`. */
  floatsInto(k: number, into: Float64Array): Float64Array {
    into.set(this.values.subarray(k * this.width, (k + 1) * this.width))
    return into
  }

  private hash(k: number): number {
    let h = HASH_SEED
    const b = k * this.width * 2
    for (let i = 0; i < this.width * 2; i++) h = hashStep(h, this.bits[b + i]!)
    for (let i = 0; i < this.width; i++) h = hashStep(h, this.nulls[k * this.width + i]!)
    return hashFinish(h)
  }

  private same(j: number, k: number): boolean {
    const w = this.width
    for (let i = 0; i < w * 2; i++)
      if (this.bits[j * w * 2 + i] !== this.bits[k * w * 2 + i]) return false
    for (let i = 0; i < w; i++) if (this.nulls[j * w + i] !== this.nulls[k * w + i]) return false
    return true
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1)
    const mask = this.slots.length - 1
    for (let k = 0; k < this.n; k++) {
      let p = this.hash(k) & mask
      while (this.slots[p] !== -1) p = (p + 1) & mask
      this.slots[p] = k
    }
  }
}
