/** bfloat16 round trip in place on the GPU (src/shaders/bf16.wgsl): integer-only, bit-identical to the CPU cast. */
import code from '../../../shaders/bf16.wgsl?raw'
import type { BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch } from './compute.ts'
import { uniformBytes } from './layout.ts'

const kWorkgroupSize = 64

/** Records the bf16 cast of the first `count` float32 values of `values`. */
export class Bf16Pass {
  private readonly pipeline: GPUComputePipeline

  constructor(readonly device: GPUDevice, readonly pool: BufferPool) {
    this.pipeline = computePipeline(device, 'Bf16Pass.roundToBf16', code, 'round_to_bf16', { WORKGROUP_SIZE: kWorkgroupSize })
  }

  record(encoder: GPUCommandEncoder, values: GPUBuffer, count: number): void {
    if (count === 0) return
    const params = this.pool.uniform('Bf16Pass.params', uniformBytes(code, 'params', { count }))
    dispatch(encoder, 'Bf16Pass.roundToBf16', this.pipeline,
      bindBuffers(this.device, this.pipeline, 'Bf16Pass.bindGroup', { 0: params, 1: values }), Math.ceil(count / kWorkgroupSize))
  }
}
