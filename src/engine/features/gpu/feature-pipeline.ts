/**
 * Feature batches on the GPU. Each batch goes through its whole path (fbank → standardize → dtype, or
 * mono → layer norm → SpecAugment → dtype) in ONE command-buffer submission, with buffers pooled across batches and
 * ONE readback (all outputs copied into one mapped buffer). Errors inside a batch reject its promise with the WGSL/API
 * validation message; device loss and uncaptured errors are recorded on the {@link Gpu}.
 */
import type { TrainingDtype } from '../dsp/bf16.ts'
import type { Features } from '../dsp/fbank.ts'
import { fbankFrameCount } from '../dsp/fbank-options.ts'
import { SPEC_AUG_HOP, SPEC_AUG_N_FFT, referenceStftFrames, type Mask } from '../dsp/spec-augment.ts'
import { spectrogramFrameCount, type SpectrogramDb, type SpectrogramOptions } from '../dsp/spectrogram.ts'
import type { StandardizeProblem } from '../dsp/standardize.ts'
import { hannWindow } from '../dsp/window.ts'
import { Bf16Pass } from './bf16-pass.ts'
import { BufferPool, recordReadback } from './buffer-pool.ts'
import type { Gpu } from './device.ts'
import { FbankPass } from './fbank-pass.ts'
import { LayerNormPass } from './layer-norm-pass.ts'
import { RealFftPass } from './real-fft-pass.ts'
import { SpecAugmentPass } from './spec-augment-pass.ts'
import { StandardizePass } from './standardize-pass.ts'
import { StftPass, type StftFrameSlot } from './stft-pass.ts'

/** Options of an fbank batch. */
export interface FbankBatchOptions {
  /** fairseq2's per-utterance standardization (default true, as the reference). */
  standardize?: boolean
  dtype?: TrainingDtype
}

/** One example's fbank from the GPU, with standardization problems like the CPU's `standardizeFeatures`. */
export interface GpuFeatures extends Features {
  /** Bins whose std was 0 or undefined (values NaN), ascending; empty without standardization. */
  undefinedBins: number[]
  problem: StandardizeProblem | null
}

/** Options of a waveform batch. */
export interface WaveformBatchOptions {
  /** `normalize_audio`: layer norm after mono. */
  normalize?: boolean
  /** Reference SpecAugment masks per example (from drawReferenceSpecAugment); omitted or empty: not applied. */
  specAugment?: (Mask[] | null)[]
  dtype?: TrainingDtype
}

/** Runs feature batches on one device; keep one per device and reuse it so buffers are pooled. */
export class FeaturePipeline {
  readonly pool: BufferPool
  private readonly fbankPasses = new Map<number, FbankPass>()
  private readonly standardizePass: StandardizePass
  private readonly bf16Pass: Bf16Pass
  private readonly layerNormPass: LayerNormPass
  private readonly specAugmentStft: StftPass
  private readonly specAugmentPass: SpecAugmentPass
  /** Command buffers submitted so far (one per batch). */
  submissions = 0

  constructor(readonly gpu: Gpu) {
    const device = gpu.device
    this.pool = new BufferPool(device)
    this.standardizePass = new StandardizePass(device, this.pool)
    this.bf16Pass = new Bf16Pass(device, this.pool)
    this.layerNormPass = new LayerNormPass(device, this.pool)
    this.specAugmentStft = new StftPass(device, this.pool, SPEC_AUG_N_FFT, hannWindow(SPEC_AUG_N_FFT, true), 'SpecAugmentStft')
    this.specAugmentPass = new SpecAugmentPass(device, this.pool, this.specAugmentStft, SPEC_AUG_HOP)
  }

  private fbankPass(sampleRate: number): FbankPass {
    let pass = this.fbankPasses.get(sampleRate)
    if (!pass) { pass = new FbankPass(this.gpu.device, this.pool, sampleRate); this.fbankPasses.set(sampleRate, pass) }
    return pass
  }

  /** Submits `encoder` (one command buffer per batch); refuses on a lost device. */
  private async submit(encoder: GPUCommandEncoder): Promise<void> {
    const device = this.gpu.device
    if (this.gpu.lostReason) throw new Error(this.gpu.lostReason)
    device.queue.submit([encoder.finish()])
    this.submissions++
  }

  /** Runs a batch inside validation and out-of-memory error scopes; rejects with the batch's own error or the first GPU error. */
  private async scoped<T>(run: () => Promise<T>): Promise<T> {
    const device = this.gpu.device
    device.pushErrorScope('out-of-memory')
    device.pushErrorScope('validation')
    const outcome = await run().then((value) => ({ value }), (error: unknown) => ({ error }))
    const validation = await device.popErrorScope()
    const memory = await device.popErrorScope()
    const gpuError = validation ?? memory
    if (gpuError) throw new Error(`gpu: ${gpuError.constructor.name}: ${gpuError.message}`)
    if ('error' in outcome) throw outcome.error
    return outcome.value
  }

  /**
   * Kaldi fbank of a batch at one sample rate (the reference locks the rate: a batch never mixes rates).
   * @param waveforms per example `[samples]` float32 (channel 0 for multi-channel audio, as the reference)
   * @returns per example `[frames, 80]`, standardized and cast as asked
   */
  fbank(waveforms: Float32Array[], sampleRate: number, options: FbankBatchOptions = {}): Promise<GpuFeatures[]> {
    return this.scoped(async () => {
      const standardize = options.standardize ?? true
      const pass = this.fbankPass(sampleRate)
      const bins = pass.options.numMelBins
      const flat = concat(waveforms)
      const starts: number[] = []
      const ranges: { firstFrame: number; frames: number }[] = []
      let sampleOffset = 0
      for (const w of waveforms) {
        const frames = fbankFrameCount(w.length, pass.options)
        ranges.push({ firstFrame: starts.length, frames })
        for (let t = 0; t < frames; t++) starts.push(sampleOffset + t * pass.options.frameShift)
        sampleOffset += w.length
      }
      const totalFrames = starts.length
      const encoder = this.gpu.device.createCommandEncoder({ label: 'FeaturePipeline.fbank' })
      const waveform = this.pool.upload('FeaturePipeline.waveform', flat)
      const frameStarts = this.pool.upload('FeaturePipeline.frameStarts', Uint32Array.from(starts))
      const features = this.pool.get('FeaturePipeline.features', totalFrames * bins * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
      pass.record(encoder, waveform, frameStarts, totalFrames, features)
      const stats = standardize && waveforms.length > 0 ? this.standardizePass.record(encoder, ranges, bins, features) : null
      if (options.dtype === 'bfloat16') this.bf16Pass.record(encoder, features, totalFrames * bins)
      const read = recordReadback(this.pool, encoder, 'FeaturePipeline.readback', [
        { buffer: features, bytes: totalFrames * bins * 4 },
        ...(stats ? [{ buffer: stats, bytes: waveforms.length * bins * 8 }] : []),
      ])
      await this.submit(encoder)
      const [featureBytes, statBytes] = await read()
      const all = new Float32Array(featureBytes)
      const std = statBytes ? new Float32Array(statBytes) : null
      return ranges.map((r, e) => {
        const undefinedBins: number[] = []
        if (std) for (let b = 0; b < bins; b++) if (!(std[2 * (e * bins + b) + 1] > 0)) undefinedBins.push(b)
        const problem: StandardizeProblem | null = undefinedBins.length === 0 ? null
          : r.frames === 0 ? 'no-frames' : r.frames === 1 ? 'one-frame' : 'zero-std'
        return { data: all.slice(r.firstFrame * bins, (r.firstFrame + r.frames) * bins), frames: r.frames, bins, undefinedBins, problem }
      })
    })
  }

  /**
   * Waveform path of a batch: mono (channel mean) → layer norm (if `normalize`) → reference SpecAugment (where masks are
   * given; output truncated to 200·⌊N/200⌋) → dtype.
   * @param examples per example its channels, each `[samples]` float32
   */
  waveform(examples: Float32Array[][], options: WaveformBatchOptions = {}): Promise<Float32Array[]> {
    return this.scoped(async () => {
      const device = this.gpu.device
      const encoder = device.createCommandEncoder({ label: 'FeaturePipeline.waveform' })
      const slots = []
      let inputOffset = 0, outputOffset = 0
      for (const channels of examples) {
        const length = channels[0]?.length ?? 0
        if (channels.some((c) => c.length !== length)) throw new Error('gpu: all channels of an example must have the same length')
        slots.push({ inputOffset, outputOffset, length, channels: Math.max(channels.length, 1) })
        inputOffset += length * channels.length
        outputOffset += length
      }
      const input = this.pool.upload('FeaturePipeline.channels', concat(examples.flat()))
      const mono = this.pool.get('FeaturePipeline.mono', outputOffset * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
      this.layerNormPass.record(encoder, slots, input, mono, options.normalize ?? false)
      const lengths = slots.map((s) => s.length)
      const masks = options.specAugment ?? []
      let result = mono
      const outputOffsets = slots.map((s) => s.outputOffset)
      if (masks.some((m) => m)) {
        // augmented examples first (the iSTFT writes one contiguous range), then the others copied unchanged
        const frames: StftFrameSlot[] = [], masked: number[] = [], istftSlots = []
        let out = 0
        for (const [e, slot] of slots.entries()) {
          const exampleMasks = masks[e]
          if (!exampleMasks) continue
          if (slot.length <= SPEC_AUG_N_FFT / 2) throw new Error(`specaugment: reflect padding needs more than 200 samples, example ${e} has ${slot.length}`)
          const T = referenceStftFrames(slot.length)
          istftSlots.push({ firstFrame: frames.length, frames: T, outputOffset: out })
          const flags = new Uint8Array(T)
          for (const m of exampleMasks) flags.fill(1, Math.min(m.start, T), Math.min(m.start + m.length, T))
          for (let t = 0; t < T; t++) {
            frames.push({ sampleOffset: slot.outputOffset, numSamples: slot.length, start: t * SPEC_AUG_HOP - SPEC_AUG_N_FFT / 2 })
            masked.push(flags[t])
          }
          lengths[e] = SPEC_AUG_HOP * (T - 1)
          outputOffsets[e] = out
          out += lengths[e]
        }
        const augmentedSamples = out
        for (const [e, slot] of slots.entries()) if (!masks[e]) { outputOffsets[e] = out; out += slot.length }
        result = this.pool.get('FeaturePipeline.augmented', out * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST)
        const spectrum = this.specAugmentStft.recordForward(encoder, mono, frames)
        this.specAugmentPass.record(encoder, spectrum, Uint32Array.from(masked), istftSlots, result, augmentedSamples)
        for (const [e, slot] of slots.entries()) {
          if (!masks[e] && slot.length > 0) encoder.copyBufferToBuffer(mono, slot.outputOffset * 4, result, outputOffsets[e] * 4, slot.length * 4)
        }
      }
      const total = lengths.reduce((a, b) => a + b, 0)
      if (options.dtype === 'bfloat16') this.bf16Pass.record(encoder, result, total)
      const read = recordReadback(this.pool, encoder, 'FeaturePipeline.readback', [{ buffer: result, bytes: total * 4 }])
      await this.submit(encoder)
      const [bytes] = await read()
      const all = new Float32Array(bytes)
      return lengths.map((n, e) => all.slice(outputOffsets[e], outputOffsets[e] + n))
    })
  }

  /**
   * Display spectrogram of `x[start, end)` (power STFT in dB, periodic Hann, no centering), as CPU `powerSpectrogramDb`.
   */
  spectrogram(x: Float32Array, start = 0, end = x.length, options: SpectrogramOptions = {}): Promise<SpectrogramDb> {
    return this.scoped(async () => {
      const nFft = options.nFft ?? 400, hop = options.hop ?? 160, floor = options.floor ?? 1e-10
      if (!(start >= 0 && end <= x.length && start <= end)) throw new Error(`spectrogram: window [${start}, ${end}) is outside [0, ${x.length})`)
      const pass = new StftPass(this.gpu.device, this.pool, nFft, hannWindow(nFft, true), 'Spectrogram')
      const frames = spectrogramFrameCount(end - start, nFft, hop)
      const slots = Array.from({ length: frames }, (_, t) => ({ sampleOffset: 0, numSamples: x.length, start: start + t * hop }))
      const encoder = this.gpu.device.createCommandEncoder({ label: 'FeaturePipeline.spectrogram' })
      const input = this.pool.upload('FeaturePipeline.spectrogramInput', x)
      const spectrum = pass.recordForward(encoder, input, slots)
      const decibels = pass.recordPowerDb(encoder, spectrum, frames, floor)
      const read = recordReadback(this.pool, encoder, 'FeaturePipeline.readback', [{ buffer: decibels, bytes: frames * pass.bins * 4 }])
      await this.submit(encoder)
      const [bytes] = await read()
      return { data: new Float32Array(bytes), frames, bins: pass.bins, nFft, hop }
    })
  }

  /**
   * Real FFT of frames stored back to back: radix-2 in workgroup memory for powers of two ≤ 4096, the direct DFT of
   * stft.wgsl otherwise (e.g. 400).
   * @param frames `[count, size]` float32
   * @returns `[count, size/2 + 1]` interleaved (re, im) float32
   */
  realFft(frames: Float32Array, size: number): Promise<Float32Array> {
    return this.scoped(async () => {
      const count = Math.floor(frames.length / size)
      const bins = Math.floor(size / 2) + 1
      const encoder = this.gpu.device.createCommandEncoder({ label: 'FeaturePipeline.realFft' })
      const input = this.pool.upload('FeaturePipeline.fftInput', frames)
      let spectrum: GPUBuffer
      if ((size & (size - 1)) === 0 && size >= 4 && size <= 4096) {
        spectrum = new RealFftPass(this.gpu.device, this.pool, size).record(encoder, input, count)
      } else {
        const pass = new StftPass(this.gpu.device, this.pool, size, new Float32Array(size).fill(1), 'RealFft')
        spectrum = pass.recordForward(encoder, input, Array.from({ length: count }, (_, t) => ({ sampleOffset: t * size, numSamples: size, start: 0 })))
      }
      const read = recordReadback(this.pool, encoder, 'FeaturePipeline.readback', [{ buffer: spectrum, bytes: count * bins * 8 }])
      await this.submit(encoder)
      const [bytes] = await read()
      return new Float32Array(bytes)
    })
  }

  /** Releases every pooled buffer. */
  destroy(): void {
    this.pool.destroy()
  }
}

function concat(arrays: Float32Array[]): Float32Array {
  const out = new Float32Array(Math.max(arrays.reduce((n, a) => n + a.length, 0), 1))
  let at = 0
  for (const a of arrays) { out.set(a, at); at += a.length }
  return out
}
