/** The deep audit's controls: run / resume (from the partial state kept in IndexedDB), progress, cancel, forget. */
import { useStore } from 'zustand'
import type { StoreApi } from 'zustand/vanilla'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import { formatBytes, formatCount } from '../../lib/format.ts'
import type { AuditStore } from './audit-store.ts'

export function DeepAuditPanel({ store, dataset, spec, datasetKey }: { store: StoreApi<AuditStore>; dataset: number; spec: () => ConfigSpec; datasetKey: string }) {
  const s = useStore(store)
  const p = s.deepProgress
  const running = s.deepStatus === 'running'
  return (
    <div className="deep-audit" aria-labelledby="deep-heading">
      <h3 id="deep-heading">Deep audit (decodes every row in the worker)</h3>
      <div className="row">
        {!running && (
          <button type="button" onClick={() => void store.getState().runDeep(dataset, spec(), datasetKey)}>
            {s.savedGroups > 0 && s.deepStatus !== 'done' ? `Resume deep audit (${formatCount(s.savedGroups)} row groups saved)` : 'Deep audit'}
          </button>
        )}
        {running && <button type="button" onClick={() => void store.getState().cancelDeep()}>Cancel deep audit</button>}
        {!running && s.savedGroups > 0 && <button type="button" onClick={() => void store.getState().clearSaved(datasetKey)}>Forget saved progress</button>}
      </div>
      {running && (
        <div role="status" aria-live="polite">
          <progress max={p?.phase === 'deep' ? p.total ?? undefined : undefined} value={p?.phase === 'deep' ? p.done : undefined} aria-label="Deep audit progress" />
          <p>{p ? `${p.phase === 'deep' ? 'Decoding' : 'Reading metadata'}: ${formatCount(p.done)} of ${p.total === null ? '?' : formatCount(p.total)}${p.phase === 'deep' ? ' rows' : ' row groups'}, ${formatBytes(p.bytes)} read` : 'Starting…'}</p>
        </div>
      )}
      {s.deepStatus === 'cancelled' && <p role="status">Cancelled; {formatCount(s.savedGroups)} row groups are saved and will not be decoded again.</p>}
      {s.deepStatus === 'done' && <p role="status">Deep audit done{s.reusedGroups ? ` (${formatCount(s.reusedGroups)} row groups reused from the saved progress)` : ''}.</p>}
    </div>
  )
}
