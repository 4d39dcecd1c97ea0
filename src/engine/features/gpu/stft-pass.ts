/**
 * Short-time DFT on the GPU (src/shaders/stft.wgsl) for any n_fft (400 here): `dft_forward` over a frame table, and
 * `power_db` for the display spectrogram. A direct DFT rather than Bluestein: 400 multiply-adds per output, exact
 * twiddle lookups (k·n mod N) and f32 error of a single sum, versus three chained 1024-point FFTs whose chirp makes f32
 * errors grow; the cost (≈ 6.4 M multiply-adds per second of 16 kHz audio at hop 200) is small for a GPU.
 */
import code from '../../../shaders/stft.wgsl?raw'
import type { BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch, twiddleTable } from './compute.ts'
import { structArrayBytes, uniformBytes } from './layout.ts'

const kWorkgroupSize = 64

/** One frame of the batch: `start` relative to its example (negative or past the end → reflect padding). */
export interface StftFrameSlot {
  sampleOffset: number
  numSamples: number
  start: number
}

/** Records DFTs of frames and their dB power. */
export class StftPass {
  private readonly forward: GPUComputePipeline
  private readonly powerDb: GPUComputePipeline
  readonly bins: number
  readonly twiddles: GPUBuffer
  readonly window: GPUBuffer

  /** @param window `[nFft]` analysis window */
  constructor(readonly device: GPUDevice, readonly pool: BufferPool, readonly nFft: number, window: Float32Array, label = 'StftPass') {
    this.bins = Math.floor(nFft / 2) + 1
    this.forward = computePipeline(device, 'StftPass.dftForward', code, 'dft_forward', { WORKGROUP_SIZE: kWorkgroupSize })
    this.powerDb = computePipeline(device, 'StftPass.powerDb', code, 'power_db', { WORKGROUP_SIZE: kWorkgroupSize })
    this.twiddles = pool.upload(`${label}.twiddles.${nFft}`, twiddleTable(nFft, nFft))
    this.window = pool.upload(`${label}.window.${nFft}`, window)
  }

  private params(totalFrames: number, floor: number): GPUBuffer {
    return this.pool.uniform(`StftPass.params.${floor === 0 ? 'forward' : 'powerDb'}`, uniformBytes(code, 'params', { n_fft: this.nFft, bins: this.bins, total_frames: totalFrames, floor }))
  }

  /**
   * Records the one-sided spectra of `frames`.
   * @returns the spectrum buffer `[frames, bins]` of (re, im) float32 pairs
   */
  recordForward(encoder: GPUCommandEncoder, waveform: GPUBuffer, frames: StftFrameSlot[]): GPUBuffer {
    const spectrum = this.pool.get('StftPass.spectrum', frames.length * this.bins * 8, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
    if (frames.length === 0) return spectrum
    const table = this.pool.upload('StftPass.frames', structArrayBytes(code, 'frames', frames.map((f) => ({
      sample_offset: f.sampleOffset, num_samples: f.numSamples, start: f.start,
    }))))
    dispatch(encoder, 'StftPass.dftForward', this.forward, bindBuffers(this.device, this.forward, 'StftPass.forwardBindGroup', {
      0: this.params(frames.length, 0), 1: waveform, 2: table, 3: this.window, 4: this.twiddles, 5: spectrum,
    }), Math.ceil((frames.length * this.bins) / kWorkgroupSize))
    return spectrum
  }

  /**
   * Records `10·log10(max(|X|², floor))` of a spectrum.
   * @returns the dB buffer `[frames, bins]` float32
   */
  recordPowerDb(encoder: GPUCommandEncoder, spectrum: GPUBuffer, totalFrames: number, floor: number): GPUBuffer {
    const decibels = this.pool.get('StftPass.decibels', totalFrames * this.bins * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
    if (totalFrames === 0) return decibels
    dispatch(encoder, 'StftPass.powerDb', this.powerDb, bindBuffers(this.device, this.powerDb, 'StftPass.powerDbBindGroup', {
      0: this.params(totalFrames, floor), 5: spectrum, 6: decibels,
    }), Math.ceil((totalFrames * this.bins) / kWorkgroupSize))
    return decibels
  }
}
