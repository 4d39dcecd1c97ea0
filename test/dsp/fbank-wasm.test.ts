import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assembleWasm, wasmBytesModule, wasmKernels } from '../../scripts/build-wasm.ts'
import { FbankComputer } from '../../src/engine/features/dsp/fbank.ts'
import { fbankWasmBytes } from '../../src/engine/features/dsp/fbank-wasm.ts'
import { readFeaturesMeta, readWav16 } from './helpers.ts'
import { bitDifferences as differences, randomWalk as noise } from '../helpers/signals.ts'

describe('fbank WebAssembly kernel (src/engine/features/dsp/wasm/fbank.wat)', () => {
  it('fbank.wasm and fbank-wasm-bytes.ts are what scripts/build-wasm.ts assembles from fbank.wat', async () => {
    const k = wasmKernels.fbank
    const bytes = await assembleWasm(k)
    expect(Buffer.from(readFileSync(k.wasmPath)).equals(Buffer.from(bytes)), 'run: npx tsx scripts/build-wasm.ts').toBe(true)
    expect(readFileSync(k.bytesPath, 'utf8')).toBe(wasmBytesModule(k, bytes))
    expect(Buffer.from(fbankWasmBytes()).equals(Buffer.from(bytes))).toBe(true)
    // browsers compile modules synchronously on the main thread only below 4 KiB (FbankComputer's constructor is sync)
    expect(bytes.length).toBeLessThan(4096)
  })

  it('runs in Node (WebAssembly SIMD), and the TypeScript loop stays available', () => {
    expect(new FbankComputer(16000).engine).toBe('wasm')
    expect(new FbankComputer(16000, 80, 'js').engine).toBe('js')
  })

  for (const wav of readFeaturesMeta().wavs) {
    it(`is bit-identical to the TypeScript loop on ${wav.file} (${wav.sample_rate} Hz)`, () => {
      const { sampleRate, samples } = readWav16(wav.file)
      const wasm = new FbankComputer(sampleRate, 80, 'wasm').compute(samples)
      const js = new FbankComputer(sampleRate, 80, 'js').compute(samples)
      expect(wasm.frames).toBe(wav.frames)
      expect(differences(wasm.data, js.data)).toEqual([])
    })
  }

  // 8 kHz: FFT 256 (radix-2 first stage), 44.1 and 48 kHz: FFT 2048 (radix-4 first stage); 23 and 40 mel bins
  for (const [rate, bins] of [[8000, 80], [16000, 23], [16000, 40], [44100, 80], [48000, 80]]) {
    it(`is bit-identical to the TypeScript loop at ${rate} Hz with ${bins} mel bins`, () => {
      const x = noise(Math.round(rate * 1.3), rate + bins)
      const wasm = new FbankComputer(rate, bins, 'wasm').compute(x)
      const js = new FbankComputer(rate, bins, 'js').compute(x)
      expect([wasm.frames, wasm.bins]).toEqual([js.frames, bins])
      expect(differences(wasm.data, js.data)).toEqual([])
    })
  }

  it('handles every frame count modulo 4, silence, NaN, subarrays and a growing then shrinking utterance', () => {
    const wasm = new FbankComputer(16000, 80, 'wasm'), js = new FbankComputer(16000, 80, 'js')
    const long = noise(16000 * 40, 7)
    const cases: Float32Array[] = [
      ...[0, 399, 400, 560, 720, 880, 1040, 1200].map((n) => long.subarray(123, 123 + n)), // 0..6 frames
      new Float32Array(4000), // silence: ln(FLT_EPSILON)
      long, // 40 s: the kernel's memory grows
      Float32Array.from(noise(2000, 3), (v, i) => (i === 900 ? NaN : v)),
      long.subarray(5000, 9000),
    ]
    for (const x of cases) {
      const a = wasm.compute(x), b = js.compute(x)
      expect([a.frames, a.bins]).toEqual([b.frames, b.bins])
      expect(differences(a.data, b.data)).toEqual([])
    }
  })
})
