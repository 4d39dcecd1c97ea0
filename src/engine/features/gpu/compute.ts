/** Small helpers shared by the passes: cached compute pipelines, bind groups by binding index, labelled dispatches. */
import { dispatchSize } from './buffer-pool.ts'

const pipelines = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>()
const modules = new WeakMap<GPUDevice, Map<string, GPUShaderModule>>()

/**
 * The compute pipeline for `entryPoint` of `code` with the given WGSL `override` constants (created once per device).
 * @param label used for the module and pipeline, e.g. `FbankPass.kaldiPower`
 */
export function computePipeline(device: GPUDevice, label: string, code: string, entryPoint: string,
  constants: Record<string, number> = {}): GPUComputePipeline {
  let byKey = pipelines.get(device)
  if (!byKey) { byKey = new Map(); pipelines.set(device, byKey) }
  const key = `${label}\u0000${entryPoint}\u0000${JSON.stringify(constants)}\u0000${code.length}`
  let pipeline = byKey.get(key)
  if (!pipeline) {
    let byCode = modules.get(device)
    if (!byCode) { byCode = new Map(); modules.set(device, byCode) }
    let module = byCode.get(code)
    if (!module) { module = device.createShaderModule({ label, code }); byCode.set(code, module) }
    pipeline = device.createComputePipeline({ label, layout: 'auto', compute: { module, entryPoint, constants } })
    byKey.set(key, pipeline)
  }
  return pipeline
}

/** A bind group for group 0 of `pipeline`, binding `buffers[i]` at the binding numbers given as keys. */
export function bindBuffers(device: GPUDevice, pipeline: GPUComputePipeline, label: string,
  buffers: Record<number, GPUBuffer>): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: Object.entries(buffers).map(([binding, buffer]) => ({ binding: Number(binding), resource: { buffer } })),
  })
}

/** Records one compute pass dispatching `workgroups` workgroups (split over x and y above 65535). */
export function dispatch(encoder: GPUCommandEncoder, label: string, pipeline: GPUComputePipeline, bindGroup: GPUBindGroup,
  workgroups: number): void {
  const pass = encoder.beginComputePass({ label })
  pass.setPipeline(pipeline)
  pass.setBindGroup(0, bindGroup)
  const [x, y] = dispatchSize(workgroups)
  pass.dispatchWorkgroups(x, y)
  pass.end()
}

/** Twiddle table `[count]` of (cos, sin)(2πm/n) as float32 pairs, computed in double. */
export function twiddleTable(n: number, count: number): Float32Array {
  const out = new Float32Array(2 * count)
  for (let m = 0; m < count; m++) {
    out[2 * m] = Math.cos((2 * Math.PI * m) / n)
    out[2 * m + 1] = Math.sin((2 * Math.PI * m) / n)
  }
  return out
}

/**
 * Forward FFT twiddles e^{-2πik/n}, k < n/2, as float-float pairs for src/shaders/fbank-power.wgsl:
 * `[cos hi, cos lo, −sin hi, −sin lo]` per k with hi = fl32(v) and lo = fl32(v − hi), v computed in double.
 * @returns Float32Array `[n/2, 4]`
 */
export function floatFloatTwiddles(n: number): Float32Array {
  const out = new Float32Array(2 * n)
  for (let k = 0; k < n / 2; k++) {
    const c = Math.cos((2 * Math.PI * k) / n), s = -Math.sin((2 * Math.PI * k) / n)
    out[4 * k] = c; out[4 * k + 1] = c - out[4 * k]
    out[4 * k + 2] = s; out[4 * k + 3] = s - out[4 * k + 2]
  }
  return out
}

/**
 * Override constants of the FFT in src/shaders/fbank-power.wgsl for a power-of-two `size` (4 ≤ size ≤ `maxSize`).
 * @throws naming the size when it is not a power of two in range
 */
export function fftConstants(size: number, maxSize: number, what: string): Record<string, number> {
  if (!(Number.isInteger(size) && size >= 4 && size <= maxSize && (size & (size - 1)) === 0)) {
    throw new Error(`gpu: ${what} needs a power-of-two FFT size in 4..${maxSize}, got ${size}`)
  }
  // few threads, each with up to 8 butterflies per stage in registers: on SwiftShader a 64-thread workgroup runs the
  // fbank ~5x faster than 256 threads with one butterfly each (same arithmetic, fewer fibers to switch at barriers)
  const workgroupSize = Math.min(size / 2, Math.max(64, size / 16))
  return { FFT_SIZE: size, LOG2_FFT_SIZE: Math.log2(size), WORKGROUP_SIZE: workgroupSize, BUTTERFLIES: size / 2 / workgroupSize }
}
