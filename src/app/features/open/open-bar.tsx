/**
 * Opening a dataset, in one line of the header: a URL (a root holding `_manifest.json`, or one `.parquet`), a local
 * folder (picker, or drop one anywhere on the page), the bundled demo, a stats TSV to compare against, the training
 * config (preset or recipe) the other views use, and the recently opened list.
 */
import * as Popover from '@radix-ui/react-popover'
import { useId, useState, type ChangeEvent } from 'react'
import { demoRequest } from '../../lib/demo.ts'
import { datasetStore, useDatasetStore } from '../../stores/use-dataset-store.ts'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { ConfigPicker } from './config-picker.tsx'
import { OpenFolder } from './open-folder.tsx'
import { OpenUrlForm } from './open-url-form.tsx'
import { RecentList, useRememberRecent } from './recent-list.tsx'
import './open.css'

export function openRequest(request: DatasetRequest): void {
  void datasetStore.getState().open(request)
}

/** "Stats TSV": pick a `language_distribution_*.tsv` to compare the open dataset against (wins over the one found beside it). */
function PickSummary() {
  const id = useId()
  const request = useDatasetStore((s) => s.reportRequest)
  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file || !request) return
    const bytes = new Uint8Array(await file.arrayBuffer())
    void datasetStore.getState().open({ ...request, summary: { path: file.name, bytes } })
  }
  return (
    <span className="file-button">
      <label htmlFor={id} className={`button-like${request ? '' : ' disabled'}`} title="Compare the open dataset with a language_distribution_*.tsv">Stats TSV…</label>
      <input id={id} className="visually-hidden" type="file" accept=".tsv,text/tab-separated-values" disabled={!request} onChange={(e) => void onFile(e)} />
    </span>
  )
}

export function OpenBar() {
  useRememberRecent()
  const [recentOpen, setRecentOpen] = useState(false)
  return (
    <div className="open-bar" role="group" aria-label="Open a dataset">
      <OpenUrlForm onOpen={openRequest} />
      <OpenFolder onOpen={openRequest} />
      <button type="button" onClick={() => openRequest(demoRequest())}>Open demo dataset</button>
      <PickSummary />
      <ConfigPicker />
      <Popover.Root open={recentOpen} onOpenChange={setRecentOpen}>
        <Popover.Trigger asChild><button type="button">Recently opened</button></Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover" sideOffset={6} align="end" aria-label="Recently opened datasets">
            <RecentList onOpened={() => setRecentOpen(false)} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  )
}
