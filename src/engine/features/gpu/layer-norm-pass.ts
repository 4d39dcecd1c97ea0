/**
 * Waveform path on the GPU (src/shaders/layer-norm.wgsl): channel mean, then layer norm over each utterance
 * (population variance, eps 1e-5), one workgroup per example.
 */
import code from '../../../shaders/layer-norm.wgsl?raw'
import { LAYER_NORM_EPS } from '../dsp/normalize.ts'
import type { BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch } from './compute.ts'
import { structArrayBytes, uniformBytes } from './layout.ts'

/** Threads per example. */
const kWorkgroupSize = 256

/** Where one example's channels are in the input and where its mono output goes. */
export interface WaveformSlot {
  inputOffset: number
  outputOffset: number
  length: number
  channels: number
}

/** Records mono + (optionally) layer norm for a batch. */
export class LayerNormPass {
  private readonly pipeline: GPUComputePipeline

  constructor(readonly device: GPUDevice, readonly pool: BufferPool) {
    this.pipeline = computePipeline(device, 'LayerNormPass.layerNorm', code, 'layer_norm', { WORKGROUP_SIZE: kWorkgroupSize })
  }

  record(encoder: GPUCommandEncoder, slots: WaveformSlot[], input: GPUBuffer, output: GPUBuffer, normalize: boolean): void {
    if (slots.length === 0) return
    const table = this.pool.upload('LayerNormPass.examples', structArrayBytes(code, 'examples', slots.map((s) => ({
      input_offset: s.inputOffset, output_offset: s.outputOffset, length: s.length, channels: s.channels,
    }))))
    const params = this.pool.uniform('LayerNormPass.params', uniformBytes(code, 'params', {
      num_examples: slots.length, eps: LAYER_NORM_EPS, normalize: normalize ? 1 : 0,
    }))
    dispatch(encoder, 'LayerNormPass.layerNorm', this.pipeline, bindBuffers(this.device, this.pipeline, 'LayerNormPass.bindGroup', {
      0: params, 1: table, 2: input, 3: output,
    }), slots.length)
  }
}
