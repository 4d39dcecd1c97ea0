/** The three ways to open a dataset: the bundled demo, a local folder, a URL. */
import { demoRequest } from '../../lib/demo.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { OpenFolder } from './open-folder.tsx'
import { OpenUrlForm } from './open-url-form.tsx'
import { PickSummary } from './pick-summary.tsx'

function open(request: DatasetRequest): void {
  void datasetStore.getState().open(request)
}

export function OpenPanel() {
  return (
    <section className="open-panel" aria-label="Open a dataset">
      <button type="button" onClick={() => open(demoRequest())}>Open demo dataset</button>
      <OpenFolder onOpen={open} />
      <OpenUrlForm onOpen={open} />
      <PickSummary />
    </section>
  )
}
