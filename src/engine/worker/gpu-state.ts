/**
 * The worker's one GPUDevice: `getGpu(navigator.gpu)` requested once, on first use, with one FeaturePipeline over it
 * (so buffers are pooled across requests). Device loss and uncaptured errors are kept for the status bar. Where
 * WebGPU is missing (no `navigator.gpu`, no adapter) the reason is kept and callers run the CPU path.
 */
import { describeAdapter, getGpu, type Gpu } from '../features/gpu/device.ts'
import type { FeaturePipeline } from '../features/gpu/feature-pipeline.ts'
import { createFeaturePipeline } from '../features/gpu/load.ts'
import type { FeatureBackend, FeatureDevice } from '../features/model-input.ts'
import type { ModelInputTarget } from '../features/model-input-details.ts'
import type { GpuStatus } from './protocol/inspect.ts'

/** Where the `GPU` object comes from; tests pass the `webgpu` package's. */
export type GpuProvider = () => GPU | undefined | null

let provider: GpuProvider = () => (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu
let pending: Promise<Gpu | string> | null = null
let current: Gpu | null = null
let pipeline: { gpu: Gpu; pipeline: FeaturePipeline } | null = null
const errors: string[] = []
let lastReason: string | null = null

/** Replaces the GPU provider and forgets the current device (tests; a worker never calls it). */
export function setGpuProvider(next: GpuProvider): void {
  provider = next
  pending = null
  current = null
  pipeline = null
  errors.length = 0
  lastReason = null
}

function remember(message: string): void {
  errors.push(message)
  if (errors.length > 20) errors.splice(0, errors.length - 20)
}

/** The device, requesting it on the first call; a lost device is replaced by a new request on the next call. */
async function workerGpu(): Promise<Gpu | string> {
  if (current?.lostReason) {
    current = null
    pipeline = null
    pending = null
  }
  pending ??= getGpu(provider()).then((gpu) => {
    if (typeof gpu === 'string') lastReason = gpu
    else {
      lastReason = null
      current = gpu
      gpu.onError = (message) => { remember(message); if (gpu.lostReason) lastReason = gpu.lostReason }
    }
    return gpu
  })
  return pending
}

/** The FeaturePipeline over the worker's device, or why there is none. */
export async function workerFeaturePipeline(): Promise<FeaturePipeline | string> {
  const gpu = await workerGpu()
  if (typeof gpu === 'string') return gpu
  // the kernels' module is loaded on first use: the status bar's `engine-status` imports this file during every open
  if (pipeline?.gpu !== gpu) pipeline = { gpu, pipeline: await createFeaturePipeline(gpu) }
  return pipeline.pipeline
}

/** The status now (never requests a device). */
export function gpuStatus(): GpuStatus {
  const gpu = current
  return {
    available: gpu !== null && gpu.lostReason === null,
    adapter: gpu ? describeAdapter(gpu.adapterInfo) : null,
    reason: gpu?.lostReason ?? lastReason,
    errors: [...errors],
    requested: pending !== null,
  }
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs `work` after every earlier GPU job of this worker has settled. A FeaturePipeline pools its buffers (one
 * readback buffer among them), so two batches in flight at once would submit a buffer that is still being mapped.
 */
function withGpuLock<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work)
  queue = run.catch(() => undefined)
  return run
}

/** The worker's GPU as a features backend for `device` (its calls serialized by `withGpuLock`), or `null` and why not. */
export async function backendFor(device: FeatureDevice): Promise<{ backend: FeatureBackend | null; reason: string | null }> {
  if (device === 'cpu') return { backend: null, reason: null }
  const got = await workerFeaturePipeline()
  return typeof got === 'string' ? { backend: null, reason: got } : { backend: { pipeline: got, lock: withGpuLock }, reason: null }
}

/** Where the features of a `device` request run: the backend, its adapter, and why the CPU runs instead of a GPU. */
export async function featureTarget(device: FeatureDevice): Promise<ModelInputTarget> {
  const { backend, reason } = await backendFor(device)
  return { backend, adapter: backend ? gpuStatus().adapter : null, fallbackReason: reason }
}
