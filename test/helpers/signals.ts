/** Test signals and bit-exact comparisons shared by the WebAssembly kernel tests (fbank, resampling). */

/** Speech-like noise: a random walk, deterministic for a seed. @returns `[samples]` float32 */
export function randomWalk(samples: number, seed: number): Float32Array {
  let s = seed, v = 0
  return Float32Array.from({ length: samples }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    v = 0.95 * v + 0.05 * (s / 2 ** 32 - 0.5)
    return Math.fround(v)
  })
}

/** Positions where two arrays differ bit for bit (NaN equals NaN), at most `limit` of them; `[]` when identical. */
export function bitDifferences(a: Float32Array, b: Float32Array, limit = 5): string[] {
  const out: string[] = []
  if (a.length !== b.length) return [`lengths ${a.length} vs ${b.length}`]
  for (let i = 0; i < a.length && out.length < limit; i++) if (!Object.is(a[i], b[i])) out.push(`[${i}] ${a[i]} vs ${b[i]}`)
  return out
}
