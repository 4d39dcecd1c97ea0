/**
 * The WebAssembly SIMD resampling kernel (src/engine/prepare/wasm/resample.wat): assembled from its source as
 * committed, and bit for bit the TypeScript loop (which test/prepare/resample-torchaudio.test.ts holds to torchaudio)
 * for every rate pair the dataprep meets, lengths around the frame-pair boundary, and a long clip (memory growth).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assembleWasm, wasmBytesModule, wasmKernels } from '../../scripts/build-wasm.ts'
import { resampleTorchaudio, torchaudioKernel } from '../../src/engine/prepare/resample-torchaudio.ts'
import { resampleWasmAvailable } from '../../src/engine/prepare/resample-wasm.ts'
import { bitDifferences, randomWalk as noise } from '../helpers/signals.ts'

describe('resample WebAssembly kernel', () => {
  it('resample.wasm and resample-wasm-bytes.ts are what scripts/build-wasm.ts assembles from resample.wat', async () => {
    const k = wasmKernels.resample
    const bytes = await assembleWasm(k)
    expect(Buffer.from(readFileSync(k.wasmPath)).equals(Buffer.from(bytes)), 'run: npx tsx scripts/build-wasm.ts').toBe(true)
    expect(readFileSync(k.bytesPath, 'utf8')).toBe(wasmBytesModule(k, bytes))
  })

  it('runs in Node', () => {
    expect(resampleWasmAvailable()).toBe(true)
  })

  it('gives the TypeScript loop\'s bits for every rate and around the frame-pair boundary', () => {
    for (const rate of [8000, 11025, 22050, 24000, 32000, 44100, 48000, 96000, 12345]) {
      const { orig } = torchaudioKernel(rate, 16000)
      for (const frames of [0, 1, orig - 1, orig, 2 * orig, 2 * orig + 1, 3 * orig + 7, 50 * orig + 3, 20_011]) {
        const x = noise(frames, rate + frames)
        const wasm = resampleTorchaudio(x, rate, 16000, 'wasm')
        const js = resampleTorchaudio(x, rate, 16000, 'js')
        expect(bitDifferences(wasm, js), `${rate} Hz × ${frames}`).toEqual([])
      }
    }
  })

  it('a long clip after a short one (memory grows; the tables are written again) and back', () => {
    const short = noise(4410, 1)
    const long = noise(44100 * 90, 2)
    for (const [x, rate] of [[short, 44100], [long, 44100], [noise(48000, 3), 48000], [short, 44100]] as const) {
      expect(bitDifferences(resampleTorchaudio(x, rate, 16000, 'wasm'), resampleTorchaudio(x, rate, 16000, 'js'))).toEqual([])
    }
  })
})
