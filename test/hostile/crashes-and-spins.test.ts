/**
 * Inputs that crashed or spun: fbank on a 1 Hz WAV, a `partition_filters` nested 50,000 parentheses deep,
 * `batch_size=1e12` with STATIC batching and `--world-size 1e9`. Each is an error naming the value, fast, with no
 * stack trace.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'
import { runIsolated, tempDir } from './helpers.ts'

/** A WAV header and `n` 16-bit samples at `rate` Hz (written by hand: sox refuses a 1 Hz rate). */
function wav(rate: number, n: number): Uint8Array {
  const out = Buffer.alloc(44 + 2 * n)
  out.write('RIFF', 0); out.writeUInt32LE(36 + 2 * n, 4); out.write('WAVEfmt ', 8)
  out.writeUInt32LE(16, 16); out.writeUInt16LE(1, 20); out.writeUInt16LE(1, 22); out.writeUInt32LE(rate, 24)
  out.writeUInt32LE(rate * 2, 28); out.writeUInt16LE(2, 32); out.writeUInt16LE(16, 34); out.write('data', 36); out.writeUInt32LE(2 * n, 40)
  for (let i = 0; i < n; i++) out.writeInt16LE((i * 300) % 30000, 44 + 2 * i)
  return out
}

/** One partition holding a dataprep fixture file. */
function dataset(): string {
  const root = tempDir()
  const fixture = fileURLToPath(new URL('../fixtures/parquet/dataprep', import.meta.url))
  const file = (readdirSync(fixture, { recursive: true }) as string[]).find((f) => f.endsWith('.parquet'))!
  mkdirSync(join(root, 'corpus=c/split=train/language=eng_Latn'), { recursive: true })
  cpSync(join(fixture, file), join(root, 'corpus=c/split=train/language=eng_Latn/part-0.parquet'))
  return root
}

const noStack = /\n\s+at /

describe('crashes and spins', () => {
  test('fbank on a 1 Hz WAV is an error naming the rate, exit 1, no stack trace', async () => {
    const path = join(tempDir(), 'one-hz.wav')
    writeFileSync(path, wav(1, 100))
    const run = await runCli(['fbank', path])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/fbank: sample rate must be ≥ 100 Hz, got 1 /)
    expect(run.stderr).not.toMatch(noStack)
  })

  test('a partition filter nested 50,000 parentheses deep is a usage error, not a stack overflow', async () => {
    const deep = '('.repeat(50_000) + 'pc.field("language") == "x"' + ')'.repeat(50_000)
    const run = await runCli(['batches', dataset(), '--split', 'train', '--set', `fragment_streaming.partition_filters=${JSON.stringify([deep])}`])
    expect(run.stderr).toMatch(/partition filter: nested more than 100 levels deep/)
    expect(run.stderr).not.toMatch(/Maximum call stack|RangeError/)
    expect(run.stderr).not.toMatch(noStack)
    expect(run.stderr.length).toBeLessThan(5000) // the 100 KB filter is not echoed whole
  })

  test('batch_size=1e12 with STATIC batching is a config error naming the key, at once', async () => {
    const run = await runIsolated(['batches', dataset(), '--split', 'train', '--set', 'example_shuffle_window=100', '--set', 'batch_size=1e12',
      '--set', 'batching_strategy=STATIC', '--max-batches', '2'], 20_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/static-batch-size-out-of-range: batch_size = 1000000000000/)
  })

  test('--world-size 1e9 is a config error naming world_size, at once', async () => {
    const run = await runIsolated(['batches', dataset(), '--split', 'train', '--set', 'example_shuffle_window=100', '--world-size', '1000000000', '--max-batches', '2'], 20_000)
    expect(run.timedOut).toBe(false)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/world-size-out-of-range: world_size = 1000000000/)
  })
})
