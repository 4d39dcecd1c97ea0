import { describe, expect, it } from 'vitest'
import { resolve } from 'node:path'
import { getPreset } from '../../src/engine/pipeline/config/presets.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { batchesTable, EXAMPLE_COLUMNS, examplesFromTable, examplesTable, planIpcFile, tableFromTransfer, tableToTransfer } from '../../src/engine/batches/arrow.ts'
import { batchJsonLine } from '../../src/engine/batches/jsonl.ts'
import { planDataset } from '../../src/engine/batches/plan-dataset.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'
import type { PlannedBatch } from '../../src/engine/pipeline/plan-batches.ts'

const demoRoot = resolve(import.meta.dirname, '../../public/demo/version=0')

async function demoBatches(): Promise<PlannedBatch[]> {
  const dataset = await openDataset(await createFsSource(demoRoot))
  return collect(planDataset(dataset, getPreset('ctc-finetune').config, { split: 'train' }).batches, 6)
}

describe('plan as Arrow', () => {
  it('writes an Arrow IPC file with the export columns, whose rows equal the JSONL', async () => {
    const batches = await demoBatches()
    const bytes = planIpcFile(batches)
    const magic = new TextDecoder().decode(bytes.subarray(0, 6))
    expect(magic).toBe('ARROW1')
    expect(new TextDecoder().decode(bytes.subarray(bytes.length - 6))).toBe('ARROW1')
    const table = tableFromTransfer(bytes)
    expect(table.schema.fields.map((f) => f.name)).toEqual([...EXAMPLE_COLUMNS])
    expect(table.schema.fields.map((f) => String(f.type))).toEqual(['Int32', 'Dictionary<Int32, Utf8>', 'Int32', 'Int32', 'Dictionary<Int32, Utf8>', 'Dictionary<Int32, Utf8>', 'Dictionary<Int32, Utf8>', 'Int64', 'Int32'])
    const fromJsonl = batches.flatMap((b) => JSON.parse(batchJsonLine(b)).examples.map((e: Record<string, unknown>) => ({ batch: b.index, ...e })))
    const fromArrow = table.toArray().map((row) => { const o = row.toJSON(); return { ...o, length: Number(o.length) } })
    expect(fromArrow).toEqual(fromJsonl)
    expect(table.numRows).toBeGreaterThan(20)
  })

  it('round-trips examples with their text across a transfer buffer', async () => {
    const batches = await demoBatches()
    const back = examplesFromTable(tableFromTransfer(tableToTransfer(examplesTable(batches, { text: true }))))
    expect(back).toEqual(batches.flatMap((b) => b.examples.map((example) => ({ batch: b.index, example }))))
  })

  it('summarizes batch compositions: size, longest, padded elements', async () => {
    const batches = await demoBatches()
    const t = batchesTable(batches)
    expect(t.numRows).toBe(batches.length)
    batches.forEach((b, i) => {
      const longest = Math.max(...b.examples.map((e) => e.length))
      expect(t.getChild('examples')!.get(i)).toBe(b.examples.length)
      expect(t.getChild('padded_elements')!.get(i)).toBe(BigInt(longest * b.examples.length))
      expect(t.getChild('step')!.get(i)).toBe(b.step)
    })
  })
})
