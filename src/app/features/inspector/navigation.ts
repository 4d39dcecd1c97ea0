/**
 * Stepping through examples and batches from the Inspector. Inside a batch (selection has a batch index and the
 * Batches view has a plan), next/previous walk the batch's examples; otherwise they walk the Examples list under its
 * current filter (`examples-neighbour` in the worker). Next/previous batch open the neighbouring batch's first example.
 */
import { engineClient } from '../../engine-client.ts'
import { batchesStore } from '../../stores/use-batches-store.ts'
import { examplesIndexRowLimit, examplesSpec, examplesStore } from '../../stores/use-examples-store.ts'
import { selectionStore } from '../../stores/selection-store.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'
import { usableDataset } from '../../stores/dataset-store.ts'

/** Example ids of batch `index` of the Batches view's plan, or `null` when there is no plan or no such batch. */
export async function batchExampleIds(index: number): Promise<string[] | null> {
  const batches = batchesStore.getState()
  if (batches.start === null || index < 0 || index >= batches.batches.length) return null
  if (batches.selectedBatch?.index !== index) await batches.select(index)
  const batch = batchesStore.getState().selectedBatch
  return batch && batch.index === index ? batch.examples.map((e) => `${e.file}:${e.row}`) : null
}

/**
 * Selects the example `step` places from the selected one.
 * @returns a sentence when there is nowhere to go (end of the list or batch), else `null`
 */
export async function stepExample(step: 1 | -1): Promise<string | null> {
  const { exampleId, batchIndex } = selectionStore.getState()
  if (batchIndex !== null) {
    const ids = await batchExampleIds(batchIndex)
    if (ids) {
      const next = exampleId === null ? 0 : ids.indexOf(exampleId) + step
      if (next < 0 || next >= ids.length) return `${step > 0 ? 'Last' : 'First'} example of batch ${batchIndex}`
      selectionStore.getState().select(ids[next], batchIndex)
      return null
    }
  }
  const dataset = usableDataset(datasetStore.getState()) ?? undefined
  if (dataset === undefined) return 'No dataset open'
  const { filter, sample, sort } = examplesStore.getState()
  if (exampleId === null) {
    const first = await engineClient.request('examples-search', { dataset, filter, sample, sort, offset: 0, limit: 1, ...examplesIndexRowLimit, spec: examplesSpec() })
    if (first.rows[0]) selectionStore.getState().select(first.rows[0].id)
    return first.rows[0] ? null : 'No example matches the Examples filter'
  }
  const next = await engineClient.request('examples-neighbour', { dataset, filter, sample, sort, exampleId, step, ...examplesIndexRowLimit, spec: examplesSpec() })
  if (next.id === null) return next.total === 0 ? 'No example matches the Examples filter' : `${step > 0 ? 'Last' : 'First'} example of the Examples list (or this example is not in it)`
  selectionStore.getState().select(next.id)
  return null
}

/** Opens the first example of the batch `step` places from the selected one (batch 0 when none is selected). */
export async function stepBatch(step: 1 | -1): Promise<string | null> {
  const { batchIndex } = selectionStore.getState()
  if (batchesStore.getState().start === null) return 'No batches yet: run a plan in the Batches view'
  const target = batchIndex === null ? 0 : batchIndex + step
  const ids = await batchExampleIds(target)
  if (!ids || ids.length === 0) return `No batch ${target} (${batchesStore.getState().batches.length} streamed)`
  selectionStore.getState().select(ids[0], target)
  return null
}
