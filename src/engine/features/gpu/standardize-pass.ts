/**
 * Per-example, per-mel-bin standardization on the GPU (src/shaders/standardize.wgsl): unbiased std, no epsilon,
 * NaN where undefined, plus a `[examples, bins]` (mean, std) stats buffer for reporting.
 */
import code from '../../../shaders/standardize.wgsl?raw'
import type { BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch } from './compute.ts'
import { structArrayBytes, uniformBytes } from './layout.ts'

const kWorkgroupSize = 64

/** Records standardization of features in place. */
export class StandardizePass {
  private readonly pipeline: GPUComputePipeline

  constructor(readonly device: GPUDevice, readonly pool: BufferPool) {
    this.pipeline = computePipeline(device, 'StandardizePass.standardize', code, 'standardize', { WORKGROUP_SIZE: kWorkgroupSize })
  }

  /**
   * @param examples frame ranges of each example within `features`
   * @param features `[frames, bins]` float32, standardized in place
   * @returns the stats buffer `[examples, bins]` of (mean, std) float32 pairs
   */
  record(encoder: GPUCommandEncoder, examples: { firstFrame: number; frames: number }[], bins: number, features: GPUBuffer): GPUBuffer {
    const stats = this.pool.get('StandardizePass.stats', examples.length * bins * 8, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC)
    const table = this.pool.upload('StandardizePass.examples', structArrayBytes(code, 'examples',
      examples.map((e) => ({ first_frame: e.firstFrame, frames: e.frames }))))
    const params = this.pool.uniform('StandardizePass.params', uniformBytes(code, 'params', { num_examples: examples.length, num_bins: bins, nan_bits: 0x7fc00000 }))
    dispatch(encoder, 'StandardizePass.standardize', this.pipeline, bindBuffers(this.device, this.pipeline, 'StandardizePass.bindGroup', {
      0: params, 1: table, 2: features, 3: stats,
    }), Math.ceil((examples.length * bins) / kWorkgroupSize))
    return stats
  }
}
