/**
 * Reference SpecAugment on the GPU (src/shaders/spec-augment.wgsl), after StftPass: zero the masked STFT frames, then
 * the inverse STFT with overlap-add and window-envelope division (torch.istft without `length`).
 */
import code from '../../../shaders/spec-augment.wgsl?raw'
import type { BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch } from './compute.ts'
import { structArrayBytes, uniformBytes } from './layout.ts'
import type { StftPass } from './stft-pass.ts'

const kWorkgroupSize = 64

/** One example's frames in the spectrum and its output place. */
export interface IstftSlot {
  firstFrame: number
  frames: number
  outputOffset: number
}

/** Records masking and the inverse STFT. */
export class SpecAugmentPass {
  private readonly mask: GPUComputePipeline
  private readonly inverse: GPUComputePipeline

  constructor(readonly device: GPUDevice, readonly pool: BufferPool, readonly stft: StftPass, readonly hop: number) {
    this.mask = computePipeline(device, 'SpecAugmentPass.maskFrames', code, 'mask_frames', { WORKGROUP_SIZE: kWorkgroupSize })
    this.inverse = computePipeline(device, 'SpecAugmentPass.istft', code, 'istft', { WORKGROUP_SIZE: kWorkgroupSize })
  }

  /**
   * @param masked `[totalFrames]` 1 where the frame is zeroed
   * @param output storage buffer receiving `Σ hop·(frames − 1)` float32 samples
   */
  record(encoder: GPUCommandEncoder, spectrum: GPUBuffer, masked: Uint32Array, slots: IstftSlot[], output: GPUBuffer, totalSamples: number): void {
    const totalFrames = masked.length
    const params = this.pool.uniform('SpecAugmentPass.params', uniformBytes(code, 'params', {
      n_fft: this.stft.nFft, hop: this.hop, bins: this.stft.bins, total_frames: totalFrames, num_examples: slots.length, total_samples: totalSamples,
    }))
    const maskBuffer = this.pool.upload('SpecAugmentPass.masked', masked)
    if (masked.some((m) => m !== 0)) {
      dispatch(encoder, 'SpecAugmentPass.maskFrames', this.mask, bindBuffers(this.device, this.mask, 'SpecAugmentPass.maskBindGroup', {
        0: params, 1: spectrum, 2: maskBuffer,
      }), Math.ceil((totalFrames * this.stft.bins) / kWorkgroupSize))
    }
    if (totalSamples === 0) return
    const table = this.pool.upload('SpecAugmentPass.examples', structArrayBytes(code, 'examples', slots.map((s) => ({
      first_frame: s.firstFrame, frames: s.frames, output_offset: s.outputOffset,
    }))))
    dispatch(encoder, 'SpecAugmentPass.istft', this.inverse, bindBuffers(this.device, this.inverse, 'SpecAugmentPass.istftBindGroup', {
      0: params, 1: spectrum, 3: table, 4: this.stft.window, 5: this.stft.twiddles, 6: output,
    }), Math.ceil(totalSamples / kWorkgroupSize))
  }
}
