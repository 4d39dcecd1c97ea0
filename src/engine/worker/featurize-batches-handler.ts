/**
 * `plan-featurize`: decodes and featurizes planned batches as the training data loader would (the session config's
 * model input: fbank + standardize, or mono + layer norm, in the training dtype), with the decode stage on helper
 * Workers ahead of the features (`featurizeBatches`), and reports per batch the padded shape, decode and feature
 * times and how long features waited for audio: whether decoding is the bottleneck on this machine.
 * SpecAugment is left out (its masks are random per example; the Inspector shows them).
 */
import { inThreadBatchDecoder } from '../audio/batch-decoder.ts'
import type { DecodeItem } from '../audio/decode.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { readExample } from '../dataset/read-example.ts'
import type { PlannedBatch } from '../pipeline/plan-batches.ts'
import { featurizeBatches } from '../features/featurize-batches.ts'
import { computeModelInput, type FeatureDevice } from '../features/model-input.ts'
import { createDecodePool } from './audio-pool.ts'
import { backendFor, gpuStatus } from './gpu-state.ts'
import type { FeaturizedBatchSummary, FeaturizeResult } from './protocol/plan.ts'

/** Batch items from the batches' rows, read when the decode stage asks for the batch (not all up front). */
async function* batchItems(dataset: OpenDataset, batches: PlannedBatch[], unreadable: Map<string, string>, signal?: AbortSignal): AsyncGenerator<DecodeItem[]> {
  for (const batch of batches) {
    const items: DecodeItem[] = []
    for (const e of batch.examples) {
      const id = `${e.file}:${e.row}`
      try {
        const row = await readExample(dataset, e.file, e.row, { signal })
        if (row.audio) items.push({ id, bytes: row.audio })
        else unreadable.set(id, `example: ${id} has a null audio_bytes`)
      } catch (error) {
        signal?.throwIfAborted()
        unreadable.set(id, (error as Error).message)
      }
    }
    yield items
  }
}

/**
 * Featurizes `batches` of a plan.
 *
 * @param config the plan's config (model input settings)
 * @param device `gpu` to use the worker's WebGPU pipeline when there is one, `cpu` for the TS reference
 */
export async function featurizePlannedBatches(
  dataset: OpenDataset, batches: PlannedBatch[], config: PipelineConfig, device: FeatureDevice, signal?: AbortSignal,
): Promise<FeaturizeResult> {
  const { backend, reason } = await backendFor(device)
  const pool = createDecodePool()
  const decoder = pool?.decoder ?? inThreadBatchDecoder()
  const unreadable = new Map<string, string>()
  const summaries: FeaturizedBatchSummary[] = []
  try {
    let k = 0
    for await (const b of featurizeBatches(batchItems(dataset, batches, unreadable, signal), decoder, async (audio) => {
      const shapes: number[][] = []
      for (const a of audio) shapes.push((await computeModelInput(a, config, null, backend)).shape)
      return shapes
    }, { signal })) {
      const batch = batches[k++]
      const shapes = b.features.filter((f): f is number[] => f !== null)
      const ok = b.decoded.flatMap((r) => (r.ok && r.audio.trainable ? [r.audio] : []))
      const failed = batch.examples.map((e) => `${e.file}:${e.row}`).flatMap((id) => {
        const r = b.decoded.find((x) => x.id === id)
        const error = !r ? unreadable.get(id) ?? 'not read'
          : !r.ok ? r.error : r.audio.trainable ? null : `training cannot read it: ${r.audio.untrainable}`
        return error === null ? [] : [{ id, error }]
      })
      summaries.push({
        index: batch.index, examples: batch.examples.length, failed,
        decoders: [...new Set(ok.map((a) => a.decoder))],
        shape: shapes.length ? [shapes.length, ...shapes[0].map((_, d) => Math.max(...shapes.map((s) => s[d])))] : null,
        audioSeconds: ok.reduce((s, a) => s + a.frames / a.sampleRate, 0),
        decodeMs: b.decodeMs, featureMs: b.featureMs, waitMs: b.waitMs,
      })
    }
  } finally {
    pool?.close()
  }
  const later = summaries.slice(1)
  const waited = later.reduce((s, b) => s + b.waitMs, 0)
  const featured = later.reduce((s, b) => s + b.featureMs, 0)
  return {
    device: backend ? 'gpu' : 'cpu', adapter: backend ? gpuStatus().adapter : null, fallbackReason: reason,
    decodeWorkers: pool ? decoder.lanes : 0, batches: summaries, bottleneck: later.length > 0 && waited > 0.05 * featured ? 'decode' : 'features',
  }
}
