/** `writeJson` streams exactly the bytes of `formatJson` (merged documents are written with it). */
import { describe, expect, it } from 'vitest'
import { formatJson, writeJson } from '../../src/cli/lib/io.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { auditFixture, openFixture } from '../audit/helpers.ts'

async function streamed(value: unknown, depth?: number): Promise<string> {
  const chunks: string[] = []
  await writeJson(value, (t) => { chunks.push(t) }, depth)
  return chunks.join('')
}

describe('writeJson', () => {
  it('gives formatJson\'s bytes for odd values at every depth', async () => {
    const odd = {
      a: 1, b: [], c: {}, d: [1, [2, [3, { e: NaN, f: Infinity, g: -0, h: undefined }]]], i: 'line\nbreak "quoted" ≤ é 😀',
      j: undefined, k: [undefined, () => 1, null, 10n], l: { m: { n: { o: [] } } }, p: null, q: true,
    }
    for (const depth of [0, 1, 2, 3, 6]) expect(await streamed(odd, depth), `depth ${depth}`).toBe(formatJson(odd))
    for (const v of [null, 1, 'x', [], {}, [[]], [{}]]) expect(await streamed(v)).toBe(formatJson(v))
  })

  it('gives formatJson\'s bytes for an audit report, in many chunks', async () => {
    const report = await auditDataset(await openFixture(auditFixture('meta')))
    const chunks: string[] = []
    await writeJson({ ...report, timing: { seconds: 1.5 } }, (t) => { chunks.push(t) })
    expect(chunks.join('')).toBe(formatJson({ ...report, timing: { seconds: 1.5 } }))
  })
})
