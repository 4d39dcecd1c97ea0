import { describe, expect, it } from 'vitest'
import { bucketByLength } from '../../src/engine/pipeline/bucket-by-length.ts'
import { staticBatches } from '../../src/engine/pipeline/static-batching.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'

// bucket table (batchSize, seqLen): (3, 2), (2, 4), (1, 8)
const table = [{ batchSize: 2, seqLen: 4 }, { batchSize: 3, seqLen: 2 }, { batchSize: 1, seqLen: 8 }]
const opts = (dropRemainder = false) => ({ lengthOf: (x: number) => Math.floor(x / 100), minDataLen: 2, dropRemainder })
// items encode id*1 + length*100, e.g. 301 = length 3, id 1

describe('bucketByLength', () => {
  it('skips below/above, puts items in the first bucket with seqLen ≥ length, emits full buckets in insertion order', async () => {
    const skipped: [number, string][] = []
    const items = [100, 201, 302, 203, 404, 905, 206, 707, 308]
    const out = await collect(bucketByLength(items, table, { ...opts(), onSkip: (x, why) => skipped.push([x, why]) }))
    // 100 below (len 1); 201 -> b0; 302 -> b1; 203 -> b0; 404 -> b1 full -> [302,404]; 905 above (9>8);
    // 206 -> b0 full -> [201,203,206]; 707 -> b2 full -> [707]; 308 -> b1; end: flush b1 [308] topped up from b0 (empty)
    expect(out).toEqual([[302, 404], [201, 203, 206], [707], [308]])
    expect(skipped).toEqual([[100, 'below'], [905, 'above']])
  })

  it('at end of input tops up larger buckets from the back of smaller ones, largest first', async () => {
    const items = [201, 202, 303, 504]
    // b0 [201,202]; b1 [303]; b2 gets 504 -> full -> [504]; end: b1 [303] + back of b0 (202) -> [303, 202]; then b0 [201]
    expect(await collect(bucketByLength(items, table, opts()))).toEqual([[504], [303, 202], [201]])
  })

  it('drop_remainder discards the first leftover batch that is not full and stops', async () => {
    const dropped: number[][] = []
    const items = [201, 202, 303, 304, 305]
    // b1 gets 303,304 -> full -> [303,304]; 305 -> b1; end: b1 [305] topped up with 202 -> [305,202] full -> yielded;
    // b0 [201] not full -> dropped, end
    const out = await collect(bucketByLength(items, table, { ...opts(true), onDropRemainder: (b) => dropped.push(b) }))
    expect(out).toEqual([[303, 304], [305, 202]])
    expect(dropped).toEqual([[201]])
  })

  it('guarantees count × bucket length ≤ M for any input', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 9) * 100 + i)
    const sorted = [...table].sort((a, b) => a.seqLen - b.seqLen)
    for (const batch of await collect(bucketByLength(items, table, opts()))) {
      const maxLen = Math.max(...batch.map((x) => Math.floor(x / 100)))
      const bucket = sorted.find((b) => b.seqLen >= maxLen)!
      expect(batch.length * bucket.seqLen).toBeLessThanOrEqual(8)
    }
  })
})

describe('staticBatches', () => {
  it('groups consecutively and keeps the remainder unless drop_remainder', async () => {
    expect(await collect(staticBatches([1, 2, 3, 4, 5], 2, false))).toEqual([[1, 2], [3, 4], [5]])
    const dropped: number[][] = []
    expect(await collect(staticBatches([1, 2, 3, 4, 5], 2, true, (b) => dropped.push(b)))).toEqual([[1, 2], [3, 4]])
    expect(dropped).toEqual([[5]])
    expect(await collect(staticBatches([1, 2, 3, 4], 2, true))).toEqual([[1, 2], [3, 4]])
  })

  it('rejects batch_size 0', async () => {
    await expect(collect(staticBatches([1], 0, false))).rejects.toThrow(/batch_size ≥ 1.*got 0/)
  })
})
