/** The run's file layout, resuming after a cancel, and determinism, on an in-memory sink (engine level). */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { scanInput } from '../../src/engine/prepare/inputs/scan.ts'
import { planPrepare } from '../../src/engine/prepare/plan.ts'
import { runPrepare, STATE_FILE } from '../../src/engine/prepare/run.ts'
import { createMemorySink } from '../../src/engine/prepare/write/sink.ts'
import { bufferShuffleOrder } from '../../src/engine/prepare/shuffle/buffer-shuffle.ts'
import { makeNemo } from './make-inputs.ts'

describe('runPrepare', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-run-'))
  mkdirSync(dir, { recursive: true })
  makeNemo(dir)

  async function plan() {
    const { input, scan } = await scanInput(await createFsSource(dir))
    return { input, plan: await planPrepare(scan, input, { split: 'train', language: ['eng_Latn'], corpus: 'test' }) }
  }

  it('orders each partition as the reference\'s shuffle does and splits it into files and row groups', async () => {
    const { input, plan: p } = await plan()
    expect(p.partitions.length).toBe(1)
    // eligible rows: the stream's shuffle order with the skipped rows taken out
    const stream = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] // every row with a language (the broken JSON line has none)
    const rows = await p.partitions[0].rows.read(0, p.partitions[0].rows.length)
    const order = bufferShuffleOrder(stream.length).map((i) => stream[i]).filter((i) => rows.some((r) => r.index === i))
    expect(rows.map((r) => r.index)).toEqual(order)
    const sink = createMemorySink()
    const report = await runPrepare({ plan: p, input, sink, processClip: processClipNode, rowsPerFile: 3, rowsPerGroup: 2 })
    expect(report.files.map((f) => [f.path.replace(/^.*\//, ''), f.rows])).toEqual([['part-0.parquet', 3], ['part-1.parquet', 3], ['part-2.parquet', 2]])
  })

  it('resumes a cancelled run after its last finished file, with the same bytes as a run without a cancel', async () => {
    const { input, plan: p } = await plan()
    const whole = createMemorySink()
    await runPrepare({ plan: p, input, sink: whole, processClip: processClipNode, rowsPerFile: 3, rowsPerGroup: 2 })
    const sink = createMemorySink()
    const controller = new AbortController()
    await expect(runPrepare({
      plan: p, input, sink, processClip: processClipNode, rowsPerFile: 3, rowsPerGroup: 2, signal: controller.signal,
      onProgress: (pr) => { if (pr.filesWritten === 1) controller.abort(new Error('cancelled by the test')) },
    })).rejects.toThrow('cancelled by the test')
    expect([...sink.files.keys()].filter((k) => k.endsWith('.parquet')).length).toBe(1)
    expect(sink.files.has(STATE_FILE)).toBe(true)
    let resumed = 0
    await runPrepare({ plan: p, input, sink, processClip: processClipNode, rowsPerFile: 3, rowsPerGroup: 2, onProgress: (pr) => { resumed = pr.rowsResumed } })
    expect(resumed).toBeGreaterThan(0)
    for (const [path, bytes] of whole.files) {
      if (path === STATE_FILE) continue
      expect(sink.files.get(path), path).toEqual(bytes)
    }
  })
})
