/**
 * The `-q` line writer of the trec_eval drop-in (AssemblyScript, compiled to WebAssembly by
 * `scripts/build-wasm.mjs` into `src/trec-eval/query-lines.wasm.ts`). For one query it writes
 * the lines `label qid TAB value NL` of a plan of lines, each value printed as trec_eval does:
 * `%6.4f`, or `%ld` of the truncated value. It takes the values it can print exactly without the
 * general printf (what `ByteOutput.fixedLine` and `longLine` print on their fast path) and stops
 * before any other line, which JavaScript writes; see `src/trec-eval/query-lines.ts`.
 *
 * A plan line is three i32: the start and end of its label in `LABELS`, and its kind and value:
 * `kind | index << 2` with kind 0 `%6.4f` of value `index`, 1 `%ld`, 2 written by the caller.
 */

/** Most lines in a plan. */
const PLAN_CAP: i32 = 8192
/** Most label bytes. */
const LABELS_CAP: i32 = 256 * 1024
/** Most values. */
const VALUES_CAP: i32 = 8192
/** Longest query id. */
const QID_CAP: i32 = 64 * 1024
/** Output buffer; a call stops before a line that might not fit. */
const OUT_CAP: i32 = 256 * 1024
/** Bytes past an area that 16-byte copies may touch. */
const SLACK: i32 = 64

const PLAN: usize = (__heap_base + 15) & ~15
const LABELS: usize = PLAN + <usize>(PLAN_CAP * 12)
const VALUES: usize = LABELS + <usize>(LABELS_CAP + SLACK)
const QID: usize = VALUES + (<usize>VALUES_CAP << 3)
const OUT: usize = QID + <usize>(QID_CAP + SLACK)
const END: usize = OUT + <usize>(OUT_CAP + SLACK)

memory.grow(<i32>((END + 0xffff) >> 16) - memory.size())

/** Bytes the last call wrote at `OUT`. */
export let written: i32 = 0

/**
 * The layout: 0 PLAN, 1 LABELS, 2 VALUES, 3 QID, 4 OUT, 5 PLAN_CAP, 6 LABELS_CAP, 7 VALUES_CAP,
 * 8 QID_CAP, 9 OUT_CAP.
 */
export function layout(k: i32): i32 {
  if (k == 0) return <i32>PLAN
  if (k == 1) return <i32>LABELS
  if (k == 2) return <i32>VALUES
  if (k == 3) return <i32>QID
  if (k == 4) return <i32>OUT
  if (k == 5) return PLAN_CAP
  if (k == 6) return LABELS_CAP
  if (k == 7) return VALUES_CAP
  if (k == 8) return QID_CAP
  return OUT_CAP
}

/** Copy `n` bytes 16 at a time (both areas have slack for the last copy). */
// @ts-ignore: decorator
@inline
function copy(to: usize, from: usize, n: usize): void {
  for (let c: usize = 0; c < n; c += 16) v128.store(to + c, v128.load(from + c))
}

/** Write the digits of `x` (0 <= x < 10^18) at `o`; returns the end. */
// @ts-ignore: decorator
@inline
function digits(o: usize, x: u64): usize {
  let len: usize = 1
  for (let y = x; y >= 10; y /= 10) len++
  let p = o + len
  do {
    const q = x / 10
    store<u8>(--p, <u8>(0x30 + (x - q * 10)))
    x = q
  } while (x > 0)
  return o + len
}

/**
 * Write lines `from` to `to` of the plan for the query id of `qidLen` bytes at `QID`, until a
 * line of kind 2, a value without the fast path, or the output buffer is nearly full. Returns
 * the index of the first line not written (`to` when all were); `written` is the byte count.
 */
export function lines(from: i32, to: i32, qidLen: i32): i32 {
  let o: usize = OUT
  const limit: usize = OUT + <usize>OUT_CAP
  let k = from
  for (; k < to; k++) {
    const at = PLAN + <usize>k * 12
    const l0 = <usize>load<i32>(at)
    const l1 = <usize>load<i32>(at, 4)
    const kv = load<i32>(at, 8)
    if (o + (l1 - l0) + <usize>qidLen + 32 > limit) break
    const kind = kv & 3
    if (kind == 2) break
    const v = load<f64>(VALUES + (<usize>(kv >> 2) << 3))
    let n: u64 = 0
    if (kind == 0) {
      // %6.4f: as ByteOutput.fixedLine, 0 <= v (not -0) with v * 10^4 clear of a rounding tie.
      if (!(v > 0 || (v == 0 && 1 / v > 0))) break
      const scaled = v * 1e4
      if (!(scaled < 1073741824)) break
      const floor = Math.floor(scaled)
      const frac = scaled - floor
      if (Math.abs(frac - 0.5) <= 1e-6) break
      n = <u64>(frac > 0.5 ? floor + 1 : floor)
      if (n >= 1000000000) break
    } else {
      // %ld of the truncated value, as ByteOutput.longLine.
      const t = Math.trunc(v)
      if (!(t >= 0 && t < 1e15)) break
      n = <u64>t
    }
    copy(o, LABELS + l0, l1 - l0)
    o += l1 - l0
    copy(o, QID, <usize>qidLen)
    o += <usize>qidLen
    store<u8>(o++, 0x09)
    if (kind == 0) {
      const ip = n / 10000
      let f = n - ip * 10000
      o = digits(o, ip)
      store<u8>(o, 0x2e)
      store<u8>(o + 4, <u8>(0x30 + f % 10))
      f /= 10
      store<u8>(o + 3, <u8>(0x30 + f % 10))
      f /= 10
      store<u8>(o + 2, <u8>(0x30 + f % 10))
      store<u8>(o + 1, <u8>(0x30 + f / 10))
      o += 5
    } else o = digits(o, n)
    store<u8>(o++, 0x0a)
  }
  written = <i32>(o - OUT)
  return k
}
