/**
 * The explorer's views, in tab order. A view is one entry here: its id (the `?view=` value), its tab label and its
 * component. Views read the stores; they talk to the engine only through the worker client.
 */
import type { ComponentType } from 'react'
import { OverviewView } from '../features/overview/overview-view.tsx'
import { BatchesView } from '../features/batches/batches-view.tsx'
import { MixtureView } from '../features/mixture/mixture-view.tsx'
import { AuditView } from '../features/audit/audit-view.tsx'
import { ExamplesView } from '../features/examples/examples-view.tsx'
import { InspectorView } from '../features/inspector/inspector-view.tsx'
import { PrepareView } from '../features/prepare/prepare-view.tsx'

export interface ViewDefinition {
  id: string
  label: string
  component: ComponentType
}

export const views: ViewDefinition[] = [
  { id: 'overview', label: 'Overview', component: OverviewView },
  { id: 'audit', label: 'Audit', component: AuditView },
  { id: 'mixture', label: 'Mixture', component: MixtureView },
  { id: 'batches', label: 'Batches', component: BatchesView },
  { id: 'examples', label: 'Examples', component: ExamplesView },
  { id: 'inspector', label: 'Inspector', component: InspectorView },
  { id: 'prepare', label: 'Prepare', component: PrepareView },
]

/** The view for an id, or the first view when the id is unknown. */
export function viewById(id: string | null): ViewDefinition {
  return views.find((v) => v.id === id) ?? views[0]
}
