/** What the latest open is doing: progress with a Cancel button, or why it stopped. */
import type { Progress } from '../../../engine/dataset.ts'
import { formatBytes, formatCount } from '../../lib/format.ts'
import { datasetStore, useDatasetStore } from '../../stores/use-dataset-store.ts'

const phaseWords: Record<Progress['phase'], string> = {
  listing: 'Listing files',
  footers: 'Reading parquet footers',
  stats: 'Summing audio_size',
  validate: 'Checking rows',
  deep: 'Sniffing audio',
  plan: 'Planning batches',
  decode: 'Decoding audio',
  features: 'Computing features',
}

function ProgressLine({ progress }: { progress: Progress | null }) {
  if (!progress) return <p>Starting…</p>
  const unit = progress.phase === 'listing' ? 'files listed' : progress.phase === 'footers' ? 'footers read' : 'done'
  return (
    <>
      <p>
        {phaseWords[progress.phase]}: {formatCount(progress.done)}
        {progress.total !== null && ` of ${formatCount(progress.total)}`} {unit}
        {' · '}{formatCount(progress.requests)} requests, {formatBytes(progress.bytes)} read
      </p>
      <progress aria-label="Loading progress" max={progress.total ?? undefined} value={progress.total !== null ? progress.done : undefined} />
    </>
  )
}

export function LoadStatus() {
  const status = useDatasetStore((s) => s.status)
  const request = useDatasetStore((s) => s.request)
  const progress = useDatasetStore((s) => s.progress)
  const error = useDatasetStore((s) => s.error)

  if (status === 'loading') {
    return (
      <section className="load-status" aria-label="Loading" aria-busy="true">
        <p>Opening <span dir="auto">{request?.label}</span>…</p>
        <ProgressLine progress={progress} />
        <button type="button" onClick={() => datasetStore.getState().cancel()}>Cancel</button>
      </section>
    )
  }
  if (status === 'cancelled') {
    return <p className="load-status" role="status">Opening <span dir="auto">{request?.label}</span> was cancelled.</p>
  }
  if (status === 'error' && error) {
    return (
      <div className="load-status error" role="alert">
        <p>Could not open <span dir="auto">{request?.label}</span>: {error.message}</p>
        <p className="hint">Check the folder or URL (a URL dataset needs <code>_manifest.json</code> in its root, or point at one <code>.parquet</code> file).</p>
      </div>
    )
  }
  return null
}
