/**
 * Kaldi fbank on the GPU for one sample rate: `kaldi_power` (framing, DC, pre-emphasis, Povey window, float-float
 * radix-2 FFT, power; src/shaders/fbank-power.wgsl) then `mel_log` (src/shaders/mel-log.wgsl), in knf's float32 order
 * of operations as the CPU path (dsp/fbank.ts). Records into the caller's encoder.
 * Tables (window, twiddles, mel filters) are uploaded once per pass; batch buffers come from the pool.
 */
import fbankPowerCode from '../../../shaders/fbank-power.wgsl?raw'
import melLogCode from '../../../shaders/mel-log.wgsl?raw'
import { fbankOptions, type FbankOptions } from '../dsp/fbank-options.ts'
import { kaldiMelBank } from '../dsp/mel.ts'
import { poveyWindow } from '../dsp/window.ts'
import { dispatchSize, type BufferPool } from './buffer-pool.ts'
import { bindBuffers, computePipeline, dispatch, fftConstants, floatFloatTwiddles } from './compute.ts'
import { structArrayBytes, uniformBytes } from './layout.ts'

/** Threads per workgroup of the mel pass. */
const kMelWorkgroupSize = 64
/** Largest FFT of `kaldi_power`: 4·size + 4 bytes of workgroup memory within WebGPU's default 16 KiB (< 81.92 kHz). */
export const kMaxFbankFftSize = 2048

/** The fbank passes for one sample rate. */
export class FbankPass {
  readonly options: FbankOptions
  private readonly powerPipeline: GPUComputePipeline
  private readonly melPipeline: GPUComputePipeline
  private readonly window: GPUBuffer
  private readonly twiddles: GPUBuffer
  private readonly filters: GPUBuffer
  private readonly weights: GPUBuffer

  constructor(readonly device: GPUDevice, readonly pool: BufferPool, sampleRate: number, numMelBins = 80) {
    this.options = fbankOptions(sampleRate, numMelBins)
    const n = this.options.paddedLength
    this.powerPipeline = computePipeline(device, 'FbankPass.kaldiPower', fbankPowerCode, 'kaldi_power',
      fftConstants(n, kMaxFbankFftSize, `fbank at ${sampleRate} Hz`))
    this.melPipeline = computePipeline(device, 'FbankPass.melLog', melLogCode, 'mel_log', { WORKGROUP_SIZE: kMelWorkgroupSize })
    const bank = kaldiMelBank(this.options)
    const tag = `${sampleRate}`
    this.window = pool.upload(`FbankPass.window.${tag}`, poveyWindow(this.options.frameLength))
    this.twiddles = pool.upload(`FbankPass.twiddles.${tag}`, floatFloatTwiddles(n))
    this.filters = pool.upload(`FbankPass.filters.${tag}`, structArrayBytes(melLogCode, 'filters',
      Array.from(bank.start, (start, b) => ({ start, length: bank.length[b], weight_offset: bank.offset[b] }))))
    this.weights = pool.upload(`FbankPass.weights.${tag}`, bank.weights)
  }

  /**
   * Records the fbank of `totalFrames` frames whose first samples are `frameStarts` in `waveform`.
   * @param waveform storage buffer of concatenated float32 samples in [−1, 1]
   * @param frameStarts storage buffer `[totalFrames]` u32
   * @param features storage buffer receiving `[totalFrames, numMelBins]` float32
   */
  record(encoder: GPUCommandEncoder, waveform: GPUBuffer, frameStarts: GPUBuffer, totalFrames: number, features: GPUBuffer): void {
    if (totalFrames === 0) return
    const { frameLength, paddedLength, numMelBins, waveformScale, preemphasis } = this.options
    const fftBins = paddedLength / 2
    const [workgroupsX] = dispatchSize(totalFrames)
    const params = this.pool.uniform('FbankPass.powerParams', uniformBytes(fbankPowerCode, 'params', {
      frame_length: frameLength, total_frames: totalFrames, workgroups_x: workgroupsX, waveform_scale: waveformScale, preemphasis,
    }))
    const power = this.pool.get('FbankPass.power', totalFrames * fftBins * 4, GPUBufferUsage.STORAGE)
    dispatch(encoder, 'FbankPass.kaldiPower', this.powerPipeline, bindBuffers(this.device, this.powerPipeline, 'FbankPass.powerBindGroup', {
      0: params, 1: waveform, 2: frameStarts, 3: this.window, 4: this.twiddles, 5: power,
    }), totalFrames)
    const melParams = this.pool.uniform('FbankPass.melParams', uniformBytes(melLogCode, 'params', {
      total_frames: totalFrames, num_bins: numMelBins, fft_bins: fftBins,
    }))
    dispatch(encoder, 'FbankPass.melLog', this.melPipeline, bindBuffers(this.device, this.melPipeline, 'FbankPass.melBindGroup', {
      0: melParams, 1: power, 2: this.filters, 3: this.weights, 4: features,
    }), Math.ceil((totalFrames * numMelBins) / kMelWorkgroupSize))
  }
}
