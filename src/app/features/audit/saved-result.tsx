/**
 * Saved audit results in the Audit view: open one (a merged `mixscope merge` document or an `audit --json` output,
 * picked as a file; `_mixscope_audit.json` in the dataset root is shown on open without asking) and say, while it is
 * shown, where it came from, how it was audited and whether it looks like this dataset's; every table of the report
 * (the measures of a deep audit, the audio-check census, speaking rates…) can be browsed under "Measures and tables".
 */
import { useMemo, useRef, useState } from 'react'
import { useStore } from 'zustand'
import type { StoreApi } from 'zustand/vanilla'
import type { AuditReport } from '../../../engine/audit/rows/types.ts'
import type { ConfigSpec } from '../../../engine/pipeline/config/resolve.ts'
import { DataTable, type Column } from '../../components/data-table.tsx'
import { exactText, formatCount, formatNumber, plural } from '../../lib/format.ts'
import type { AuditStore } from './audit-store.ts'

/** The Open button and, while a saved result is shown, what it is and how to audit here instead. */
export function SavedResultBar({ store, dataset, spec }: { store: StoreApi<AuditStore>; dataset: number; spec: () => ConfigSpec }) {
  const s = useStore(store)
  const input = useRef<HTMLInputElement>(null)
  const loaded = s.loaded?.dataset === dataset ? s.loaded : null
  const o = s.result?.report.options
  const how = o ? (o.deep ? 'deep (every row decoded)' : o.sample > 0 ? `sample ${o.sample} of the rows decoded, seed ${o.seed}` : o.quick ? 'metadata and the cheap audio check' : 'metadata only') : ''
  return (
    <div className="saved-audit" data-loaded={loaded ? loaded.origin : 'none'}>
      {loaded && o && (
        <p role="status" className="saved-audit-banner">
          Showing the saved audit result <code>{loaded.name}</code>
          {loaded.origin === 'beside' ? ' found beside the dataset' : ''}
          {loaded.shards !== null ? `, merged from ${plural(loaded.shards, 'shard')}` : ''}: {how}; split {o.split},
          min_audio_len {o.min_audio_len}, max_audio_len {o.max_audio_len}, world_size {o.world_size}. Nothing was re-run,
          and config changes here do not apply to it.
          {loaded.mismatch && <strong className="field-problem"> {loaded.mismatch}</strong>}
        </p>
      )}
      <div className="row">
        <input ref={input} type="file" accept=".json,application/json" hidden aria-label="Audit result file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) void store.getState().openSaved(dataset, file).catch(() => undefined)
          }} />
        <button type="button" onClick={() => input.current?.click()} title="A merged audit (mixscope merge … --out _mixscope_audit.json) or an audit --json output">
          Open audit result…
        </button>
        {loaded && <button type="button" onClick={() => void store.getState().run(dataset, spec())}>Audit here instead</button>}
      </div>
    </div>
  )
}

type Cell = string | number | boolean | null
type Row = Record<string, Cell> & { __key: string }

function cellText(v: Cell): string {
  if (v === null) return '—'
  if (typeof v === 'number') return Number.isInteger(v) ? formatCount(v) : formatNumber(v)
  return String(v)
}

/** Every table of the report, one at a time (a sortable, searchable table; virtualized at 1,600 languages). */
export function ReportTables({ report }: { report: AuditReport }) {
  const names = useMemo(() => Object.keys(report.tables).filter((n) => (report.tables[n]?.length ?? 0) > 0).sort(), [report])
  const [chosen, setChosen] = useState<string | null>(null)
  const name = chosen !== null && names.includes(chosen) ? chosen : names[0] ?? null
  const rows = useMemo<Row[]>(() => (name ? report.tables[name] ?? [] : []).map((r, i) => ({ ...(r as Record<string, Cell>), __key: String(i) })), [report, name])
  const columns = useMemo<Column<Row>[]>(() => {
    const keys: string[] = []
    for (const r of rows.slice(0, 50)) for (const k of Object.keys(r)) if (k !== '__key' && !keys.includes(k)) keys.push(k)
    return keys.map((k) => {
      const numeric = rows.some((r) => typeof r[k] === 'number')
      return {
        id: k, header: k.replaceAll('_', ' '), label: k, numeric,
        sortValue: (r: Row) => (r[k] === null || r[k] === undefined ? null : numeric ? Number(r[k]) : String(r[k])),
        cell: (r: Row) => {
          const v = r[k] ?? null
          return <td key={k} className={numeric ? 'num' : undefined} data-value={v === null ? '' : String(v)} title={typeof v === 'number' ? exactText(v) : undefined}>{cellText(v)}</td>
        },
      }
    })
  }, [rows])
  if (names.length === 0) return null
  return (
    <details className="panel report-tables">
      <summary><h3>Measures and tables <span className="hint">({plural(names.length, 'table')} of the report)</span></h3></summary>
      <label className="search-field"><span>Table</span>
        <select value={name ?? ''} onChange={(e) => setChosen(e.target.value)} aria-label="Report table">
          {names.map((n) => <option key={n} value={n}>{n.replaceAll('_', ' ')} ({formatCount(report.tables[n]!.length)})</option>)}
        </select>
      </label>
      {name && <DataTable key={name} rows={rows} columns={columns} rowKey={(r) => r.__key} label={name.replaceAll('_', ' ')}
        search={{ label: 'Search the table', text: (r) => Object.values(r).join(' ') }} noun={['row', 'rows']} />}
    </details>
  )
}
