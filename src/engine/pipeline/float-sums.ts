/**
 * The summation orders of the libraries the reference computes mixture weights with, so float64 results match
 * bit for bit: numpy's pairwise `add.reduce` (what pandas `Series.sum()` calls) and pandas' Kahan-compensated
 * `groupby(...).sum()`.
 */

/**
 * numpy `pairwise_sum` for float64 as `np.sum` runs it (identity start, all n elements): sequential below 8 items,
 * 8 accumulators up to 128, recursive halves (rounded down to a multiple of 8) above.
 * NaNs are treated as 0 when `skipNaN` (pandas `skipna=True` fills them with 0 before summing).
 */
export function numpySum(values: readonly number[], skipNaN = true): number {
  const a = skipNaN ? values.map((v) => (Number.isNaN(v) ? 0 : v)) : values
  return pairwise(a, 0, a.length)
}

function pairwise(a: readonly number[], start: number, n: number): number {
  if (n < 8) {
    let res = -0
    for (let i = 0; i < n; i++) res += a[start + i]
    return res
  }
  if (n <= 128) {
    const r = a.slice(start, start + 8)
    let i = 8
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += a[start + i + j]
    }
    let res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for (; i < n; i++) res += a[start + i]
    return res
  }
  let n2 = Math.floor(n / 2)
  n2 -= n2 % 8
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2)
}

/**
 * pandas `groupby(key).sum()` on float64: per group, Kahan-compensated sum in row order, NaNs skipped.
 * @returns group key → sum, in first-appearance order (sort the keys yourself for pandas' `sort=True`).
 */
export function kahanGroupSum<K>(keys: readonly K[], values: readonly number[]): Map<K, number> {
  const sums = new Map<K, { sum: number; comp: number }>()
  for (let i = 0; i < keys.length; i++) {
    let acc = sums.get(keys[i])
    if (!acc) {
      acc = { sum: 0, comp: 0 }
      sums.set(keys[i], acc)
    }
    const v = values[i]
    if (Number.isNaN(v)) continue
    const y = v - acc.comp
    const t = acc.sum + y
    acc.comp = t - acc.sum - y
    acc.sum = t
  }
  return new Map([...sums].map(([k, a]) => [k, a.sum]))
}
