/** What the latest open is doing: progress with a Cancel button, or why it stopped. */
import type { Progress } from '../../../engine/dataset/dataset.ts'
import { formatBytes, formatCount } from '../../lib/format.ts'
import { datasetStore, useDatasetStore } from '../../stores/use-dataset-store.ts'

const phaseWords: Record<Progress['phase'], string> = {
  listing: 'Listing files',
  footers: 'Reading parquet footers',
  stats: 'Summing audio_size',
  validate: 'Checking rows',
  audit: 'Auditing',
  deep: 'Sniffing audio',
  index: 'Indexing examples',
  plan: 'Planning batches',
  'warm-up': 'Checking the sampler\'s warm-up reads',
  decode: 'Decoding audio',
  features: 'Computing features',
  prepare: 'Converting',
}

/** `12`, or `3 of 12` when the total is known. */
function ofTotal(p: Progress): string {
  return p.total === null ? formatCount(p.done) : `${formatCount(p.done)} of ${formatCount(p.total)}`
}

function ProgressDetails({ progress, phases }: { progress: Progress | null; phases: Partial<Record<Progress['phase'], Progress>> }) {
  if (!progress) return <span>Starting…</span>
  const { listing, footers } = phases
  return (
    <>
      <dl className="progress-counts">
        <div><dt>Files listed</dt><dd>{listing ? formatCount(listing.done) : '…'}</dd></div>
        <div><dt>Footers read</dt><dd>{footers ? ofTotal(footers) : '…'}</dd></div>
        {progress.phase !== 'listing' && progress.phase !== 'footers' && (
          <div><dt>{phaseWords[progress.phase]}</dt><dd>{ofTotal(progress)}</dd></div>
        )}
        <div><dt>Requests</dt><dd>{formatCount(progress.requests)}</dd></div>
        <div><dt>Bytes read</dt><dd>{formatBytes(progress.bytes)}</dd></div>
      </dl>
      <progress aria-label="Loading progress" max={progress.total ?? undefined} value={progress.total !== null ? progress.done : undefined} />
    </>
  )
}

export function LoadStatus() {
  const status = useDatasetStore((s) => s.status)
  const request = useDatasetStore((s) => s.request)
  const progress = useDatasetStore((s) => s.progress)
  const phases = useDatasetStore((s) => s.phases)
  const error = useDatasetStore((s) => s.error)

  if (status === 'loading') {
    return (
      <section className="load-status" aria-label="Loading" aria-busy="true">
        <strong>Opening <span dir="auto">{request?.label}</span>{progress ? ` — ${phaseWords[progress.phase]}…` : '…'}</strong>
        <ProgressDetails progress={progress} phases={phases} />
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
