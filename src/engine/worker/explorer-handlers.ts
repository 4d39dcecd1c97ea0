/**
 * Handlers of the explorer's own kinds (protocol/explorer.ts): thin glue over src/engine/examples/example-facts.ts
 * (`example-facts`: what the Inspector shows of an example that does not decode, the same facts and findings as
 * `inspect-example`'s) and src/engine/audit/near-duplicate-members.ts (a near-duplicate cluster's members aligned).
 */
import { inspectExample } from '../examples/example-facts.ts'
import { nearDuplicateMembers } from '../audit/near-duplicate-members.ts'
import type { HandlerTable } from './handler-types.ts'
import type { ExplorerRequests } from './protocol/explorer.ts'

export const explorerHandlers: HandlerTable<keyof ExplorerRequests> = {
  'example-facts': async (message, options, context) => (await inspectExample(context.dataset(message.dataset), message.exampleId, { signal: options.signal, config: message.config ?? null })).facts,
  'near-duplicate-members': (message, options, context) => nearDuplicateMembers(context.dataset(message.dataset), message.ids, options.signal),
}
