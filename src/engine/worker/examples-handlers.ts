/**
 * Handlers of the Examples view's kinds (protocol/examples.ts): a page of matches of the dataset's example index
 * (src/engine/examples/), and the next/previous match of an id under the same filter.
 */
import { exampleIndex } from '../examples/example-index.ts'
import { neighbourExample, searchExamples } from '../examples/search.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExamplesRequests } from './protocol/examples.ts'

export const examplesHandlers: HandlerTable<keyof ExamplesRequests> = {
  'examples-search': async (message, options, context) => {
    const index = await exampleIndex(context.dataset(message.dataset), options)
    return searchExamples(index, message.filter, message.sample, message.offset, message.limit, message.sort)
  },
  'examples-neighbour': async (message, options, context) => {
    const index = await exampleIndex(context.dataset(message.dataset), options)
    return neighbourExample(index, message.filter, message.sample, message.exampleId, message.step, message.sort)
  },
}
