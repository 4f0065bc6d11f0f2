/**
 * numpy's pairwise summation (`np.sum` / `np.add.reduce` on contiguous float64 data, numpy
 * 1.24): fewer than 8 values are added left to right; up to 128 values use 8 running
 * accumulators over the first n − n mod 8 values, combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)),
 * then the remaining values are added one by one; longer arrays are split at a multiple of 8
 * near the middle and the halves summed recursively. Emulated so float results match bit for bit.
 */
export function numpyPairwiseSum(
  values: ArrayLike<number>,
  start = 0,
  length = values.length - start,
): number {
  if (length < 8) {
    let res = 0
    for (let i = 0; i < length; i++) res += values[start + i]!
    return res
  }
  if (length <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => values[start + j]!)
    const whole = length - (length % 8)
    for (let i = 8; i < whole; i += 8) {
      for (let j = 0; j < 8; j++) r[j] = r[j]! + values[start + i + j]!
    }
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!))
    for (let i = whole; i < length; i++) res += values[start + i]!
    return res
  }
  let half = Math.floor(length / 2)
  half -= half % 8
  return (
    numpyPairwiseSum(values, start, half) + numpyPairwiseSum(values, start + half, length - half)
  )
}
