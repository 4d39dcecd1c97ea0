/**
 * Decompression bombs: a parquet page whose compressed body inflates far past the `uncompressed_page_size` its page
 * header declares (zstd RLE blocks), or whose codec's own length prefix claims 2³¹−1 bytes (snappy), is refused with
 * an error naming file, row group and column, without allocating what it claims.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { describe, expect, test } from 'vitest'
import { runIsolated, tempDir } from './helpers.ts'

/** A zstd frame (no content size, 128 KiB window) of `blocks` RLE blocks of 128 KiB each: 4 bytes per block. */
function zstdRleBomb(blocks: number): Uint8Array {
  const out = new Uint8Array(6 + 4 * blocks)
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])
  for (let i = 0; i < blocks; i++) {
    const header = (131072 << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0)
    out.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x41], 6 + 4 * i)
  }
  return out
}

/** A snappy stream whose length preamble claims 2³¹−1 bytes, followed by one literal byte. */
function snappyLiar(): Uint8Array {
  return new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x41])
}

/** A one-file dataset whose `audio_size` page is compressed by `compress` under `codec`. */
function bombDataset(codec: 'ZSTD' | 'SNAPPY', compress: (input: Uint8Array) => Uint8Array): string {
  const root = tempDir()
  const folder = join(root, 'corpus=c/split=train/language=eng_Latn')
  mkdirSync(folder, { recursive: true })
  const bytes = parquetWriteBuffer({
    codec: 'UNCOMPRESSED',
    compressors: { [codec]: compress },
    columnData: [
      { name: 'text', type: 'STRING', data: ['a', 'b', 'c'] },
      { name: 'audio_size', type: 'INT64', data: [16000n, 16000n, 16000n], codec },
    ],
  })
  writeFileSync(join(folder, 'part-0.parquet'), new Uint8Array(bytes))
  return root
}

describe('decompression bombs', () => {
  test('a zstd page of RLE blocks inflating to 600 MiB (page header: a few dozen bytes) is refused fast, in bounded memory', async () => {
    const root = bombDataset('ZSTD', () => zstdRleBomb(4800))
    const run = await runIsolated(['validate', root, '--json'], 60_000)
    expect(run.timedOut).toBe(false)
    expect(run.stderr).not.toMatch(/\n\s+at /) // no stack trace
    const findings = JSON.parse(run.stdout).findings as { path: string; row_group: number | null; message: string }[]
    const bomb = findings.find((f) => /inflates past/.test(f.message))
    expect(bomb, JSON.stringify(findings)).toBeDefined()
    expect(bomb!.path).toBe('corpus=c/split=train/language=eng_Latn/part-0.parquet')
    expect(bomb!.row_group).toBe(0)
    expect(bomb!.message).toMatch(/audio_size/)
    console.log(`zstd bomb: ${run.ms.toFixed(0)} ms, peak ${run.peakMb.toFixed(0)} MB`)
    expect(run.peakMb).toBeLessThan(450)
    expect(run.code).toBe(1)
  })

  test('a snappy page claiming 2³¹−1 bytes in 7 bytes is refused before anything is allocated', async () => {
    const root = bombDataset('SNAPPY', () => snappyLiar())
    const run = await runIsolated(['validate', root, '--json'], 60_000)
    expect(run.timedOut).toBe(false)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    const findings = JSON.parse(run.stdout).findings as { path: string; row_group: number | null; message: string }[]
    const liar = findings.find((f) => /claims 2147483647 bytes/.test(f.message))
    expect(liar, JSON.stringify(findings)).toBeDefined()
    expect(liar!.row_group).toBe(0)
    expect(liar!.message).toMatch(/audio_size/)
    expect(run.peakMb).toBeLessThan(450)
  })
})

describe('bounded decompression keeps honest pages', () => {
  test('zstd streams made by the zstd command (with and without a content size) decode to their input', async () => {
    const { execFileSync } = await import('node:child_process')
    const { boundedCompressors } = await import('../../src/engine/parquet/bounded-compressors.ts')
    const input = new Uint8Array(3_000_000)
    for (let i = 0; i < input.length; i++) input[i] = (i * 2654435761) >>> 27 // compressible, not trivial
    const dir = tempDir()
    writeFileSync(join(dir, 'x'), input)
    const withSize = new Uint8Array(execFileSync('zstd', ['-q', '-c', join(dir, 'x')]))
    const streamed = new Uint8Array(execFileSync('sh', ['-c', `cat ${join(dir, 'x')} | zstd -q -c`])) // from a pipe: no content size
    for (const frame of [withSize, streamed]) {
      expect(Buffer.compare(boundedCompressors.ZSTD!(frame, input.length), input)).toBe(0)
      expect(() => boundedCompressors.ZSTD!(frame, input.length - 1)).toThrow(/inflates past its declared/)
    }
  })
})
