/**
 * Audit: every finding about the open dataset and config (validation at open, `checkConfig`, the audit's checks;
 * with a deep audit, the decoded audio's too), grouped by severity and kind, sortable and filterable, with counts per
 * language and what the length filter drops. Each finding links to its example (Inspector) or partition (Overview).
 * Exports the findings as JSON and the flagged rows as JSONL.
 */
import { useEffect, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import { engineClient } from '../../engine-client.ts'
import { formatCount, formatHours } from '../../lib/format.ts'
import { configSpec, useConfigStore } from '../../stores/config-store.ts'
import { selectionStore } from '../../stores/selection-store.ts'
import { viewStore } from '../../stores/use-view-store.ts'
import type { ViewId } from '../../stores/view-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { datasetKey, indexedDbPersistence } from './audit-state-db.ts'
import { createAuditStore } from './audit-store.ts'
import { filterFindings, groupByKind, joinFindings, partitionOf, sortFindingsBy, whereOf, type SortKey, type SourcedFinding } from './audit-findings.ts'
import { DeepAuditPanel } from './deep-audit-panel.tsx'
import { FilterDropsTable, LanguageKindsChart } from './language-tables.tsx'
import './audit.css'
import { downloadBytes } from '../../lib/download.ts'

export const auditStore = createAuditStore(engineClient, indexedDbPersistence)

/** Rows of the findings table rendered before "Show all". */
/** Findings rendered per page: a click adds a page, so a list of 100,000 never renders at once. */
const pageSize = 300

/** Shows a view. */
function show(view: ViewId): void {
  viewStore.getState().show(view)
}

function inspect(f: SourcedFinding): void {
  selectionStore.getState().select(`${f.path}:${f.row}`, null)
  show('inspector')
}

/** Shows the Overview's partition table filtered to the folder of `path` (`?partition=`). */
function showPartition(path: string): void {
  const url = new URL(window.location.href)
  url.searchParams.set('partition', partitionOf(path))
  window.history.replaceState(window.history.state, '', url.href)
  show('overview')
}

export function AuditView() {
  const report = useDatasetStore((s) => s.report)
  const configState = useConfigStore((s) => s)
  const spec = useMemo(() => configSpec(configState), [configState])
  const a = useStore(auditStore)
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'severity', descending: false })
  const [kinds, setKinds] = useState<Set<string>>(new Set())
  const [text, setText] = useState('')
  const [pages, setPages] = useState(1)
  const dataset = report?.dataset ?? null
  const key = report ? datasetKey(report) : null

  useEffect(() => {
    if (dataset === null || key === null) return
    void auditStore.getState().run(dataset, spec)
    void auditStore.getState().refreshSaved(key)
  }, [dataset, key, spec])

  const all = useMemo(() => joinFindings([
    ['validation', report ? [...report.validation.findings] : []],
    ['config', a.result?.configFindings ?? []],
    ['audit', a.result?.report.findings ?? []],
  ]), [report, a.result])
  const groups = useMemo(() => groupByKind(all), [all])
  const shown = useMemo(() => sortFindingsBy(filterFindings(all, kinds, text), sort.key, sort.descending), [all, kinds, text, sort])

  if (!report) return <p>Open a dataset to audit it.</p>
  const result = a.result

  function toggleKind(kind: string) {
    setPages(1)
    setKinds((old) => {
      const next = new Set(old)
      if (next.has(kind)) next.delete(kind)
      else next.add(kind)
      return next
    })
  }

  function header(label: string, k: SortKey) {
    const active = sort.key === k
    return (
      <th scope="col" aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button type="button" className="sort" onClick={() => setSort({ key: k, descending: active ? !sort.descending : false })}>
          {label}{active ? (sort.descending ? ' ▼' : ' ▲') : ''}
        </button>
      </th>
    )
  }

  function exportJson() {
    const body = { schema_version: 1, root: report!.root, config: result?.report.options ?? null, totals: result?.report.totals ?? null,
      summary: result?.report.summary ?? null, findings: all, tables: result?.report.tables ?? {} }
    downloadBytes(JSON.stringify(body, null, 2) + '\n', 'audit.json', 'application/json')
  }

  return (
    <section className="audit-view" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit</h2>
      <p role="status" aria-live="polite">
        {a.status === 'running' ? 'Auditing metadata…' : result ? `${formatCount(all.length)} findings on ${formatCount(result.report.totals.rows)} rows (${formatHours(result.report.totals.hours)} h), config: preset ${configState.preset ?? 'reference defaults'}, split ${configState.split}${result.report.options.deep ? ', audio decoded' : ', metadata only'}.` : ''}
      </p>
      {a.error && <p className="field-problem" role="alert">{a.error}</p>}
      {key && dataset !== null && <DeepAuditPanel store={auditStore} dataset={dataset} spec={spec} datasetKey={key} />}
      <div className="row">
        <button type="button" disabled={!result} onClick={exportJson}>Export findings (JSON)</button>
        <button type="button" disabled={!result || result.flaggedJsonl === ''} onClick={() => downloadBytes(result!.flaggedJsonl, 'flagged.jsonl', 'application/x-ndjson')}>Export flagged rows (JSONL)</button>
      </div>
      <section aria-labelledby="kinds-heading">
        <h3 id="kinds-heading">By severity and kind</h3>
        <table aria-label="Findings by kind" className="kinds">
          <thead><tr><th scope="col">Show</th><th scope="col">Severity</th><th scope="col">Kind</th><th scope="col" className="num">Findings</th><th scope="col" className="num">Rows</th><th scope="col" className="num">Hours</th><th scope="col">From</th></tr></thead>
          <tbody>
            {groups.map((g) => {
              const s = result?.report.summary[g.kind]
              return (
                <tr key={`${g.severity}/${g.kind}`} data-kind={g.kind} data-severity={g.severity}>
                  <td><input type="checkbox" aria-label={`Only ${g.kind}`} checked={kinds.has(g.kind)} onChange={() => toggleKind(g.kind)} /></td>
                  <td><span className={`severity ${g.severity}`}>{g.severity}</span></td>
                  <td><code>{g.kind}</code></td>
                  <td className="num">{formatCount(g.count)}</td>
                  <td className="num">{s ? formatCount(s.rows) : ''}</td>
                  <td className="num" data-value={s?.hours ?? ''}>{s ? formatHours(s.hours) : ''}</td>
                  <td>{g.sources.join(', ')}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </section>
      {result && (
        <div className="chart-and-table">
          <section aria-labelledby="per-language-heading">
            <h3 id="per-language-heading">Flagged rows per language</h3>
            <LanguageKindsChart rows={result.report.tables.kinds_by_partition ?? []} />
          </section>
          <section aria-labelledby="drops-heading">
            <h3 id="drops-heading">What the length filter drops (split {result.report.options.split})</h3>
            <FilterDropsTable rows={result.report.tables.length_cutoffs ?? []} minLen={result.report.options.min_audio_len} maxLen={result.report.options.max_audio_len} />
          </section>
        </div>
      )}
      <section aria-labelledby="all-findings-heading">
        <h3 id="all-findings-heading">Findings</h3>
        <div className="row">
          <label htmlFor="audit-filter">Filter</label>
          <input id="audit-filter" type="search" value={text} onChange={(e) => { setText(e.target.value); setPages(1) }} placeholder="text in message, path or kind" />
          {kinds.size > 0 && <button type="button" onClick={() => { setKinds(new Set()); setPages(1) }}>Show every kind</button>}
          <span className="hint">{formatCount(shown.length)} shown</span>
        </div>
        <table aria-label="Audit findings" className="findings">
          <thead><tr>{header('Severity', 'severity')}{header('Kind', 'kind')}{header('Where', 'where')}{header('Message', 'message')}{header('From', 'source')}</tr></thead>
          <tbody>
            {shown.slice(0, pages * pageSize).map((f, i) => (
              <tr key={i} data-severity={f.severity} data-kind={f.kind}>
                <td><span className={`severity ${f.severity}`}>{f.severity}</span></td>
                <td><code>{f.kind}</code></td>
                <td className="where">
                  {f.row !== null ? (
                    <button type="button" className="link" onClick={() => inspect(f)} title="Show this example in the Inspector"><code dir="auto">{whereOf(f)}</code></button>
                  ) : f.path !== '' && partitionOf(f.path) !== '' && !f.path.startsWith('..') ? (
                    <button type="button" className="link" onClick={() => showPartition(f.path)} title="Show this partition in the Overview"><code dir="auto">{whereOf(f)}</code></button>
                  ) : <code dir="auto">{whereOf(f)}</code>}
                </td>
                <td dir="auto">{f.message}</td>
                <td>{f.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length > pages * pageSize && (
          <button type="button" onClick={() => setPages(pages + 1)}>
            Show {formatCount(Math.min(pageSize, shown.length - pages * pageSize))} more ({formatCount(shown.length - pages * pageSize)} not shown)
          </button>
        )}
      </section>
    </section>
  )
}
