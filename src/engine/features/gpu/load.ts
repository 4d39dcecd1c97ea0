/**
 * The GPU feature pipeline, loaded on first use. Its passes import their WGSL kernels as `?raw` text (src/shaders),
 * which Vite, Vitest and the CLI's loader hook resolve; loading them only when a GPU is used keeps the engine's public
 * entries importable where no such hook is registered.
 */
import type { Gpu } from './device.ts'
import type { FeaturePipeline } from './feature-pipeline.ts'

/** A `FeaturePipeline` over `gpu` (one per device: it pools buffers across calls). */
export async function createFeaturePipeline(gpu: Gpu): Promise<FeaturePipeline> {
  const { FeaturePipeline: Pipeline } = await import('./feature-pipeline.ts')
  return new Pipeline(gpu)
}
