/** The header's name of the open dataset: its folder (not `version=0`), badges for the version and source, and where it is. */
import { useMemo } from 'react'
import { datasetTitle } from '../lib/dataset-title.ts'
import { useDatasetStore } from '../stores/use-dataset-store.ts'

export function DatasetHeading() {
  const label = useDatasetStore((s) => s.reportLabel)
  const request = useDatasetStore((s) => s.reportRequest)
  const report = useDatasetStore((s) => s.report)
  const heading = useMemo(() => {
    if (!label || !request || !report) return null
    const type = request.description.type
    return datasetTitle({ label, kind: type === 'demo' ? 'demo' : type === 'url' ? 'url' : 'folder', corpora: report.overview.corpusNames })
  }, [label, request, report])
  return (
    <div className="dataset-heading">
      <h1 className="dataset-title">
        <span className="title-text" dir="auto">{heading ? heading.title : 'No dataset open'}</span>
        {heading?.badges.map((b) => <span key={b} className="badge">{b}</span>)}
      </h1>
      <p className="app-dataset" aria-live="polite">{label ? <>Dataset: <span dir="auto">{label}</span></> : 'Open a folder, a URL or the demo to start.'}</p>
    </div>
  )
}
