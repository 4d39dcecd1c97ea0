import { describe, expect, it } from 'vitest'
import { roundToBfloat16 } from '../../src/engine/features/dsp/bf16.ts'
import { RealFft } from '../../src/engine/features/dsp/fft.ts'
import { kaldiFbank } from '../../src/engine/features/dsp/fbank.ts'
import { layerNorm, monoMean } from '../../src/engine/features/dsp/normalize.ts'
import { PythonRandom } from '../../src/engine/random/python-random.ts'
import { applyReferenceSpecAugment, drawReferenceSpecAugment } from '../../src/engine/features/dsp/spec-augment.ts'
import { powerSpectrogramDb } from '../../src/engine/features/dsp/spectrogram.ts'
import { standardizeFeatures } from '../../src/engine/features/dsp/standardize.ts'
import { describeAdapter } from '../../src/engine/features/gpu/device.ts'
import { FeaturePipeline } from '../../src/engine/features/gpu/feature-pipeline.ts'
import { maxAbsDiff, readFeaturesMeta, readJsonFixture, readNpy, readWav16 } from '../dsp/helpers.ts'
import { gpuRequired, nodeGpu } from './node-gpu.ts'

const gpu = await nodeGpu()
const reason = typeof gpu === 'string' ? gpu : null
const pipeline = typeof gpu === 'string' ? null : new FeaturePipeline(gpu)

it(`has a WebGPU adapter (${reason ?? describeAdapter((gpu as Exclude<typeof gpu, string>).adapterInfo)})`, () => {
  if (reason && !gpuRequired) console.warn(`GPU tests skipped: ${reason}`)
  expect(reason === null || !gpuRequired, `CI=true needs a WebGPU adapter: ${reason}`).toBe(true)
})

/**
 * Fbank tolerance of the GPU path, over every value (loud and quiet mel bins alike): max |Δ| ≤ 1e-4 against the CPU
 * path and ≤ 5e-4 against torchaudio in float64 (the CPU's own bar). Both paths follow kaldi-native-fbank's float32
 * order of operations with the FFT in double (CPU) or float-float (GPU). A float32 FFT misses by ~1e-2 in the low mel
 * bins of loud frames, a pre-emphasis product fused into the subtraction by ~2e-3.
 */
const kFbankVsCpu = 1e-4
const kFbankVsTorchaudio64 = 5e-4

/** Largest |gpu − cpu| over all values (NaN counts as infinite). */
function fbankError(gpuData: Float32Array, cpuData: Float32Array): number {
  let worst = 0
  for (let i = 0; i < cpuData.length; i++) {
    const d = Math.abs(gpuData[i] - cpuData[i])
    worst = Math.max(worst, Number.isNaN(d) ? Infinity : d)
  }
  return worst
}

function sameNaN(a: Float32Array, b: Float32Array): boolean {
  return a.every((v, i) => Number.isNaN(v) === Number.isNaN(b[i]))
}

describe.skipIf(!pipeline)('GPU vs CPU (Node, webgpu package)', () => {
  const p = pipeline as FeaturePipeline
  const en = readWav16('en-16k.wav')
  const fr = readWav16('fr-16k.wav')

  it(`fbank of a two-example batch in one submission: max |Δ| vs CPU ≤ ${kFbankVsCpu} over all values`, async () => {
    const waveforms = [en.samples.subarray(0, 32000), fr.samples.subarray(0, 8000), new Float32Array(300)]
    const before = p.submissions
    const out = await p.fbank(waveforms, 16000, { standardize: false })
    expect(p.submissions - before).toBe(1)
    for (const [e, w] of waveforms.entries()) {
      const cpu = kaldiFbank(w, 16000)
      expect([out[e].frames, out[e].bins]).toEqual([cpu.frames, cpu.bins])
      const error = fbankError(out[e].data, cpu.data)
      console.info(`fbank example ${e}: max |GPU − CPU| ${error.toExponential(2)}`)
      expect(error).toBeLessThanOrEqual(kFbankVsCpu)
    }
    // a second batch of the same shape reuses every pooled buffer
    const created = p.pool.created
    await p.fbank(waveforms, 16000, { standardize: false })
    expect(p.pool.created).toBe(created)
  })

  for (const wav of readFeaturesMeta().wavs) {
    it(`fbank of ${wav.file} (${wav.sample_rate} Hz) vs torchaudio float64: max |Δ| ≤ ${kFbankVsTorchaudio64}, vs CPU ≤ ${kFbankVsCpu}`, async () => {
      const { sampleRate, samples } = readWav16(wav.file)
      const [g] = await p.fbank([samples], sampleRate, { standardize: false })
      const golden64 = readNpy(`${wav.file}.fbank64.npy`)
      expect([g.frames, g.bins]).toEqual(golden64.shape)
      const vsTorchaudio = maxAbsDiff(g.data, golden64.data), vsCpu = fbankError(g.data, kaldiFbank(samples, sampleRate).data)
      console.info(`fbank ${wav.file}: max |GPU − torchaudio f64| ${vsTorchaudio.toExponential(2)}, |GPU − CPU| ${vsCpu.toExponential(2)}`)
      expect(vsTorchaudio).toBeLessThanOrEqual(kFbankVsTorchaudio64)
      expect(vsCpu).toBeLessThanOrEqual(kFbankVsCpu)
    })
  }

  it(`fbank of a loud tone with nothing below 1 kHz (low mel bins hold only leakage) matches the CPU to ${kFbankVsCpu}`, async () => {
    // harmonics 4..16 of 250 Hz at 0.9 full scale, 16-bit: the lowest mel energies are ~1e-9 of the frame's, where a
    // float32 FFT's rounding noise alone moves their log by 1.2e-2
    const x = Float32Array.from({ length: 16000 }, (_, i) => {
      let v = 0
      for (let h = 4; h <= 16; h++) v += Math.sin((2 * Math.PI * 250 * h * i) / 16000 + h) / 13
      return Math.round(0.9 * v * 32767) / 32768
    })
    const [g] = await p.fbank([x], 16000, { standardize: false })
    const error = fbankError(g.data, kaldiFbank(x, 16000).data)
    console.info(`fbank of a 1–4 kHz tone: max |GPU − CPU| ${error.toExponential(2)}`)
    expect(error).toBeLessThanOrEqual(kFbankVsCpu)
  })

  it('fbank at 44.1 kHz (FFT 2048) matches the CPU', async () => {
    const x = Float32Array.from({ length: 8820 }, (_, i) => 0.3 * Math.sin(0.05 * i) * Math.sin(0.0007 * i) + 1e-4 * Math.cos(2.7 * i))
    const [g] = await p.fbank([x], 44100, { standardize: false })
    const cpu = kaldiFbank(x, 44100)
    expect([g.frames, g.bins]).toEqual([cpu.frames, cpu.bins])
    const error = fbankError(g.data, cpu.data)
    console.info(`fbank at 44.1 kHz: max |GPU − CPU| ${error.toExponential(2)}`)
    expect(error).toBeLessThanOrEqual(kFbankVsCpu)
  })

  it('standardized fbank and its undefined bins match the CPU; bf16 is bit-identical', async () => {
    const waveforms = [en.samples.subarray(8000, 24000), new Float32Array(1600), en.samples.subarray(0, 400)]
    const out = await p.fbank(waveforms, 16000, { standardize: true })
    for (const [e, w] of waveforms.entries()) {
      const cpu = standardizeFeatures(kaldiFbank(w, 16000))
      expect([out[e].problem, out[e].undefinedBins]).toEqual([cpu.problem, cpu.undefinedBins])
      expect(sameNaN(out[e].data, cpu.data)).toBe(true)
      const finite = (x: Float32Array) => x.map((v) => (Number.isNaN(v) ? 0 : v))
      expect(maxAbsDiff(finite(out[e].data), finite(cpu.data))).toBeLessThanOrEqual(2e-3)
    }
    const bf = await p.fbank([waveforms[0]], 16000, { standardize: false, dtype: 'bfloat16' })
    const f32 = await p.fbank([waveforms[0]], 16000, { standardize: false })
    expect(Array.from(bf[0].data)).toEqual(Array.from(roundToBfloat16(f32[0].data)))
  })

  it('mono + layer norm: |Δ| ≤ 1e-5; bf16 of edge bit patterns is bit-identical', async () => {
    const left = fr.samples.subarray(0, 20000)
    const right = en.samples.subarray(0, 20000)
    const [stereo, mono] = await p.waveform([[left, right], [en.samples]], { normalize: true })
    expect(maxAbsDiff(stereo, layerNorm(monoMean([left, right])))).toBeLessThanOrEqual(1e-5)
    expect(maxAbsDiff(mono, layerNorm(en.samples))).toBeLessThanOrEqual(1e-5)
    const cases = readJsonFixture<{ f32_bits: number }[]>('bf16.json')
      .map((c) => c.f32_bits).filter((b) => (b & 0x7f800000) !== 0 || (b & 0x7fffff) === 0) // no subnormals (GPUs may flush them)
    const values = new Float32Array(Uint32Array.from(cases).buffer)
    const [cast] = await p.waveform([[values]], { dtype: 'bfloat16' })
    expect(Array.from(new Uint32Array(cast.buffer))).toEqual(Array.from(new Uint32Array(roundToBfloat16(values).buffer)))
  })

  it('reference SpecAugment: same seed, same masks; waveform matches the CPU', async () => {
    const draw = (seed: number, n: number) => drawReferenceSpecAugment(new PythonRandom(seed), n, { p: 1, freqMaskParam: 40 })
    const a = fr.samples.subarray(0, 12345), b = en.samples.subarray(0, 9000)
    const masksA = draw(7, a.length), masksB = draw(8, b.length)
    expect(draw(7, a.length)).toEqual(masksA)
    const [ga, gb, gc] = await p.waveform([[a], [b], [b]], { specAugment: [masksA.masks, masksB.masks, null] })
    const ca = applyReferenceSpecAugment(a, masksA.masks), cb = applyReferenceSpecAugment(b, masksB.masks)
    expect([ga.length, gb.length, gc.length]).toEqual([12200, 9000, 9000])
    const errors = [maxAbsDiff(ga, ca), maxAbsDiff(gb, cb)]
    console.info(`specaugment max |Δ| ${errors.map((e) => e.toExponential(2)).join(', ')}`)
    expect(Math.max(...errors)).toBeLessThanOrEqual(1e-5)
    expect(gc).toEqual(b)
  })

  it('display spectrogram dB matches the CPU (|Δ| ≤ 0.01 dB above −60 dB)', async () => {
    const g = await p.spectrogram(en.samples, 16000, 20000)
    const c = powerSpectrogramDb(en.samples, 16000, 20000)
    expect([g.frames, g.bins]).toEqual([c.frames, c.bins])
    let worst = 0
    for (let i = 0; i < c.data.length; i++) if (c.data[i] > -60) worst = Math.max(worst, Math.abs(g.data[i] - c.data[i]))
    console.info(`spectrogram max |Δ| ${worst.toExponential(2)} dB`)
    expect(worst).toBeLessThanOrEqual(0.01)
  })

  for (const size of [512, 400]) {
    it(`real FFT of size ${size} on random frames matches the double CPU FFT (≤ 1e-5 of the peak)`, async () => {
      let s = size
      const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32 - 0.5 }
      const count = 6
      const frames = Float32Array.from({ length: count * size }, rand)
      const g = await p.realFft(frames, size)
      const rfft = new RealFft(size), spec = new Float64Array(2 * rfft.bins)
      let worst = 0, peak = 0
      for (let t = 0; t < count; t++) {
        rfft.forward(spec, frames.subarray(t * size, (t + 1) * size))
        for (let i = 0; i < spec.length; i++) {
          worst = Math.max(worst, Math.abs(g[t * spec.length + i] - spec[i]))
          peak = Math.max(peak, Math.abs(spec[i]))
        }
      }
      expect(worst / peak).toBeLessThanOrEqual(1e-5)
    })
  }
})

it.skipIf(!pipeline)('left no uncaptured GPU errors and did not lose the device', () => {
  const g = gpu as Exclude<typeof gpu, string>
  expect([g.errors, g.lostReason]).toEqual([[], null])
})
