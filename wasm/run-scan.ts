/**
 * The run-line kernel (AssemblyScript, compiled to WebAssembly by `scripts/build-wasm.mjs` into
 * `src/io/run-scan.wasm.ts`). It reads the lines of a TREC run that have the usual shape, the
 * shape `TrecRunParser`'s fast loop takes, 16 bytes at a time, and writes for each line its doc
 * id's hash, score and position, and where each new query id starts. The first line of any
 * other shape stops it; the parser's full line reader takes that line, exactly as without the
 * kernel. See `src/io/run-scan.ts` for the memory layout as JavaScript sees it.
 *
 * Most lines are read from bit masks of their first 64 bytes (where the newline, blanks and
 * other low bytes are), with the score's digits combined in SIMD lanes; a line that is longer,
 * has a separator other than space or tab, a field count other than six or a score of more than
 * 16 bytes is read byte by byte, which decides whether it is taken.
 *
 * A line is taken when: it starts with a byte above 0x20 (and not `#` when comments are on); it
 * has the fields qid, iter, docno, rank, score and tag, separated by C white space (space, tab,
 * vertical tab, form feed, carriage return); the score is plain decimal (digits with at most one
 * `.`, 1 to 15 digits); with `strict`, nothing but white space follows the tag; no byte of the
 * line is NUL or another control byte where a field ends; and it is at most `maxLine` bytes.
 *
 * `check` is the same scan for the run validator (`src/validate/validate-run.ts`), which takes
 * fewer lines: only bytes 0x21..0x7F in fields (a byte from 0x80 needs the UTF-8 check), no CR
 * anywhere, exactly six fields, a rank of 1 to 15 digits (written per line too), and the tag of
 * the line before. Any other line stops it, and the validator's own line checks take it.
 */

/** Input window: the bytes to scan, each window ending with a newline. */
const IN_CAP: i32 = 256 * 1024
/** Bytes past the window that 16-byte loads may touch. */
const SLACK: i32 = 64
/** Most records one call writes (a taken line has at least 12 bytes). */
const REC: i32 = IN_CAP / 8
/** Longest query id the caller may hand over as the previous line's. */
const QID_CAP: i32 = 64 * 1024

const IN: usize = (__heap_base + 15) & ~15
const QID: usize = IN + <usize>(IN_CAP + SLACK)
const HASH: usize = QID + <usize>QID_CAP
const SCORE: usize = HASH + (<usize>REC << 2)
const IDEND: usize = SCORE + (<usize>REC << 3)
const D0: usize = IDEND + (<usize>REC << 2)
const GROUP: usize = D0 + (<usize>REC << 2)
const IDS: usize = GROUP + <usize>REC * 12
const RANK: usize = IDS + <usize>(IN_CAP + SLACK)
/** Longest tag `check` compares with (a longer one stops it at every line). */
const TAG_CAP: i32 = 4096
const TAG: usize = RANK + (<usize>REC << 3)
const END: usize = TAG + <usize>TAG_CAP

memory.grow(<i32>((END + 0xffff) >> 16) - memory.size())

const POW10: StaticArray<f64> = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
]


const NL16: v128 = i8x16.splat(0x0a)
const SP16: v128 = i8x16.splat(0x20)
const TAB16: v128 = i8x16.splat(0x09)
const DOT16: v128 = i8x16.splat(0x2e)
const ZERO16: v128 = i8x16.splat(0x30)
const NINE16: v128 = i8x16.splat(9)
const IOTA16: v128 = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
const LOWBYTE16: v128 = i16x8.splat(0xff)
const TEN16: v128 = i16x8.splat(10)
const HUNDRED16: v128 = i16x8(100, 1, 100, 1, 100, 1, 100, 1)

/** Where the last call stopped (window offset): the window's end, or a line it did not take. */
export let stopPos: i32 = 0
/** Query id starts the last call wrote. */
export let groups: i32 = 0
/** Window offset of the last taken line's tag, -1 if none. */
export let lastTag: i32 = -1

/**
 * The layout: 0 IN, 1 QID, 2 HASH, 3 SCORE, 4 IDEND, 5 D0, 6 GROUP, 7 IDS, 8 IN_CAP, 9 QID_CAP,
 * 10 RANK, 11 TAG, 12 TAG_CAP.
 */
export function layout(k: i32): i32 {
  if (k == 10) return <i32>RANK
  if (k == 11) return <i32>TAG
  if (k == 12) return TAG_CAP
  if (k == 0) return <i32>IN
  if (k == 1) return <i32>QID
  if (k == 2) return <i32>HASH
  if (k == 3) return <i32>SCORE
  if (k == 4) return <i32>IDEND
  if (k == 5) return <i32>D0
  if (k == 6) return <i32>GROUP
  if (k == 7) return <i32>IDS
  if (k == 8) return IN_CAP
  return QID_CAP
}

/** C `isspace` without the newline (and, for `check`, without CR). */
// @ts-ignore: decorator
@inline
function isSpace(b: u32, check: bool): bool {
  return b == 0x20 || (b - 0x09 <= 4 && b != 0x0a && !(check && b == 0x0d))
}

/** The first byte at or after `p` that is 0x20 or below (or, for `check`, 0x80 or above). */
// @ts-ignore: decorator
@inline
function nextLow(p: usize, check: bool): usize {
  let m: i32 = 0
  for (;;) {
    const v = v128.load(p)
    m = check
      ? i8x16.bitmask(i8x16.lt_s(v, i8x16.splat(0x21)))
      : i8x16.bitmask(i8x16.le_u(v, i8x16.splat(0x20)))
    if (m != 0) break
    p += 16
  }
  return p + <usize>ctz(m)
}

// @ts-ignore: decorator
@inline
function skipSpace(p: usize, check: bool): usize {
  while (isSpace(<u32>load<u8>(p), check)) p++
  return p
}

/** One word into the doc id hash (`src/rank/id-hash.ts` `hashStep`). */
// @ts-ignore: decorator
@inline
function hashStep(h: i32, w: i32): i32 {
  let k = w * <i32>0xcc9e2d51
  k = rotl<i32>(k, 15)
  h ^= k * <i32>0x1b873593
  h = rotl<i32>(h, 13)
  return h * 5 + <i32>0xe6546b64
}

/** `src/rank/id-hash.ts` `hashFinish`. */
// @ts-ignore: decorator
@inline
function hashFinish(h: i32): i32 {
  h ^= <i32>(<u32>h >> 16)
  h = h * <i32>0x85ebca6b
  h ^= <i32>(<u32>h >> 13)
  h = h * <i32>0xc2b2ae35
  return h ^ <i32>(<u32>h >> 16)
}

/**
 * Take the lines of `IN[from, len)` (byte `len - 1` is a newline) until one is not in the usual
 * shape. `qidLen`: the previous line's query id, in `QID`, when `flags & 4`. Flags: 1 strict,
 * 2 comments. Returns the number of records written (numbered from 0, ids from `IDS`).
 */
export function scan(from: i32, len: i32, qidLen: i32, flags: i32, maxLine: i32): i32 {
  return lines(from, len, qidLen, 0, flags, maxLine, false)
}

/**
 * `scan` for the run validator (see the module comment): the previous line's tag, `tagLen`
 * bytes, is in `TAG`; each record's rank goes to `RANK`, and doc ids are not copied to `IDS`
 * (their lengths still are in `IDEND`).
 */
export function check(
  from: i32,
  len: i32,
  qidLen: i32,
  tagLen: i32,
  flags: i32,
  maxLine: i32,
): i32 {
  return lines(from, len, qidLen, tagLen, flags | 1, maxLine, true)
}

// @ts-ignore: decorator
@inline
function lines(
  from: i32,
  len: i32,
  qidLen: i32,
  tagLen: i32,
  flags: i32,
  maxLine: i32,
  check: bool,
): i32 {
  const strict = (flags & 1) != 0
  const comments = (flags & 2) != 0
  let haveQid = (flags & 4) != 0
  let pq: usize = QID
  let pql: i32 = qidLen
  let pos: i32 = from
  let n: i32 = 0
  let idAt: i32 = 0
  let g: i32 = 0
  let tag: i32 = -1
  while (pos < len && n < REC) {
    const q0: usize = IN + <usize>pos
    const b0 = <u32>load<u8>(q0)
    if (b0 <= 0x20 || (comments && b0 == 0x23)) break
    let q1: usize = 0
    let d0: usize = 0
    let d1: usize = 0
    let t0: usize = 0
    let i: usize = 0
    let score: f64 = 0
    let rank: f64 = 0
    let fast = false
    if (!check) {
      // The usual line: within 64 bytes, fields apart by spaces and tabs only, six of them, a
      // score of at most 16 bytes. Read from bit masks of the 64 bytes; any other line goes on
      // to the byte-by-byte reading below, which decides.
      do {
        const v0 = v128.load(q0)
        const v1 = v128.load(q0 + 16)
        const v2 = v128.load(q0 + 32)
        const v3 = v128.load(q0 + 48)
        const nl =
          <u64>i8x16.bitmask(i8x16.eq(v0, NL16)) |
          (<u64>i8x16.bitmask(i8x16.eq(v1, NL16)) << 16) |
          (<u64>i8x16.bitmask(i8x16.eq(v2, NL16)) << 32) |
          (<u64>i8x16.bitmask(i8x16.eq(v3, NL16)) << 48)
        if (nl == 0) break
        const e = ctz(nl)
        const below = (<u64>1 << e) - 1
        const low =
          <u64>i8x16.bitmask(i8x16.le_u(v0, SP16)) |
          (<u64>i8x16.bitmask(i8x16.le_u(v1, SP16)) << 16) |
          (<u64>i8x16.bitmask(i8x16.le_u(v2, SP16)) << 32) |
          (<u64>i8x16.bitmask(i8x16.le_u(v3, SP16)) << 48)
        const blank =
          <u64>i8x16.bitmask(v128.or(i8x16.eq(v0, SP16), i8x16.eq(v0, TAB16))) |
          (<u64>i8x16.bitmask(v128.or(i8x16.eq(v1, SP16), i8x16.eq(v1, TAB16))) << 16) |
          (<u64>i8x16.bitmask(v128.or(i8x16.eq(v2, SP16), i8x16.eq(v2, TAB16))) << 32) |
          (<u64>i8x16.bitmask(v128.or(i8x16.eq(v3, SP16), i8x16.eq(v3, TAB16))) << 48)
        if ((low & below) != (blank & below)) break
        const field = ~low & below
        let starts = field & ~(field << 1)
        let ends = (field << 1) & ~field
        if (popcnt(starts) != 6) break
        const f0 = <usize>ctz(ends)
        ends &= ends - 1
        starts &= starts - 1
        starts &= starts - 1
        ends &= ends - 1
        const f2 = <usize>ctz(starts)
        starts &= starts - 1
        const f2e = <usize>ctz(ends)
        ends &= ends - 1
        starts &= starts - 1
        ends &= ends - 1
        const s4 = <i32>ctz(starts)
        starts &= starts - 1
        const t4 = <i32>ctz(ends)
        const sLen = t4 - s4
        if (sLen > 16) break
        // The score's bytes end lane 15 of w.
        const w = v128.load(q0 + <usize>(t4 - 16))
        const inField = <i32>(0xffff << (16 - sLen)) & 0xffff
        const dots = i8x16.bitmask(i8x16.eq(w, DOT16)) & inField
        const digs = i8x16.bitmask(i8x16.le_u(i8x16.sub(w, ZERO16), NINE16)) & inField
        if ((digs | dots) != inField || popcnt(dots) > 1) break
        const digits = popcnt(digs)
        if (digits == 0 || digits > 15) break
        let x = w
        let frac = 0
        if (dots != 0) {
          const p = ctz(dots)
          frac = 15 - p
          // Lanes up to the dot take the lane before: the digits close up, right-aligned.
          x = i8x16.swizzle(w, i8x16.add(IOTA16, i8x16.le_s(IOTA16, i8x16.splat(<i8>p))))
        }
        const d = v128.and(
          i8x16.sub(x, ZERO16),
          i8x16.ge_s(IOTA16, i8x16.splat(<i8>(16 - digits))),
        )
        const pairs = i16x8.add(
          i16x8.mul(v128.and(d, LOWBYTE16), TEN16),
          i16x8.shr_u(d, 8),
        )
        const quads = i32x4.dot_i16x8_s(pairs, HUNDRED16)
        const mant =
          ((<i64>i32x4.extract_lane(quads, 0) * 10000 + <i64>i32x4.extract_lane(quads, 1)) *
            10000 +
            <i64>i32x4.extract_lane(quads, 2)) *
            10000 +
          <i64>i32x4.extract_lane(quads, 3)
        score = frac > 0 ? <f64>mant / unchecked(POW10[frac]) : <f64>mant
        q1 = q0 + f0
        d0 = q0 + f2
        d1 = q0 + f2e
        t0 = q0 + <usize>ctz(starts)
        i = q0 + <usize>e
        fast = true
      } while (false)
    }
    if (!fast) {
      q1 = nextLow(q0, check)
      if (!isSpace(<u32>load<u8>(q1), check)) break
      i = skipSpace(q1, check)
      if (<u32>load<u8>(i) <= 0x20) break
      i = nextLow(i, check) // iter
      if (!isSpace(<u32>load<u8>(i), check)) break
      d0 = skipSpace(i, check)
      if (<u32>load<u8>(d0) <= 0x20) break
      d1 = nextLow(d0, check)
      if (!isSpace(<u32>load<u8>(d1), check)) break
      i = skipSpace(d1, check)
      if (<u32>load<u8>(i) <= 0x20) break
      if (check) {
        // 1 to 15 digits, read exactly.
        let r: i64 = 0
        const r0 = i
        for (;;) {
          const b = <u32>load<u8>(i)
          if (b - 0x30 > 9) break
          r = r * 10 + <i64>(b - 0x30)
          i++
        }
        if (i == r0 || i - r0 > 15) break
        rank = <f64>r
      } else i = nextLow(i, check) // rank
      if (!isSpace(<u32>load<u8>(i), check)) break
      i = skipSpace(i, check)
      let mant: i64 = 0
      let digits = 0
      let frac = -1
      for (;;) {
        const b = <u32>load<u8>(i)
        if (b - 0x30 <= 9) {
          mant = mant * 10 + <i64>(b - 0x30)
          digits++
          if (frac >= 0) frac++
        } else if (b == 0x2e && frac < 0) frac = 0
        else break
        i++
      }
      if (digits == 0 || digits > 15 || !isSpace(<u32>load<u8>(i), check)) break
      score = frac > 0 ? <f64>mant / unchecked(POW10[frac]) : <f64>mant
      t0 = skipSpace(i, check)
      if (<u32>load<u8>(t0) <= 0x20) break
      i = nextLow(t0, check)
      if (check && (<i32>(i - t0) != tagLen || memory.compare(TAG, t0, tagLen) != 0)) break
      if (strict) {
        i = skipSpace(i, check)
        if (load<u8>(i) != 0x0a) break
      } else {
        // Anything but NUL may follow the tag.
        let b = <u32>load<u8>(i)
        while (b != 0x0a && b != 0) {
          i = nextLow(i + 1, check)
          b = <u32>load<u8>(i)
        }
        if (b == 0) break
      }
    }
    const same =
      haveQid &&
      <i32>(q1 - q0) == pql &&
      (pql <= 16
        ? (~i8x16.bitmask(i8x16.eq(v128.load(pq), v128.load(q0))) & ((1 << pql) - 1)) == 0
        : memory.compare(pq, q0, pql) == 0)
    const end = <i32>(i - IN)
    if (end - pos > maxLine) break
    // Taken: the hash of the doc id's whole words, then of its last bytes one by one.
    let h: i32 = <i32>0x811c9dc5
    let k = d0
    for (; k + 4 <= d1; k += 4) h = hashStep(h, load<i32>(k))
    for (; k < d1; k++) h = hashStep(h, <i32>load<u8>(k))
    if (!check) {
      let o: usize = IDS + <usize>idAt
      for (let c = d0; c < d1; c += 16) {
        v128.store(o, v128.load(c))
        o += 16
      }
    } else store<f64>(RANK + (<usize>n << 3), rank)
    idAt += <i32>(d1 - d0)
    const at = <usize>n << 2
    store<i32>(HASH + at, hashFinish(h))
    store<i32>(IDEND + at, idAt)
    store<i32>(D0 + at, <i32>(d0 - IN))
    store<f64>(SCORE + (<usize>n << 3), score)
    if (!same) {
      const gAt = GROUP + <usize>g * 12
      store<i32>(gAt, n)
      store<i32>(gAt, <i32>(q0 - IN), 4)
      store<i32>(gAt, <i32>(q1 - IN), 8)
      g++
      pq = q0
      pql = <i32>(q1 - q0)
      haveQid = true
    }
    tag = <i32>(t0 - IN)
    n++
    pos = end + 1
  }
  stopPos = pos
  groups = g
  lastTag = tag
  return n
}
