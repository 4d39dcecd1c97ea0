/**
 * Every request kind's handler, joined in one table (type-checked against `Requests` in protocol.ts: a kind
 * without a handler does not compile). A new kind: an entry in `Requests`, a module exporting a `HandlerTable`
 * for it, and one spread here.
 */
import { datasetHandlers } from './dataset-handlers.ts'
import { planHandlers } from './plan-handlers.ts'
import { auditHandlers } from './audit-handlers.ts'
import { examplesHandlers } from './examples-handlers.ts'
import { inspectHandlers } from './inspect-handlers.ts'
import { prepareHandlers } from './prepare-handlers.ts'
import { explorerHandlers } from './explorer-handlers.ts'
import type { HandlerTable } from './handler-types.ts'

export const allHandlers: HandlerTable = {
  ...datasetHandlers,
  ...planHandlers,
  ...auditHandlers,
  ...examplesHandlers,
  ...inspectHandlers,
  ...prepareHandlers,
  ...explorerHandlers,
}
