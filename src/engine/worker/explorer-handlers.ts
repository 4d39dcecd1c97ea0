/** Handlers of the explorer's own kinds (protocol/explorer.ts): thin glue over src/engine/examples/example-facts.ts. */
import { exampleFacts } from '../examples/example-facts.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExplorerRequests } from './protocol/explorer.ts'

export const explorerHandlers: HandlerTable<keyof ExplorerRequests> = {
  'example-facts': (message, options, context) => exampleFacts(context.dataset(message.dataset), message.exampleId, options.signal),
}
