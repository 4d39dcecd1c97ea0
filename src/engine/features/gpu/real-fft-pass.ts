/** Plain batched real FFT (entry point `real_fft` of src/shaders/fbank-power.wgsl): float-float radix-2, f32 output. */
import code from '../../../shaders/fbank-power.wgsl?raw'
import { dispatchSize, type BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch, fftConstants, floatFloatTwiddles } from './compute.ts'
import { uniformBytes } from './layout.ts'

/** Records one-sided spectra of frames stored back to back. */
export class RealFftPass {
  private readonly pipeline: GPUComputePipeline
  private readonly twiddles: GPUBuffer

  /** @param size a power of two, 4..4096 */
  constructor(readonly device: GPUDevice, readonly pool: BufferPool, readonly size: number) {
    this.pipeline = computePipeline(device, 'RealFftPass.realFft', code, 'real_fft', fftConstants(size, 4096, 'real FFT'))
    this.twiddles = pool.upload(`RealFftPass.twiddles.${size}`, floatFloatTwiddles(size))
  }

  /** @returns the spectrum buffer `[count, size/2 + 1]` of (re, im) float32 pairs */
  record(encoder: GPUCommandEncoder, frames: GPUBuffer, count: number): GPUBuffer {
    const bins = this.size / 2 + 1
    const spectrum = this.pool.get('RealFftPass.spectrum', count * bins * 8, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
    if (count === 0) return spectrum
    const [workgroupsX] = dispatchSize(count)
    const params = this.pool.uniform('RealFftPass.params', uniformBytes(code, 'params', {
      frame_length: this.size, total_frames: count, workgroups_x: workgroupsX, waveform_scale: 1, preemphasis: 0,
    }))
    dispatch(encoder, 'RealFftPass.realFft', this.pipeline, bindBuffers(this.device, this.pipeline, 'RealFftPass.bindGroup', {
      0: params, 1: frames, 4: this.twiddles, 5: spectrum,
    }), count)
    return spectrum
  }
}
