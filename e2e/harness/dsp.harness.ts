/**
 * DSP harness: runs every feature op on the page's WebGPU device and on the CPU reference, and returns the largest
 * differences, so e2e/dsp.spec.ts can assert GPU-vs-CPU agreement inside Chromium (SwiftShader in CI).
 */
import {
  applyReferenceSpecAugment,
  createFeaturePipeline,
  describeAdapter,
  drawReferenceSpecAugment,
  getGpu,
  kaldiFbank,
  layerNorm,
  powerSpectrogramDb,
  PythonRandom,
  RealFft,
  roundToBfloat16,
  standardizeFeatures,
} from '../../src/engine/index.ts'
import type { FeaturePipeline } from '../../src/engine/features/gpu/feature-pipeline.ts'

/** What `dspGpuVsCpu` reports: max |GPU − CPU| per op (NaN where the positions of NaN differ). */
export interface DspParityReport {
  adapter: string | null
  /** Why there is no GPU, when there is none. */
  unavailable: string | null
  /** Fbank of synthetic speech (two examples, one batch): max |GPU − CPU| over all values. */
  fbank: number
  /** Fbank of a loud 1–4 kHz tone, whose low mel bins hold only leakage (where a float32 FFT misses by ~1e-2). */
  fbankTone: number
  standardize: number
  bf16Identical: boolean
  normalize: number
  specAugment: number
  masksIdentical: boolean
  spectrogramDb: number
  fft512: number
  fft400: number
  submissionsPerBatch: number
  gpuErrors: string[]
}

/** A deterministic speech-like test signal: a gliding harmonic tone with syllable-rate envelope and a little noise. */
export function syntheticSpeech(seconds: number, sampleRate = 16000): Float32Array {
  let seed = 12345
  const noise = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32 - 0.5 }
  const x = new Float32Array(Math.round(seconds * sampleRate))
  let phase = 0
  for (let i = 0; i < x.length; i++) {
    const t = i / sampleRate
    phase += (2 * Math.PI * (120 + 30 * Math.sin(2 * Math.PI * 0.7 * t))) / sampleRate
    let v = 0
    for (let k = 1; k <= 12; k++) v += Math.sin(k * phase) / k
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t)
    x[i] = 0.2 * envelope * v + 0.01 * noise()
  }
  return x
}

/** Harmonics 4..16 of 250 Hz at 0.9 full scale, 16-bit: nothing below 1 kHz, so the lowest mel bins hold only leakage. */
function loudTone(samples: number): Float32Array {
  return Float32Array.from({ length: samples }, (_, i) => {
    let v = 0
    for (let h = 4; h <= 16; h++) v += Math.sin((2 * Math.PI * 250 * h * i) / 16000 + h) / 13
    return Math.round(0.9 * v * 32767) / 32768
  })
}

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = a.length === b.length ? 0 : Infinity
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = Math.abs(a[i] - b[i])
    if (Number.isNaN(a[i]) && Number.isNaN(b[i])) continue
    m = Number.isNaN(d) ? NaN : Math.max(m, d)
  }
  return m
}

async function fftError(p: FeaturePipeline, size: number): Promise<number> {
  const frames = syntheticSpeech((4 * size) / 16000)
  const g = await p.realFft(frames, size)
  const rfft = new RealFft(size), spec = new Float64Array(2 * rfft.bins)
  let worst = 0, peak = 0
  for (let t = 0; t < 4; t++) {
    rfft.forward(spec, frames.subarray(t * size, (t + 1) * size))
    for (let i = 0; i < spec.length; i++) {
      worst = Math.max(worst, Math.abs(g[t * spec.length + i] - spec[i]))
      peak = Math.max(peak, Math.abs(spec[i]))
    }
  }
  return worst / peak
}

/** Runs all GPU-vs-CPU comparisons on `seconds` of synthetic speech. */
async function dspGpuVsCpu(seconds = 1.5): Promise<DspParityReport> {
  const gpu = await getGpu(navigator.gpu)
  const empty = { fbank: NaN, fbankTone: NaN, standardize: NaN, bf16Identical: false, normalize: NaN, specAugment: NaN,
    masksIdentical: false, spectrogramDb: NaN, fft512: NaN, fft400: NaN, submissionsPerBatch: NaN, gpuErrors: [] }
  if (typeof gpu === 'string') return { adapter: null, unavailable: gpu, ...empty }
  const p = await createFeaturePipeline(gpu)
  const x = syntheticSpeech(seconds)
  const short = x.subarray(0, 8000)

  const before = p.submissions
  const [g1, g2] = await p.fbank([x, short], 16000, { standardize: false })
  const submissionsPerBatch = p.submissions - before
  const fbank = Math.max(maxAbs(g1.data, kaldiFbank(x, 16000).data), maxAbs(g2.data, kaldiFbank(short, 16000).data))
  const tone = loudTone(16000)
  const [gt] = await p.fbank([tone], 16000, { standardize: false })
  const fbankTone = maxAbs(gt.data, kaldiFbank(tone, 16000).data)
  const [gs] = await p.fbank([x], 16000, { standardize: true })
  const standardize = maxAbs(gs.data, standardizeFeatures(kaldiFbank(x, 16000)).data)
  const [gb] = await p.fbank([short], 16000, { standardize: false, dtype: 'bfloat16' })
  const bf16Identical = maxAbs(gb.data, roundToBfloat16(g2.data)) === 0

  const [gn] = await p.waveform([[x]], { normalize: true })
  const normalize = maxAbs(gn, layerNorm(x))

  const draw = () => drawReferenceSpecAugment(new PythonRandom(2024), x.length, { p: 1, freqMaskParam: 60 })
  const masks = draw()
  const masksIdentical = JSON.stringify(draw()) === JSON.stringify(masks)
  const [ga] = await p.waveform([[x]], { specAugment: [masks.masks] })
  const specAugment = maxAbs(ga, applyReferenceSpecAugment(x, masks.masks))

  const gd = await p.spectrogram(x, 1600, 9600)
  const cd = powerSpectrogramDb(x, 1600, 9600)
  let spectrogramDb = 0
  for (let i = 0; i < cd.data.length; i++) if (cd.data[i] > -60) spectrogramDb = Math.max(spectrogramDb, Math.abs(gd.data[i] - cd.data[i]))

  const report: DspParityReport = {
    adapter: describeAdapter(gpu.adapterInfo), unavailable: null, fbank, fbankTone, standardize, bf16Identical, normalize,
    specAugment, masksIdentical, spectrogramDb, fft512: await fftError(p, 512), fft400: await fftError(p, 400),
    submissionsPerBatch, gpuErrors: [...gpu.errors],
  }
  p.destroy()
  return report
}

/** Adds the DSP functions to the harness object (`window.mixscopeHarness`). */
export function register(h: Record<string, unknown>): void {
  h.dspGpuVsCpu = dspGpuVsCpu
  h.syntheticSpeech = (seconds: number) => Array.from(syntheticSpeech(seconds))
}
