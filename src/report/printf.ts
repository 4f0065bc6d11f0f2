/**
 * C `printf` number formatting, exactly: `%.Nf` rounds the exact binary value half-to-even
 * (glibc), which differs from `Number.prototype.toFixed` (half away from zero) on exact ties
 * such as 1/32 = 0.03125 → "0.0312" (toFixed gives "0.0313").
 */

const F64 = new Float64Array(1)
const U8 = new Uint8Array(F64.buffer)

function signBit(x: number): boolean {
  F64[0] = x
  return (U8[7]! & 0x80) !== 0
}

/** `%.{digits}f` of glibc, including `inf`, `-inf`, `nan`, `-nan` and `-0.0000`. */
export function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return signBit(x) ? '-nan' : 'nan'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  const neg = signBit(x)
  const a = Math.abs(x)
  let s = a >= 1e21 ? BigInt(a).toString() + (digits > 0 ? '.' + '0'.repeat(digits) : '') : a.toFixed(digits)
  // Ties at the last digit need the exact decimal expansion (cheap pre-check first).
  const scaled = a * 10 ** digits
  if (a < 1e21 && Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) {
    const exact = a.toFixed(Math.min(100, digits + 60))
    const cut = exact.indexOf('.') + 1 + digits
    const tail = exact.slice(cut)
    if (/^50*$/.test(tail)) {
      const truncated = digits === 0 ? exact.slice(0, cut - 1) : exact.slice(0, cut)
      const last = truncated.charCodeAt(truncated.length - 1) - 48
      if (last % 2 === 0) s = truncated
    }
  }
  return neg ? '-' + s : s
}

/** `%{width}.{digits}f`: right-aligned in `width` columns. */
export function printfFixed(x: number, width: number, digits: number): string {
  return formatFixed(x, digits).padStart(width, ' ')
}

/** `%-{width}s`: left-aligned, padded with spaces, never cut. */
export function padRight(s: string, width: number): string {
  return s.length >= width ? s : s + ' '.repeat(width - s.length)
}
