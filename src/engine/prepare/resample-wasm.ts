/**
 * Host side of the WebAssembly SIMD resampling kernel (wasm/resample.wat): lays out one kernel's taps and one
 * channel's padded input in the module's memory and runs whole frame pairs; resample-torchaudio.ts computes what is
 * left (at most one frame) in TypeScript. The results are bit for bit the TypeScript loop's. Used wherever
 * WebAssembly SIMD compiles synchronously (Node, Workers, browser main threads: the module is 507 bytes).
 */
import { resampleWasmBase64 } from './wasm/resample-wasm-bytes.ts'

/** A resampling kernel's phases, flattened (resample-torchaudio.ts `FlatKernel`). */
export interface FlatTaps { taps: Float64Array; start: Int32Array; length: Int32Array; offset: Int32Array }

interface Kernel {
  memory: WebAssembly.Memory
  run: (taps: number, start: number, length: number, offset: number, nw: number, orig: number, padded: number, out: number, pairs: number) => void
  /** The taps now in memory (written again when another rate pair comes). */
  loaded: FlatTaps | null
}

const PAGE = 65_536
let kernel: Kernel | null | undefined

function resampleWasmBytes(): Uint8Array<ArrayBuffer> {
  const text = atob(resampleWasmBase64)
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/** The instantiated kernel, or null where WebAssembly SIMD is missing. */
function loadKernel(): Kernel | null {
  if (kernel !== undefined) return kernel
  kernel = null
  try {
    if (typeof WebAssembly === 'undefined') return null
    const instance = new WebAssembly.Instance(new WebAssembly.Module(resampleWasmBytes()), {})
    const exports = instance.exports as { memory: WebAssembly.Memory; resample_pairs: Kernel['run'] }
    kernel = { memory: exports.memory, run: exports.resample_pairs, loaded: null }
  } catch {
    kernel = null
  }
  return kernel
}

/** Whether the kernel runs here. */
export function resampleWasmAvailable(): boolean {
  return loadKernel() !== null
}

const align8 = (n: number) => (n + 7) & ~7

/**
 * Outputs of whole frame pairs: `out[0, pairs · 2 · nw)` of `samples` resampled with `flat`, or null without the
 * kernel. `width` zeros pad the input on the left and `width + orig` on the right, as torchaudio pads it.
 * @returns `[pairs · 2 · nw]` float32
 */
export function resampleFramePairsWasm(samples: Float32Array, flat: FlatTaps, nw: number, orig: number, width: number, pairs: number): Float32Array | null {
  const k = loadKernel()
  if (!k || pairs <= 0) return null
  const tapsBytes = flat.taps.length * 8
  const tablesAt = tapsBytes
  const paddedAt = align8(tablesAt + 12 * nw)
  const paddedLength = samples.length + 2 * width + orig
  const outAt = align8(paddedAt + paddedLength * 8)
  const outLength = pairs * 2 * nw
  const needed = outAt + outLength * 4
  if (needed > k.memory.buffer.byteLength) {
    // growing keeps the memory's contents (the tables stay); the views below are made after it
    k.memory.grow(Math.ceil((needed - k.memory.buffer.byteLength) / PAGE))
  }
  const buffer = k.memory.buffer
  if (k.loaded !== flat) {
    new Float64Array(buffer, 0, flat.taps.length).set(flat.taps)
    new Int32Array(buffer, tablesAt, nw).set(flat.start)
    new Int32Array(buffer, tablesAt + 4 * nw, nw).set(flat.length)
    new Int32Array(buffer, tablesAt + 8 * nw, nw).set(flat.offset)
    k.loaded = flat
  }
  const padded = new Float64Array(buffer, paddedAt, paddedLength)
  padded.fill(0, 0, width)
  padded.set(samples, width)
  padded.fill(0, width + samples.length)
  k.run(0, tablesAt, tablesAt + 4 * nw, tablesAt + 8 * nw, nw, orig, paddedAt, outAt, pairs)
  return new Float32Array(buffer, outAt, outLength).slice()
}
