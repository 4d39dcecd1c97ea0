/** Handlers of the explorer's own kinds (protocol/explorer.ts): thin glue over example-facts.ts and near-duplicate-members.ts. */
import { exampleFacts } from '../examples/example-facts.ts'
import { nearDuplicateMembers } from '../audit/near-duplicate-members.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExplorerRequests } from './protocol/explorer.ts'

export const explorerHandlers: HandlerTable<keyof ExplorerRequests> = {
  'example-facts': (message, options, context) => exampleFacts(context.dataset(message.dataset), message.exampleId, options.signal),
  'near-duplicate-members': (message, options, context) => nearDuplicateMembers(context.dataset(message.dataset), message.ids, options.signal),
}
