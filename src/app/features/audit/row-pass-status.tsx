/**
 * What is still reading rows while the Audit already shows what the footers say (docs/architecture.md "Views while
 * the rows are read"): the open's row checks (nulls, sizes, folder keys) and the audit's own row pass (length, text,
 * script and leakage checks), each as rows read of all, with a Stop button; a stopped pass can be continued.
 */
import type { StoreApi } from 'zustand/vanilla'
import { useStore } from 'zustand'
import { formatCount } from '../../lib/format.ts'
import { rowCheckProgress } from '../../stores/dataset-store.ts'
import { datasetStore, useDatasetStore } from '../../stores/use-dataset-store.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import type { Progress } from '../../../engine/dataset/dataset.ts'
import type { AuditStore } from './audit-store.ts'

function share(p: Progress | null): string {
  if (!p || p.total === null) return 'starting'
  const pct = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100
  return `${formatCount(p.done)} of ${formatCount(p.total)} rows (${pct} %)`
}

export function RowPassStatus({ store, dataset, spec }: { store: StoreApi<AuditStore>; dataset: number; spec: () => ConfigSpec }) {
  const openChecks = useDatasetStore(rowCheckProgress)
  const checking = useDatasetStore((s) => s.status === 'loading' && s.partial?.provisional?.stage === 'validating')
  const rowStatus = useStore(store, (s) => s.rowStatus)
  const rowProgress = useStore(store, (s) => s.rowProgress)
  const level = useStore(store, (s) => s.result?.level ?? null)
  return (
    <div className="row-passes" role="group" aria-label="Still running">
      {checking && (
        <p className="hint" role="status" data-pass="open-row-checks" data-done={openChecks?.done ?? 0} data-total={openChecks?.total ?? ''}>
          Row checks of the open (nulls, sizes, folder keys): {share(openChecks)} checked; their findings join the list when they finish.{' '}
          <button type="button" onClick={() => datasetStore.getState().cancel()}>Stop row checks</button>
        </p>
      )}
      {rowStatus === 'running' && (
        <p className="hint" role="status" data-pass="audit-rows" data-done={rowProgress?.done ?? 0} data-total={rowProgress?.total ?? ''}>
          Reading every row&apos;s audio_size and text (length, text, script and leakage checks): {share(rowProgress)} read. Until then the findings come from
          the {level === 'footers' ? 'footers and the dataset index' : 'last finished pass'}.{' '}
          <button type="button" onClick={() => store.getState().stop()}>Stop</button>
        </p>
      )}
      {rowStatus === 'stopped' && (
        <p className="hint" role="status" data-pass="audit-rows">
          Row pass stopped: the findings come from the footers and the dataset index only (no length, text, script or leakage check).{' '}
          <button type="button" onClick={() => void store.getState().run(dataset, spec())}>Continue</button>
        </p>
      )}
    </div>
  )
}
