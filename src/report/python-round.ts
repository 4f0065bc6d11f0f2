/**
 * Python's float rounding and printing, exactly: what the RETECO organizers' scripts
 * (`scorer.py`, `official_baseline.py`) do to every number they report.
 *
 * - `round(x, n)` rounds the *exact binary value* of x to n decimals, ties to even, then reads
 *   the decimal back as the nearest double (CPython `double_round`: `_Py_dg_dtoa` mode 3, then
 *   `_Py_dg_strtod`). `Number.prototype.toFixed` differs: it rounds ties away from zero
 *   (`(0.125).toFixed(2)` is "0.13", Python's `round(0.125, 2)` is 0.12) and returns text.
 * - `repr(x)` / `str(x)` / `json.dumps(x)` print the shortest round-trip digits, in fixed
 *   notation when 1e-4 ≤ |x| < 1e16 (with ".0" when integral), else as `1e-05` / `1e+16`.
 * - `format(x, '.Nf')` is C's `%.Nf` (correctly rounded, ties to even), with `nan` / `inf`.
 */
import { formatFixed, roundScaledClearOfTie } from './printf.js'

const F64 = new Float64Array(1)
const U32 = new Uint32Array(F64.buffer)
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** x = mantissa · 2^exponent exactly (x finite, non-negative). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  F64[0] = x
  const hi = U32[LITTLE ? 1 : 0]!
  const lo = U32[LITTLE ? 0 : 1]!
  const biased = (hi >>> 20) & 0x7ff
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  if (biased === 0) return { mantissa: frac, exponent: -1074 }
  return { mantissa: frac | (1n << 52n), exponent: biased - 1075 }
}

/** num / den rounded to the nearest integer, ties to the even one (num, den ≥ 0, den > 0). */
function divideHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den
  const twice = 2n * (num - q * den)
  if (twice > den || (twice === den && q % 2n === 1n)) return q + 1n
  return q
}

/** Largest `ndigits` for which CPython's `round` still rounds (beyond it, `x` is returned). */
const NDIGITS_MAX = 323
/** Smallest `ndigits` for which CPython's `round` still rounds (below it, the result is ±0). */
const NDIGITS_MIN = -308

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]

/**
 * Python's `round(x, ndigits)` for a float x and an integer `ndigits` (negative allowed):
 *   round(x, n) = the double nearest to  N · 10^-n,  N = the integer nearest to x · 10^n
 * computed on the exact binary value of x, an exact tie going to the even N. The sign of x is
 * kept (`round(-0.00001, 4)` is -0.0). NaN and ±Infinity come back unchanged, as in Python;
 * `ndigits` > 323 returns x, < -308 returns ±0. A result too large for a double throws a
 * RangeError (Python: `OverflowError: rounded value too large to represent`).
 *
 * @example pythonRound(0.125, 2) // 0.12 (toFixed would give "0.13")
 * @example pythonRound(2.675, 2) // 2.67 (2.675 is 2.67499999999999982236431605997495353221893310546875)
 */
export function pythonRound(x: number, ndigits: number): number {
  if (!Number.isInteger(ndigits)) throw new TypeError(`ndigits must be an integer, got ${ndigits}`)
  if (!Number.isFinite(x)) return x
  if (ndigits > NDIGITS_MAX) return x
  const neg = x < 0 || Object.is(x, -0)
  if (ndigits < NDIGITS_MIN) return neg ? -0 : 0
  const a = Math.abs(x)
  // Fast path (see roundScaledClearOfTie): N and 10^n are then exact doubles and N / 10^n is the
  // correctly rounded quotient (= strtod).
  const fast = roundScaledClearOfTie(a, ndigits)
  if (fast >= 0) {
    const r = fast / POW10[ndigits]!
    return neg ? -r : r
  }
  const { mantissa, exponent } = decompose(a)
  let n: bigint
  if (ndigits >= 0) {
    const num = mantissa * 10n ** BigInt(ndigits)
    n = exponent >= 0 ? num << BigInt(exponent) : divideHalfEven(num, 1n << BigInt(-exponent))
  } else {
    const den = 10n ** BigInt(-ndigits)
    n =
      exponent >= 0
        ? divideHalfEven(mantissa << BigInt(exponent), den)
        : divideHalfEven(mantissa, den << BigInt(-exponent))
  }
  const r = Number(`${n}e${-ndigits}`)
  if (!Number.isFinite(r)) throw new RangeError('rounded value too large to represent')
  return neg ? -r : r
}

/**
 * Python's `repr(x)` of a float (also `str(x)`, f-string `{x}`, and `json.dumps`): the shortest
 * digits that read back as x; fixed notation when the decimal exponent e (x = d.ddd · 10^e)
 * satisfies -4 ≤ e < 16, with ".0" added to integral values (`1.0`, `0.0`, `-0.0`,
 * `0.0001`), otherwise `d.ddde±XX` with at least two exponent digits (`1e-05`, `1e+16`).
 * NaN is `nan`, infinities `inf` / `-inf` (`json.dumps` writes `NaN` / `Infinity` instead).
 *
 * @example pythonFloatRepr(0.26) // "0.26"
 * @example pythonFloatRepr(1) // "1.0"
 * @example pythonFloatRepr(0.00005) // "5e-05"
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  if (x === 0) return `${sign}0.0`
  // JavaScript's Number-to-String gives the same shortest (and closest) digits as Python's
  // repr; only the layout differs. Extract the digits and the decimal exponent.
  const s = String(Math.abs(x))
  const e = s.indexOf('e')
  const mant = e < 0 ? s : s.slice(0, e)
  let exp10 = e < 0 ? 0 : Number(s.slice(e + 1))
  const dot = mant.indexOf('.')
  let digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1)
  exp10 += (dot < 0 ? mant.length : dot) - 1
  const lead = digits.length - digits.replace(/^0+/, '').length
  digits = digits.slice(lead).replace(/0+$/, '')
  exp10 -= lead
  // x = 0.d1d2… · 10^decpt in CPython's terms: decpt = exp10 + 1; exponent form if decpt ≤ -4 or > 16.
  const decpt = exp10 + 1
  if (decpt <= -4 || decpt > 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const ae = Math.abs(exp10)
    return `${sign}${m}e${exp10 < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`
}

/**
 * Python's `format(x, '.{digits}f')` (f-string `{x:.4f}`): C's `%.Nf`, correctly rounded with
 * ties to even on the exact binary value; NaN prints `nan` (never C's `-nan`), infinities
 * `inf` / `-inf`, negative zero `-0.0000`.
 *
 * @example pythonFormatFixed(0.03125, 4) // "0.0312"
 */
export function pythonFormatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan'
  return formatFixed(x, digits)
}
