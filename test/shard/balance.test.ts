/** Contiguous shard ranges balanced by compressed bytes. */
import { describe, expect, it } from 'vitest'
import { balancedRanges, rowGroupUnits } from '../../src/engine/shard/balance.ts'
import { query } from '../helpers/duckdb.ts'
import { demoRoot, openFixture } from '../audit/helpers.ts'

/** The cut that minimises the largest shard, by brute force over every placement of the boundaries (small inputs). */
function bestMax(weights: number[], count: number): number {
  let best = Infinity
  const go = (start: number, k: number, worst: number) => {
    if (k === 1) { best = Math.min(best, Math.max(worst, weights.slice(start).reduce((a, b) => a + b, 0))); return }
    for (let end = start; end <= weights.length; end++) go(end, k - 1, Math.max(worst, weights.slice(start, end).reduce((a, b) => a + b, 0)))
  }
  go(0, count, 0)
  return best
}

describe('shard ranges', () => {
  it('tile the units in order, for every count', () => {
    const weights = [5, 1, 1, 9, 2, 2, 2, 7, 0, 3]
    for (let n = 1; n <= 14; n++) {
      const ranges = balancedRanges(weights, n)
      expect(ranges).toHaveLength(n)
      expect(ranges[0].first).toBe(0)
      expect(ranges[n - 1].end).toBe(weights.length)
      for (let k = 1; k < n; k++) expect(ranges[k].first).toBe(ranges[k - 1].end)
    }
    expect(balancedRanges([], 3)).toEqual([{ first: 0, end: 0 }, { first: 0, end: 0 }, { first: 0, end: 0 }])
    expect(balancedRanges([0, 0, 0, 0], 2)).toEqual([{ first: 0, end: 2 }, { first: 2, end: 4 }])
    expect(() => balancedRanges([1], 0)).toThrow(/positive integer/)
  })

  it('balance bytes: the largest shard is within one unit of the best contiguous cut', () => {
    let seed = 1
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let trial = 0; trial < 40; trial++) {
      const weights = Array.from({ length: 4 + Math.floor(rnd() * 10) }, () => Math.floor(rnd() * 1000))
      const n = 1 + Math.floor(rnd() * 4)
      const sums = balancedRanges(weights, n).map((r) => weights.slice(r.first, r.end).reduce((a, b) => a + b, 0))
      expect(Math.max(...sums)).toBeLessThanOrEqual(bestMax(weights, n) + Math.max(...weights))
    }
  })

  it('units are the row groups of the readable files in dataset order, weighed by their compressed bytes (DuckDB parquet_metadata)', async () => {
    const dataset = await openFixture(demoRoot)
    const units = rowGroupUnits(dataset)
    const meta = await query(`SELECT file_name, row_group_id, sum(total_compressed_size)::BIGINT AS bytes FROM parquet_metadata('${demoRoot}/**/*.parquet') GROUP BY ALL`)
    const expected = new Map(meta.map((m) => [`${String(m.file_name).slice(demoRoot.length + 1)}#${m.row_group_id}`, m.bytes]))
    expect(units.length).toBe(expected.size)
    for (const u of units) expect(u.bytes).toBe(expected.get(`${dataset.files[u.file].path}#${u.rowGroup}`))
    const order = units.map((u) => [u.file, u.rowGroup])
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]))
  })
})
