/**
 * The Node WebGPU device for GPU tests: Dawn from the `webgpu` package on the SwiftShader Vulkan ICD that Debian's
 * chromium ships. Without an adapter the GPU tests skip with the reason, except under CI=true, where they fail.
 */
import { existsSync } from 'node:fs'
import { getGpu, type Gpu } from '../../src/engine/features/gpu/device.ts'

const swiftshaderIcd = '/usr/lib/chromium/vk_swiftshader_icd.json'

/** Resolves the process's device, or the reason there is none. */
export async function nodeGpu(): Promise<Gpu | string> {
  if (!process.env.VK_ICD_FILENAMES && existsSync(swiftshaderIcd)) process.env.VK_ICD_FILENAMES = swiftshaderIcd
  let webgpu: typeof import('webgpu')
  try {
    webgpu = await import('webgpu')
  } catch (e) {
    return `gpu: the webgpu package does not load here: ${(e as Error).message}`
  }
  Object.assign(globalThis, webgpu.globals)
  return getGpu(webgpu.create([]))
}

/** True when a missing adapter must fail the run instead of skipping. */
export const gpuRequired = process.env.CI === 'true'
