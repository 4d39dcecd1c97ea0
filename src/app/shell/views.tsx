/**
 * The explorer's views, in tab order. A view is one entry here (its label and component) and its id in
 * `viewIds` (src/app/stores/view-store.ts). Views read the stores; they talk to the engine only through the worker
 * client, and switch views through the view store (never by importing this module: it imports them).
 */
import type { ComponentType } from 'react'
import { OverviewView } from '../features/overview/overview-view.tsx'
import { BatchesView } from '../features/batches/batches-view.tsx'
import { MixtureView } from '../features/mixture/mixture-view.tsx'
import { AuditView } from '../features/audit/audit-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'
import { PrepareView } from '../features/prepare/prepare-view.tsx'
import { viewIds, type ViewId } from '../stores/view-store.ts'
import { ExamplesWorkspace } from './examples-workspace.tsx'

export interface ViewDefinition {
  id: ViewId
  label: string
  component: ComponentType
}

const definitions: Record<ViewId, Omit<ViewDefinition, 'id'>> = {
  overview: { label: 'Overview', component: OverviewView },
  audit: { label: 'Audit', component: AuditView },
  mixture: { label: 'Mixture', component: MixtureView },
  batches: { label: 'Batches', component: BatchesView },
  examples: { label: 'Examples', component: ExamplesWorkspace },
  inspector: { label: 'Inspector', component: InspectorView },
  prepare: { label: 'Prepare', component: PrepareView },
}

export const views: ViewDefinition[] = viewIds.map((id) => ({ id, ...definitions[id] }))

/** The view for an id. */
export function viewById(id: ViewId): ViewDefinition {
  return views.find((v) => v.id === id) ?? views[0]
}
