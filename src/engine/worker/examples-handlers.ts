/**
 * Handlers of the Examples view's kinds (protocol/examples.ts): a page of matches of the dataset's example index
 * (src/engine/examples/), and the next/previous match of an id under the same filter. Once the audit's cheap audio
 * check has finished for the dataset, its row findings (undecodable, damaged streams) count as flags too. A filter on
 * partition keys alone, in dataset order, is paged from the footers (partition-pages.ts) until the example index has
 * been built: a list of 10⁷ rows never waits for every transcript.
 */
import type { OpenDataset } from '../dataset/open.ts'
import { finishedQuickAudioCheck } from '../audit/quick-audio.ts'
import type { ExampleIndex } from '../examples/example-index.ts'
import { exampleIndex, finishedExampleIndex } from '../examples/example-index.ts'
import { pagesByPartition, partitionNeighbour, partitionPage } from '../examples/partition-pages.ts'
import { neighbourExample, rowFindingsWithAudio, searchExamples } from '../examples/search.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExamplesRequests } from './protocol/examples.ts'

/** The row findings a search uses now: the metadata findings, with the audio check's once it has finished. */
function rowFindings(dataset: OpenDataset, index: ExampleIndex) {
  const quick = finishedQuickAudioCheck(dataset)
  return { findings: rowFindingsWithAudio(index, quick ? quick.items : null), audioChecked: quick !== null }
}

export const examplesHandlers: HandlerTable<keyof ExamplesRequests> = {
  'examples-search': async (message, options, context) => {
    const dataset = context.dataset(message.dataset)
    if (!finishedExampleIndex(dataset) && pagesByPartition(message.filter, message.sample, message.sort)) {
      return partitionPage(dataset, message.filter, message.offset, message.limit, options)
    }
    const index = await exampleIndex(dataset, options)
    const { findings, audioChecked } = rowFindings(dataset, index)
    return searchExamples(index, message.filter, message.sample, message.offset, message.limit, message.sort, findings, audioChecked)
  },
  'examples-neighbour': async (message, options, context) => {
    const dataset = context.dataset(message.dataset)
    if (!finishedExampleIndex(dataset) && pagesByPartition(message.filter, message.sample, message.sort)) {
      return partitionNeighbour(dataset, message.filter, message.exampleId, message.step)
    }
    const index = await exampleIndex(dataset, options)
    return neighbourExample(index, message.filter, message.sample, message.exampleId, message.step, message.sort, rowFindings(dataset, index).findings)
  },
}
