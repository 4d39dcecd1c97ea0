/**
 * A lying dataset index: `_mixscope_index.parquet` of about 1 KB whose footer claims 2·10⁸ or 5·10⁹ rows. It is
 * refused as a `bad-index` warning naming the claim before any row is allocated, and the data is read instead.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { ByteWriter, parquetWriteBuffer } from 'hyparquet-writer'
import { writeMetadata } from 'hyparquet-writer/src/metadata.js'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'
import { runIsolated, tempDir } from './helpers.ts'

/** `bytes` (a parquet file) with its footer's row counts (file and every row group) replaced by `rows`. */
function withClaimedRows(bytes: Uint8Array, rows: bigint): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const footerLength = view.getUint32(bytes.length - 8, true)
  const footerStart = bytes.length - 8 - footerLength
  const meta = parquetMetadata(bytes.slice().buffer)
  meta.num_rows = rows
  for (const g of meta.row_groups) g.num_rows = rows
  const writer = new ByteWriter()
  writer.appendBytes(bytes.subarray(0, footerStart))
  const before = writer.offset
  writeMetadata(writer, meta)
  writer.appendUint32(writer.offset - before)
  writer.appendBytes(new TextEncoder().encode('PAR1'))
  return new Uint8Array(writer.getBuffer())
}

function dataset(): string {
  const root = tempDir()
  const folder = join(root, 'corpus=c/split=train/language=eng_Latn')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'part-0.parquet'), new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: 'text', type: 'STRING', data: ['a', 'b', 'c'] },
      { name: 'audio_size', type: 'INT64', data: [16000n, 32000n, 48000n] },
    ],
  })))
  return root
}

describe('a lying dataset index', () => {
  for (const claim of [200_000_000n, 5_000_000_000n]) {
    test(`an index of about 1 KB claiming ${claim} rows is a bad-index warning, and stats come from the data`, async () => {
      const root = dataset()
      const truth = await runCli(['stats', root, '--json'])
      expect(truth.code).toBe(0)
      expect((await runCli(['index', root])).code).toBe(0)
      const index = join(root, '_mixscope_index.parquet')
      writeFileSync(index, withClaimedRows(new Uint8Array(readFileSync(index)), claim))
      const run = await runIsolated(['stats', root, '--json'], 60_000)
      expect(run.timedOut).toBe(false)
      expect(run.stderr).not.toMatch(/\n\s+at /)
      expect(run.code).toBe(0)
      const out = JSON.parse(run.stdout)
      const bad = out.findings.find((f: { kind: string }) => f.kind === 'bad-index')
      expect(bad, run.stdout).toBeDefined()
      expect(bad.message).toContain(`claims ${claim} rows`)
      expect(out.totals).toEqual(JSON.parse(truth.stdout).totals)
      expect(run.peakMb).toBeLessThan(450)
    }, 120_000)
  }
})
