/**
 * The label of a progressive open's provisional numbers (minimal hookup, to be styled by the Overview's owner): what
 * the charts below show while the open is still reading (`provisionalLabel`, from the engine's structured fields).
 */
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { formatCount } from '../../lib/format.ts'
import { provisionalLabel } from '../../lib/provisional-label.ts'

export function ProvisionalNotice({ report }: { report: OpenResult }) {
  const p = report.provisional
  if (!p) return null
  return (
    <div className="notice provisional" role="status" data-provisional={p.stage}>
      <p><strong>{p.stage === 'estimate' ? 'Estimated numbers' : p.stage === 'stats' ? 'Partial numbers' : 'Checking rows'}</strong>: {provisionalLabel(p)}.</p>
      {p.stage !== 'estimate' && <p>{formatCount(p.filesDone)} of {formatCount(p.filesTotal)} files described.</p>}
    </div>
  )
}
