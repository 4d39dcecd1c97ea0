/** "Stats TSV": pick a `language_distribution_*.tsv` to compare the open dataset against (wins over the one found beside it). */
import { useId, type ChangeEvent } from 'react'
import { datasetStore, useDatasetStore } from '../../stores/use-dataset-store.ts'

export function PickSummary() {
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
    <div className="pick-summary">
      <label htmlFor={id}>Stats TSV</label>
      <input id={id} type="file" accept=".tsv,text/tab-separated-values" disabled={!request} onChange={(e) => void onFile(e)} />
    </div>
  )
}
