/**
 * Opening a dataset: the bundled demo, a local folder (picker or drop), a URL, a stats TSV to compare against, the
 * recently opened list, and the training config (preset or recipe) the other views use.
 */
import { demoRequest } from '../../lib/demo.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { ConfigPicker } from './config-picker.tsx'
import { DropZone } from './drop-zone.tsx'
import { OpenFolder } from './open-folder.tsx'
import { OpenUrlForm } from './open-url-form.tsx'
import { PickSummary } from './pick-summary.tsx'
import { RecentList } from './recent-list.tsx'
import './open.css'

function open(request: DatasetRequest): void {
  void datasetStore.getState().open(request)
}

export function OpenPanel() {
  return (
    <DropZone onOpen={open}>
      <section className="open-panel" aria-label="Open a dataset">
        <button type="button" onClick={() => open(demoRequest())}>Open demo dataset</button>
        <OpenFolder onOpen={open} />
        <OpenUrlForm onOpen={open} />
        <PickSummary />
        <ConfigPicker />
      </section>
      <RecentList />
    </DropZone>
  )
}
