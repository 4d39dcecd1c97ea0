/**
 * The status bar's `engine-status` (the worker's GPU, the open dataset's I/O counters). Polled while any request is in
 * flight, the open included, so it is loaded with the worker's first module and imports nothing heavy (gpu-state.ts
 * loads the kernels only when a device is asked for).
 */
import { gpuStatus, workerFeaturePipeline } from './gpu-state.ts'
import type { HandlerTable } from './handler-types.ts'

export const statusHandlers: HandlerTable<'engine-status'> = {
  'engine-status': async (message, _options, context) => {
    if (message.requestGpu) await workerFeaturePipeline()
    const dataset = message.dataset === null ? null : context.datasets.get(message.dataset) ?? null
    return { counters: dataset ? { ...dataset.source.counters } : null, gpu: gpuStatus() }
  },
}
