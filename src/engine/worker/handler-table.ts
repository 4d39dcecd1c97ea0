/**
 * Every request kind's handler, joined in one table (type-checked against `Requests` in protocol.ts: a kind
 * without a handler does not compile). A new kind: an entry in `Requests`, a module exporting a `HandlerTable`
 * for it, and one entry here.
 *
 * Only what opening a dataset runs is loaded with the worker (the dataset kinds, the status bar's `engine-status`).
 * Every other group is its own module, loaded on its first request: at start the worker compiles a third of the
 * engine, and the open, which waits for that, starts sooner.
 */
import { datasetHandlers } from './dataset-handlers.ts'
import { statusHandlers } from './status-handlers.ts'
import type { HandlerTable } from './handler-types.ts'
import type { RequestKind } from './protocol.ts'

/**
 * A group's handlers, loaded on the first request of any of its kinds (`kinds` lists them all: a kind left out or
 * one too many does not compile).
 */
function loadedOnFirstUse<K extends RequestKind>(load: () => Promise<HandlerTable<K>>, kinds: Record<K, true>): HandlerTable<K> {
  let loading: Promise<HandlerTable<K>> | null = null
  const table = {} as Record<K, unknown>
  for (const kind of Object.keys(kinds) as K[]) {
    table[kind] = async (...args: unknown[]) => {
      const handlers = await (loading ??= load().catch((error: unknown) => { loading = null; throw error }))
      return (handlers[kind] as (...a: unknown[]) => unknown)(...args)
    }
  }
  return table as HandlerTable<K>
}

export const allHandlers: HandlerTable = {
  ...datasetHandlers,
  ...statusHandlers,
  ...loadedOnFirstUse(() => import('./config-handlers.ts').then((m) => m.configHandlers), { 'config-resolve': true }),
  ...loadedOnFirstUse(() => import('./plan-handlers.ts').then((m) => m.planHandlers), {
    'mixture': true, 'mixture-weights': true, 'plan-start': true, 'plan-next': true, 'plan-warm-up': true, 'plan-batch': true, 'plan-export': true, 'plan-featurize': true, 'plan-close': true,
  }),
  ...loadedOnFirstUse(() => import('./audit-handlers.ts').then((m) => m.auditHandlers), { 'audit': true, 'audit-config': true, 'audit-open': true, 'audit-state': true }),
  ...loadedOnFirstUse(() => import('./examples-handlers.ts').then((m) => m.examplesHandlers), { 'examples-search': true, 'examples-neighbour': true, 'examples-scan': true }),
  ...loadedOnFirstUse(() => import('./inspect-handlers.ts').then((m) => m.inspectHandlers), {
    'inspect-example': true, 'inspect-spectrogram': true, 'tokenizer-load': true,
  }),
  ...loadedOnFirstUse(() => import('./prepare-handlers.ts').then((m) => m.prepareHandlers), {
    'prepare-scan': true, 'prepare-run': true, 'prepare-control': true, 'prepare-zip': true,
  }),
  ...loadedOnFirstUse(() => import('./explorer-handlers.ts').then((m) => m.explorerHandlers), { 'example-facts': true, 'near-duplicate-members': true }),
}
