/**
 * Host side of the WebAssembly SIMD fbank kernel (wasm/fbank.wat): lays out its memory, writes the tables of one
 * {@link FbankOptions} (window, FFT plan, mel segments) once, and runs whole utterances. The kernel computes exactly
 * what FbankComputer's TypeScript loop computes (bit for bit, four frames at once); FbankComputer uses it wherever
 * WebAssembly SIMD compiles synchronously (Node, Workers, and browser main threads, which allow that below 4 KiB: the
 * module is ~2.6 KiB) and falls back to the TypeScript loop otherwise.
 */
import type { RealFftPlan } from './fft.ts'
import type { FbankOptions } from './fbank-options.ts'
import type { MelSegments } from './mel-segments.ts'
import { fbankWasmBase64 } from './wasm/fbank-wasm-bytes.ts'

/** float32 machine epsilon, Kaldi's log floor (as fbank.ts). */
const FLT_EPSILON = 1.1920928955078125e-7
const PAGE = 65536

let compiled: WebAssembly.Module | null | undefined

/** The kernel's bytes (wasm/fbank.wasm, embedded as base64 so every bundler and Node load it the same way). */
export function fbankWasmBytes(): Uint8Array<ArrayBuffer> {
  const text = atob(fbankWasmBase64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/** The compiled kernel, or null where WebAssembly SIMD is missing or synchronous compilation is refused. */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    compiled = null
    try {
      const bytes = fbankWasmBytes()
      if (typeof WebAssembly !== 'undefined' && WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes)
    } catch {
      compiled = null // e.g. a runtime without SIMD, or one that refuses synchronous compilation
    }
  }
  return compiled
}

interface KernelExports {
  memory: WebAssembly.Memory
  fbank(wave: number, out: number, frames: number): void
}

/** Byte offsets of the kernel's tables and scratch (the config block at 0 names them to the kernel; see fbank.wat). */
function kernelLayout(options: FbankOptions, half: number, twiddleCount: number) {
  let at = 128
  const take = (bytes: number) => { const start = at; at = Math.ceil((at + bytes) / 16) * 16; return start }
  const layout = {
    window: take(4 * options.frameLength), reversed: take(4 * half), twiddles: take(8 * twiddleCount),
    splitCos: take(8 * half), splitSin: take(8 * half), segmentEnd: take(4 * (options.numMelBins + 1)),
    currentWeight: take(4 * half), nextWeight: take(4 * half), frameA: take(16 * 2 * half), frameB: take(16 * 2 * half),
    bufA: take(16 * 2 * half), bufB: take(16 * 2 * half), power: take(16 * half),
  }
  return { ...layout, end: at }
}

/** One kernel instance for one set of fbank options (its own memory). */
export class FbankKernel {
  private constructor(private readonly exports: KernelExports, private readonly options: FbankOptions,
    /** First byte after the tables and scratch: an utterance's output rows, then its samples. */
    private readonly dynamicBase: number) {}

  /**
   * A kernel for `options`, or null when the kernel cannot run here or the FFT is not the radix path.
   * @param window `[frameLength]` float32 Povey window
   * @param mel the mel bank as segments
   * @param fft the plan of RealFft(paddedLength)
   */
  static create(options: FbankOptions, window: Float32Array, mel: MelSegments, fft: RealFftPlan | null): FbankKernel | null {
    const module = kernelModule()
    if (!module || !fft || fft.half < 2) return null
    const exports = new WebAssembly.Instance(module, { env: { log: Math.log } }).exports as unknown as KernelExports
    const { half } = fft, { frameLength, numMelBins } = options
    const at = kernelLayout(options, half, fft.twiddles.length)
    growTo(exports.memory, at.end)
    const memory = exports.memory.buffer
    const f64 = new Float64Array(memory), f32 = new Float32Array(memory)
    new Int32Array(memory, 0, 19).set([frameLength, options.frameShift, half, fft.firstRadix, numMelBins, mel.firstBin,
      at.window, at.reversed, at.twiddles, at.splitCos, at.splitSin, at.segmentEnd, at.currentWeight, at.nextWeight,
      at.frameA, at.frameB, at.bufA, at.bufB, at.power])
    f32[80 / 4] = options.waveformScale
    f32[84 / 4] = options.preemphasis
    f32[88 / 4] = FLT_EPSILON
    f32.set(window, at.window / 4)
    new Int32Array(memory, at.reversed, half).set(fft.reversed)
    f64.set(fft.twiddles, at.twiddles / 8)
    f64.set(fft.splitCos, at.splitCos / 8)
    f64.set(fft.splitSin, at.splitSin / 8)
    new Int32Array(memory, at.segmentEnd, numMelBins + 1).set(mel.segmentEnd)
    f32.set(mel.currentWeight.subarray(0, half), at.currentWeight / 4)
    f32.set(mel.nextWeight.subarray(0, half), at.nextWeight / 4)
    // frames A and B stay zero past frameLength: the kernel writes only the first frameLength samples
    return new FbankKernel(exports, options, at.end)
  }

  /**
   * Fills `out` `[frames, numMelBins]` with the fbank of `waveform` (frames = fbankFrameCount(waveform.length)).
   */
  compute(waveform: Float32Array, frames: number, out: Float32Array): void {
    if (frames === 0) return
    const { frameLength, frameShift, numMelBins } = this.options
    const samples = (frames - 1) * frameShift + frameLength
    const outBytes = (frames + 3) * numMelBins * 4 // three spare rows: a last group of fewer than four repeats its last frame
    const outAt = this.dynamicBase, waveAt = outAt + outBytes
    growTo(this.exports.memory, waveAt + 4 * samples)
    const memory = this.exports.memory.buffer
    new Float32Array(memory, waveAt, samples).set(waveform.subarray(0, samples))
    this.exports.fbank(waveAt, outAt, frames)
    out.set(new Float32Array(memory, outAt, frames * numMelBins))
  }
}

function growTo(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE))
}
