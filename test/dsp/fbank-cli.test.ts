import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runFbank } from '../../src/cli/commands/fbank.ts'
import { kaldiFbank } from '../../src/engine/features/dsp/fbank.ts'
import { npyDecode } from '../../src/engine/core/npy.ts'
import { featureFixtures, maxAbsDiff, readNpy, readWav16 } from './helpers.ts'

function collector() {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (t: string) => { out.stdout += t }, stderr: (t: string) => { out.stderr += t } } }
}

describe('mixscope fbank (CPU)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-fbank-'))
  const wav = featureFixtures + 'fr-16k.wav'

  it('writes [frames, 80] .npy equal to the engine and prints the --json summary', async () => {
    const { out, io } = collector()
    const npy = join(dir, 'fr.npy')
    expect(await runFbank([wav, '--out', npy, '--json'], io)).toBe(0)
    const summary = JSON.parse(out.stdout)
    expect(summary).toMatchObject({ schema_version: 1, frames: 215, bins: 80, device: 'cpu', adapter: null, findings: [] })
    expect(summary.seconds_of_audio).toBeCloseTo(34667 / 16000, 9)
    expect(summary.wall_ms).toBeGreaterThan(0)
    const written = npyDecode(new Uint8Array(readFileSync(npy)))
    expect(written.shape).toEqual([215, 80])
    const { samples } = readWav16('fr-16k.wav')
    expect(Array.from(written.data)).toEqual(Array.from(kaldiFbank(samples, 16000).data))
  })

  it('--standardize --dtype bfloat16 to .json matches torch within bf16 rounding', async () => {
    const { io } = collector()
    const json = join(dir, 'fr.json')
    expect(await runFbank([wav, '--standardize', '--dtype', 'bfloat16', '--out', json], io)).toBe(0)
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { shape: number[]; data: number[][] }
    expect(doc.shape).toEqual([215, 80])
    const golden = readNpy('fr-16k.wav.fbank-std.npy').data
    // bf16 keeps 8 significant bits: relative error ≤ 2^-8
    const flat = doc.data.flat()
    expect(maxAbsDiff(flat, golden)).toBeLessThan(0.05)
    expect(flat.every((v, i) => Math.abs(v - golden[i]) <= Math.abs(golden[i]) * 2 ** -8 + 1e-4)).toBe(true)
  })

  it('reports a too-short file as an error finding (exit 1) and rejects bad options', async () => {
    const { out, io } = collector()
    const { writeFileSync } = await import('node:fs')
    const short = join(dir, 'short.wav')
    const bytes = readFileSync(wav)
    // keep the 44-byte header, 300 samples of data, and patch the chunk sizes
    const cut = Buffer.from(bytes.subarray(0, 44 + 600))
    cut.writeUInt32LE(36 + 600, 4)
    cut.writeUInt32LE(600, 40)
    writeFileSync(short, cut)
    expect(await runFbank([short, '--standardize', '--json'], io)).toBe(1)
    const summary = JSON.parse(out.stdout)
    expect(summary.frames).toBe(0)
    expect(summary.findings[0]).toMatchObject({ severity: 'error', kind: 'fbank-standardize-undefined' })
    await expect(runFbank([wav, '--dtype', 'f16'], io)).rejects.toThrow('fbank: --dtype must be one of float32, bfloat16 (got "f16")')
    await expect(runFbank([wav, '--out', 'x.txt'], io)).rejects.toThrow(/\.npy or \.json/)
  })
})
