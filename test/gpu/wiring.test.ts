/**
 * The GPU wiring on a mocked device (test/gpu/mock-device.ts), so it is tested where no adapter exists: which passes a
 * batch records, with which pipelines and override constants, what each bind group binds (sizes, usages, the entry
 * point's own bindings), how many workgroups each pass dispatches, what the uniforms and tables hold, and that a batch
 * is ONE submission. The numbers the shaders compute are tested on a real adapter (features.gpu.test.ts, e2e/dsp.spec.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { fbankFrameCount, fbankOptions } from '../../src/engine/features/dsp/fbank-options.ts'
import type { Mask } from '../../src/engine/features/dsp/spec-augment.ts'
import type { Gpu } from '../../src/engine/features/gpu/device.ts'
import { FeaturePipeline } from '../../src/engine/features/gpu/feature-pipeline.ts'
import { installWebGpuConstants, MockBuffer, MockGpuDevice, type RecordedPass } from './mock-device.ts'

beforeAll(installWebGpuConstants)

function mockGpu(): { mock: MockGpuDevice; pipeline: FeaturePipeline } {
  const mock = new MockGpuDevice()
  const gpu: Gpu = {
    device: mock.device, errors: [], lostReason: null, onError: null,
    adapterInfo: { vendor: 'mock', architecture: '', device: '', description: '', isFallbackAdapter: false },
  }
  return { mock, pipeline: new FeaturePipeline(gpu) }
}

/** The last bytes written to `buffer` as u32 and f32 views. */
function words(buffer: MockBuffer): { u32: Uint32Array; f32: Float32Array } {
  return { u32: new Uint32Array(buffer.bytes.buffer.slice(0)), f32: new Float32Array(buffer.bytes.buffer.slice(0)) }
}

function bound(pass: RecordedPass, binding: number): MockBuffer {
  const buffer = pass.bindGroup.buffers.get(binding)
  if (!buffer) throw new Error(`${pass.label} binds nothing at ${binding}`)
  return buffer
}

describe('FeaturePipeline.fbank on a mocked GPUDevice', () => {
  it('records kaldi_power → mel_log → standardize → readback in ONE submission, sized by the batch', async () => {
    const { mock, pipeline } = mockGpu()
    const lengths = [32000, 8000, 300]
    const frames = lengths.map((n) => fbankFrameCount(n, fbankOptions(16000)))
    const total = frames.reduce((a, b) => a + b, 0) // 198 + 48 + 0
    const out = await pipeline.fbank(lengths.map((n) => new Float32Array(n)), 16000)
    expect(mock.errors).toEqual([])
    expect(out.map((f) => [f.frames, f.bins])).toEqual(frames.map((t) => [t, 80]))
    expect(mock.submissions.length).toBe(1)
    expect(mock.submissions[0].length).toBe(1)
    const commands = mock.submissions[0][0].commands
    expect(commands.map((c) => (c.kind === 'pass' ? c.pass.label : 'copy'))).toEqual([
      'FbankPass.kaldiPower', 'FbankPass.melLog', 'StandardizePass.standardize', 'copy', 'copy',
    ])
    const [power, mel, standardize] = mock.passes()
    // one workgroup per frame; one thread per (frame, bin) in workgroups of 64; one per (example, bin) in 64s
    expect(power.workgroups).toEqual([total, 1, 1])
    expect(mel.workgroups).toEqual([Math.ceil((total * 80) / 64), 1, 1])
    expect(standardize.workgroups).toEqual([Math.ceil((3 * 80) / 64), 1, 1])
    expect(power.pipeline.entryPoint).toBe('kaldi_power')
    expect(power.pipeline.constants).toEqual({ FFT_SIZE: 512, LOG2_FFT_SIZE: 9, WORKGROUP_SIZE: 64, BUTTERFLIES: 4 })
    // buffers: samples of all examples, one start per frame, power [frames, 256], features [frames, 80]
    expect(bound(power, 1).size).toBeGreaterThanOrEqual(40300 * 4)
    expect(bound(power, 2).size).toBeGreaterThanOrEqual(total * 4)
    expect(bound(power, 5).size).toBeGreaterThanOrEqual(total * 256 * 4)
    expect(bound(mel, 1)).toBe(bound(power, 5))
    expect(bound(mel, 4).size).toBeGreaterThanOrEqual(total * 80 * 4)
    expect(bound(standardize, 2)).toBe(bound(mel, 4))
    // the uniforms and tables as the shader reads them
    const params = words(bound(power, 0))
    expect(Array.from(params.u32.subarray(0, 3))).toEqual([400, total, total])
    expect(Array.from(params.f32.subarray(3, 5))).toEqual([32768, Math.fround(0.97)])
    const starts = words(bound(power, 2)).u32.subarray(0, total)
    expect(Array.from(starts)).toEqual([...Array.from({ length: 198 }, (_, t) => 160 * t), ...Array.from({ length: 48 }, (_, t) => 32000 + 160 * t)])
    const twiddles = words(bound(power, 4)).f32
    expect(bound(power, 4).size).toBe(256 * 16)
    for (let k = 0; k < 256; k++) { // float-float e^{-2πik/512}: hi + lo within 2^-46 of the double value
      expect(Math.abs(twiddles[4 * k] + twiddles[4 * k + 1] - Math.cos((2 * Math.PI * k) / 512))).toBeLessThan(2 ** -46)
      expect(Math.abs(twiddles[4 * k + 2] + twiddles[4 * k + 3] + Math.sin((2 * Math.PI * k) / 512))).toBeLessThan(2 ** -46)
      expect(Math.abs(twiddles[4 * k + 1])).toBeLessThanOrEqual(Math.abs(twiddles[4 * k]) * 2 ** -24)
    }
    // the readback copies features then stats into one mapped buffer
    const copies = commands.filter((c) => c.kind === 'copy')
    expect(copies.map((c) => [c.source, c.size])).toEqual([[bound(mel, 4), total * 80 * 4], [bound(standardize, 3), 3 * 80 * 8]])
    expect(copies[1].destinationOffset).toBe(total * 80 * 4)
  })

  it('reuses every pooled buffer for a second batch of the same shape, one more submission', async () => {
    const { mock, pipeline } = mockGpu()
    const batch = () => [new Float32Array(16000), new Float32Array(4000)]
    await pipeline.fbank(batch(), 16000, { standardize: false, dtype: 'bfloat16' })
    const buffers = mock.buffers.length
    await pipeline.fbank(batch(), 16000, { standardize: false, dtype: 'bfloat16' })
    expect(mock.errors).toEqual([])
    expect(mock.buffers.length).toBe(buffers)
    expect(mock.submissions.length).toBe(2)
    expect(mock.passes().map((p) => p.label)).toEqual(['FbankPass.kaldiPower', 'FbankPass.melLog', 'Bf16Pass.roundToBf16',
      'FbankPass.kaldiPower', 'FbankPass.melLog', 'Bf16Pass.roundToBf16'])
  })

  it('splits more than 65535 frames over x and y, and the shader is told the width', async () => {
    const { mock, pipeline } = mockGpu()
    const frames = 70000
    const out = await pipeline.fbank([new Float32Array(400 + 160 * (frames - 1))], 16000, { standardize: false })
    expect(mock.errors).toEqual([])
    expect(out[0].frames).toBe(frames)
    const [power, mel] = mock.passes()
    expect(power.workgroups).toEqual([35000, 2, 1])
    expect(words(bound(power, 0)).u32[2]).toBe(35000)
    const melGroups = Math.ceil((frames * 80) / 64) // 87500 → 43750 × 2; mel_log indexes gid.x + gid.y·groups.x·64
    expect(mel.workgroups).toEqual([43750, 2, 1])
    expect(melGroups).toBe(87500)
  })

  it('sizes the FFT by sample rate within 16 KiB of workgroup memory, and refuses what does not fit', async () => {
    for (const [rate, fft, threads] of [[8000, 256, 64], [22050, 1024, 64], [44100, 2048, 128]]) {
      const { mock, pipeline } = mockGpu()
      await pipeline.fbank([new Float32Array(rate)], rate, { standardize: false })
      expect(mock.errors).toEqual([])
      const [power] = mock.passes()
      expect(power.pipeline.constants).toEqual({ FFT_SIZE: fft, LOG2_FFT_SIZE: Math.log2(fft), WORKGROUP_SIZE: threads, BUTTERFLIES: fft / 2 / threads })
      expect(bound(power, 5).size).toBeGreaterThanOrEqual(fbankFrameCount(rate, fbankOptions(rate)) * (fft / 2) * 4)
    }
    const { pipeline } = mockGpu()
    await expect(pipeline.fbank([new Float32Array(96000)], 96000)).rejects.toThrow(
      'gpu: fbank at 96000 Hz needs a power-of-two FFT size in 4..2048, got 4096')
  })
})

describe('FeaturePipeline.waveform, spectrogram and realFft on a mocked GPUDevice', () => {
  it('records mono/layer norm → STFT → masks → iSTFT → bf16 in ONE submission and copies unaugmented examples', async () => {
    const { mock, pipeline } = mockGpu()
    const a = new Float32Array(12345), b = new Float32Array(9000)
    const masks: Mask[] = [{ axis: 'time', start: 3, length: 5 }]
    const [ga, gb] = await pipeline.waveform([[a, a], [b]], { normalize: true, specAugment: [masks, null], dtype: 'bfloat16' })
    expect(mock.errors).toEqual([])
    expect([ga.length, gb.length]).toEqual([200 * Math.floor(12345 / 200), 9000])
    expect(mock.submissions.length).toBe(1)
    const commands = mock.submissions[0][0].commands
    expect(commands.map((c) => (c.kind === 'pass' ? c.pass.label : 'copy'))).toEqual([
      'LayerNormPass.layerNorm', 'StftPass.dftForward', 'SpecAugmentPass.maskFrames', 'SpecAugmentPass.istft', 'copy',
      'Bf16Pass.roundToBf16', 'copy',
    ])
    const [layerNorm, stft, mask, istft] = mock.passes()
    const T = 1 + Math.floor(12345 / 200)
    expect(layerNorm.workgroups).toEqual([2, 1, 1]) // one workgroup per example
    expect(stft.workgroups).toEqual([Math.ceil((T * 201) / 64), 1, 1])
    expect(mask.workgroups).toEqual([Math.ceil((T * 201) / 64), 1, 1])
    expect(istft.workgroups).toEqual([Math.ceil((200 * (T - 1)) / 64), 1, 1])
    expect(bound(stft, 5).size).toBeGreaterThanOrEqual(T * 201 * 8)
    const masked = words(bound(mask, 2)).u32.subarray(0, T)
    expect(Array.from(masked, (m, t) => (m ? t : -1)).filter((t) => t >= 0)).toEqual([3, 4, 5, 6, 7])
    // the unaugmented example is copied after the augmented one
    const copy = commands[4]
    expect(copy.kind === 'copy' && [copy.sourceOffset, copy.destinationOffset, copy.size]).toEqual([12345 * 4, 200 * (T - 1) * 4, 9000 * 4])
  })

  it('records the display spectrogram and the real FFTs with their own passes', async () => {
    const { mock, pipeline } = mockGpu()
    const x = new Float32Array(16000)
    const s = await pipeline.spectrogram(x, 1600, 9600)
    expect([s.frames, s.bins]).toEqual([1 + Math.floor((8000 - 400) / 160), 201])
    await pipeline.realFft(new Float32Array(6 * 512), 512)
    await pipeline.realFft(new Float32Array(2 * 4096), 4096)
    await pipeline.realFft(new Float32Array(3 * 400), 400)
    expect(mock.errors).toEqual([])
    expect(mock.submissions.length).toBe(4)
    expect(mock.passes().map((p) => [p.label, p.workgroups[0]])).toEqual([
      ['StftPass.dftForward', Math.ceil((s.frames * 201) / 64)], ['StftPass.powerDb', Math.ceil((s.frames * 201) / 64)],
      ['RealFftPass.realFft', 6], ['RealFftPass.realFft', 2], ['StftPass.dftForward', Math.ceil((3 * 201) / 64)],
    ])
    const fft4096 = mock.passes()[3]
    expect(fft4096.pipeline.constants).toEqual({ FFT_SIZE: 4096, LOG2_FFT_SIZE: 12, WORKGROUP_SIZE: 256, BUTTERFLIES: 8 })
    expect(bound(fft4096, 5).size).toBeGreaterThanOrEqual(2 * 2049 * 8)
  })
})

describe('the mock validates like WebGPU', () => {
  it('reports a bind group that misses a binding, a wrong usage and a too-small buffer as validation errors', async () => {
    const mock = new MockGpuDevice()
    const code = `@group(0) @binding(0) var<uniform> p: vec4u;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { out[g.x] = f32(p.x); }`
    const device = mock.device
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } })
    const storage = device.createBuffer({ label: 'storage', size: 64, usage: GPUBufferUsage.STORAGE })
    const small = device.createBuffer({ label: 'small', size: 8, usage: GPUBufferUsage.UNIFORM })
    device.pushErrorScope('validation')
    device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 1, resource: { buffer: storage } }] })
    device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: storage } }, { binding: 1, resource: { buffer: storage } }] })
    device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: small } }, { binding: 1, resource: { buffer: storage } }] })
    const error = await device.popErrorScope()
    expect(error?.message).toMatch(/binds \[1\] but .* uses \[0,1\]/)
    expect(mock.errors.slice(1)).toEqual([
      'bind group : binding 0 (uniform) is storage without UNIFORM usage',
      'bind group : binding 0 is small of 8 bytes < 16',
    ])
  })

  it('reports one buffer written twice with different bytes before one submit', () => {
    const mock = new MockGpuDevice()
    const code = `@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = 1.0; }`
    const device = mock.device
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } })
    const buffer = device.createBuffer({ label: 'params', size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST })
    const encoder = device.createCommandEncoder()
    for (const v of [1, 2]) {
      device.queue.writeBuffer(buffer, 0, new Float32Array([v, 0, 0, 0]))
      const pass = encoder.beginComputePass({ label: `pass ${v}` })
      pass.setPipeline(pipeline)
      pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }))
      pass.dispatchWorkgroups(1)
      pass.end()
    }
    device.queue.submit([encoder.finish()])
    expect(mock.errors).toEqual(['params was written 2 times with different bytes before one submit: its passes see only the last'])
  })
})
