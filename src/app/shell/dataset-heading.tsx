/**
 * The header's name of the open dataset: its folder (not `version=0`), badges for the version and source, and where it
 * is. While an open runs it names the dataset being opened (the views show that one's provisional numbers), never the
 * one opened before and never "No dataset open".
 */
import { useMemo } from 'react'
import { datasetTitle } from '../lib/dataset-title.ts'
import { shownReport } from '../stores/dataset-store.ts'
import { useDatasetStore } from '../stores/use-dataset-store.ts'

export function DatasetHeading() {
  const opening = useDatasetStore((s) => s.status === 'loading')
  const request = useDatasetStore((s) => (s.status === 'loading' ? s.request : s.reportRequest))
  const report = useDatasetStore(shownReport)
  const label = request?.label ?? null
  const heading = useMemo(() => {
    if (!request || !label) return null
    const type = request.description.type
    // before the first snapshot the corpora are not known: a `version=0` folder is then named by its label
    return datasetTitle({ label, kind: type === 'demo' ? 'demo' : type === 'url' ? 'url' : 'folder', corpora: report?.overview.corpusNames ?? [] })
  }, [label, request, report])
  return (
    <div className="dataset-heading">
      <h1 className="dataset-title">
        <span className="title-text" dir="auto">{heading ? heading.title : 'No dataset open'}</span>
        {heading?.badges.map((b) => <span key={b} className="badge">{b}</span>)}
        {heading && opening ? <span className="badge">opening</span> : null}
      </h1>
      <p className="app-dataset" aria-live="polite">{label ? <>Dataset: <span dir="auto">{label}</span></> : 'Open a folder, a URL or the demo to start.'}</p>
    </div>
  )
}
