/**
 * `config-resolve` (`resolveConfig`): the header's config picker asks for it as the page starts, while the dataset
 * opens, so it is a group of its own, not loaded with the planning kinds.
 */
import { resolveConfig } from '../pipeline/config/resolve.ts'
import type { HandlerTable } from './handler-types.ts'

export const configHandlers: HandlerTable<'config-resolve'> = {
  'config-resolve': (message) => resolveConfig(message.spec),
}
