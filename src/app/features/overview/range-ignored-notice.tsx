/**
 * Shown when the HTTP server ignored `Range` (answered reads with whole files): those reads failed, and opening the
 * dataset properly means downloading every file whole. The user decides; "Read whole files" reopens with that allowed.
 */
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { formatBytes, formatCount } from '../../lib/format.ts'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'

/** The same request with whole-file reads allowed, or `null` when it is not an HTTP source or already allows them. */
export function withWholeFileReads(request: DatasetRequest): DatasetRequest | null {
  const d = request.description
  if ((d.type !== 'url' && d.type !== 'demo') || d.allowWholeFileReads) return null
  return { ...request, description: { ...d, allowWholeFileReads: true } }
}

export function RangeIgnoredNotice({ report, request }: { report: OpenResult; request: DatasetRequest | null }) {
  const retry = request && report.rangeIgnored ? withWholeFileReads(request) : null
  if (!report.rangeIgnored || !retry) return null
  return (
    <div className="notice" role="alert">
      <p>
        The server ignores HTTP <code>Range</code> requests (<code dir="auto">{report.rangeIgnored.path}</code> came back whole, {formatBytes(report.rangeIgnored.size)}),
        so parquet footers could not be read on their own. Reading this dataset means downloading all
        {' '}{formatCount(report.files.parquet)} files whole: {formatBytes(report.files.bytes)}.
      </p>
      <button type="button" onClick={() => void datasetStore.getState().open(retry)}>Read whole files</button>
    </div>
  )
}
