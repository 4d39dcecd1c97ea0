/**
 * The one GPUDevice of this worker or process: requested once, its loss and uncaptured errors recorded and surfaced.
 * The `GPU` object is passed in (`navigator.gpu` in a browser or worker, `create([])` from the `webgpu` package in Node).
 * Fallback adapters (SwiftShader) are accepted: they are slow but correct, and the only WebGPU on machines without a GPU.
 */

/** What the adapter says about itself, for `--json` outputs and the UI. */
export interface GpuAdapterSummary {
  vendor: string
  architecture: string
  device: string
  description: string
  /** True for software adapters such as SwiftShader. */
  isFallbackAdapter: boolean
}

/** A ready device plus its status. */
export interface Gpu {
  device: GPUDevice
  adapterInfo: GpuAdapterSummary
  /** Uncaptured errors seen so far (validation, out-of-memory, internal), oldest first. */
  readonly errors: string[]
  /** Set once the device is lost: the reason in words. */
  lostReason: string | null
  /** Called for each uncaptured error and on loss; defaults to nothing (callers surface them). */
  onError: ((message: string) => void) | null
}

const devices = new WeakMap<object, Promise<Gpu | string>>()

/**
 * Returns the process-wide device for `gpu`, requesting it on the first call.
 * @returns the device, or a sentence saying why there is none (never throws)
 */
export function getGpu(gpu: GPU | undefined | null): Promise<Gpu | string> {
  if (!gpu) return Promise.resolve('gpu: WebGPU is not available here (navigator.gpu is undefined; in Chromium start with --enable-unsafe-webgpu)')
  let pending = devices.get(gpu)
  if (!pending) {
    pending = requestGpu(gpu)
    devices.set(gpu, pending)
    // a lost device is never reused: the next call requests a new one
    pending.then((g) => { if (typeof g !== 'string') void g.device.lost.then(() => devices.delete(gpu)) }, () => devices.delete(gpu))
  }
  return pending
}

async function requestGpu(gpu: GPU): Promise<Gpu | string> {
  let adapter: GPUAdapter | null
  try {
    adapter = await gpu.requestAdapter()
  } catch (e) {
    return `gpu: requestAdapter failed: ${(e as Error).message}`
  }
  if (!adapter) return 'gpu: requestAdapter returned null (no WebGPU adapter; in Node set VK_ICD_FILENAMES to a Vulkan ICD such as /usr/lib/chromium/vk_swiftshader_icd.json)'
  let device: GPUDevice
  try {
    device = await adapter.requestDevice({ label: 'mixscope' })
  } catch (e) {
    return `gpu: requestDevice failed: ${(e as Error).message}`
  }
  const info = adapter.info
  const withFallback = info as GPUAdapterInfo & { isFallbackAdapter?: boolean }
  const adapterFallback = (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter
  const result: Gpu = {
    device,
    adapterInfo: {
      vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description,
      isFallbackAdapter: Boolean(withFallback.isFallbackAdapter ?? adapterFallback ?? info.architecture === 'swiftshader'),
    },
    errors: [],
    lostReason: null,
    onError: null,
  }
  device.addEventListener('uncapturederror', (event) => {
    const message = `gpu: uncaptured ${(event as GPUUncapturedErrorEvent).error.constructor.name}: ${(event as GPUUncapturedErrorEvent).error.message}`
    result.errors.push(message)
    result.onError?.(message)
  })
  void device.lost.then((lost) => {
    result.lostReason = `gpu: device lost (${lost.reason}): ${lost.message}`
    result.onError?.(result.lostReason)
  })
  return result
}

/** Describes an adapter in one line, e.g. `google swiftshader (fallback)`. */
export function describeAdapter(info: GpuAdapterSummary): string {
  const name = [info.vendor, info.architecture, info.device].filter((s) => s).join(' ') || info.description || 'unknown adapter'
  return info.isFallbackAdapter ? `${name} (fallback)` : name
}
