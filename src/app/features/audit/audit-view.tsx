/**
 * Audit, triage first: a headline of what blocks training (errors), row defects, data warnings and config notes,
 * each a count that filters the list; findings grouped by kind and collapsed; config notes kept apart from data
 * defects. The cheap audio check of every row runs by default after the metadata audit (no decoding: headers and
 * frames), the deep audit decodes every row on demand. Flagged rows per language count each row once. Each finding
 * links to its example (Inspector) or partition (Overview). A deep audit's near-duplicate clusters can be compared
 * side by side (near-duplicates-panel.tsx). Exports the findings as JSON and the flagged rows as JSONL: what is shown
 * (under the text filter, the language focus and the chosen category), or every listed finding when nothing narrows it.
 */
import { useEffect, useMemo, useState } from 'react'
import { useStore } from 'zustand'
import { engineClient } from '../../engine-client.ts'
import { FindingGroups, whereOf } from '../../components/finding-groups.tsx'
import { exactText, formatCount, formatHours, plural } from '../../lib/format.ts'
import { downloadBytes } from '../../lib/download.ts'
import { configSpec, configStore, useConfigStore } from '../../stores/config-store.ts'
import { useFocusSet } from '../../stores/focus-store.ts'
import { selectionStore } from '../../stores/selection-store.ts'
import { viewStore } from '../../stores/use-view-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableReport } from '../../stores/dataset-store.ts'
import { auditLinkStore } from '../../stores/audit-link-store.ts'
import { flaggedRowsJsonl, problemCounts } from '../../../engine/index.ts'
import { datasetKey, indexedDbPersistence } from './audit-state-db.ts'
import { createAuditStore } from './audit-store.ts'
import { joinFindings, languageOf, partitionOf, triageOf, type SourcedFinding, type Triage } from './audit-findings.ts'
import { DeepAuditPanel } from './deep-audit-panel.tsx'
import { ReportTables, SavedResultBar } from './saved-result.tsx'
import { NearDuplicatesPanel } from './near-duplicates-panel.tsx'
import { FilterDropsTable, FlaggedByLanguage, flaggedLanguages } from './language-tables.tsx'
import { RowPassStatus } from './row-pass-status.tsx'
import './audit.css'

export const auditStore = createAuditStore(engineClient, indexedDbPersistence)
// the shell's Audit tab counts from the latest result (src/app/stores/audit-link-store.ts), without loading this view
auditStore.subscribe((s, before) => {
  if (s.result === before.result && s.resultDataset === before.resultDataset) return
  auditLinkStore.setState({ audit: s.result && s.resultDataset !== null ? { dataset: s.resultDataset, result: s.result } : null })
})

const setOnly = (only: Triage | null) => auditLinkStore.setState({ only })

function inspect(f: SourcedFinding): void {
  selectionStore.getState().select(`${f.path}:${f.row}`, null)
  viewStore.getState().show('inspector')
}

/** Shows the Overview's partition table filtered to the folder of `path` (`?partition=`). */
function showPartition(path: string): void {
  const url = new URL(window.location.href)
  url.searchParams.set('partition', partitionOf(path))
  window.history.replaceState(window.history.state, '', url.href)
  viewStore.getState().show('overview')
}

function Where({ f }: { f: SourcedFinding }) {
  if (f.row !== null) {
    return <button type="button" className="link" onClick={() => inspect(f)} title="Show this example in the Inspector"><code dir="auto">{whereOf(f)}</code></button>
  }
  if (f.path !== '' && partitionOf(f.path) !== '' && !f.path.startsWith('..')) {
    return <button type="button" className="link" onClick={() => showPartition(f.path)} title="Show this partition in the Overview"><code dir="auto">{whereOf(f)}</code></button>
  }
  return <code dir="auto">{whereOf(f)}</code>
}

/** Rows a list of findings is about, each counted once. */
function distinctRows(list: readonly SourcedFinding[]): number {
  const ids = new Set<string>()
  for (const f of list) if (f.row !== null) ids.add(`${f.path}:${f.row}`)
  return ids.size
}

/** The audio check's line: the only part of the view that its progress re-renders. */
function AudioCheckLine({ rowsChecked, undecodable }: { rowsChecked: number | null; undecodable: number }) {
  const deepStatus = useStore(auditStore, (s) => s.deepStatus)
  const quickStatus = useStore(auditStore, (s) => s.quickStatus)
  const q = useStore(auditStore, (s) => s.quickProgress)
  const error = useStore(auditStore, (s) => s.error)
  return (
    <p className="audit-check hint" role="status" aria-live="polite">
      {deepStatus === 'done' ? `Audio: every row decoded (deep audit).`
        : quickStatus === 'running' ? <>Audio check: {q ? `${formatCount(q.done)} of ${formatCount(q.total ?? 0)} rows` : 'starting'} (headers and frames, no decoding)…{' '}
          <button type="button" onClick={() => auditStore.getState().stop()}>Stop</button></>
          : quickStatus === 'stopped' ? 'Audio check stopped: no row\'s audio was read.'
          : quickStatus === 'done' && rowsChecked !== null ? `Audio check: ${formatCount(rowsChecked)} rows read (headers and frames, no decoding); ${formatCount(undecodable)} undecodable. The deep audit decodes every sample.`
            : quickStatus === 'error' ? `Audio check failed: ${error}` : ''}
    </p>
  )
}

const triageCards: { id: Triage; title: string; what: string; tone: 'error' | 'warning' | 'info' }[] = [
  { id: 'blocking', title: 'Blocking errors', what: 'training would crash or refuse', tone: 'error' },
  { id: 'row', title: 'Row defects', what: 'rows training keeps or drops silently', tone: 'warning' },
  { id: 'data', title: 'Data warnings', what: 'files, partitions, the stats TSV', tone: 'warning' },
  { id: 'config', title: 'Config notes', what: 'how training treats this config', tone: 'info' },
]

/**
 * Starts the audit on open and on every config change (audit-store.ts decides whether the rows are read again): the
 * only part of the view a config change re-renders, so a beta step on the Mixture re-renders no finding list here.
 */
function AuditConfigSync({ dataset }: { dataset: number }) {
  const configState = useConfigStore((s) => s)
  const spec = useMemo(() => configSpec(configState), [configState])
  useEffect(() => {
    // a saved result beside the dataset (_mixscope_audit.json) is shown instead of running; one shown is kept; a
    // config change the row checks do not see (a beta step) refreshes the config's findings alone
    void auditStore.getState().start(dataset, spec)
  }, [dataset, spec])
  return null
}

/** The config's spec now (what a button starts an audit with). */
const specNow = () => configSpec(configStore.getState())

export function AuditView() {
  const report = useDatasetStore(usableReport)
  const preset = useConfigStore((s) => s.preset)
  const split = useConfigStore((s) => s.split)
  // narrow selectors: the audio check's progress re-renders its status line only (AudioCheckLine), not the lists
  const result = useStore(auditStore, (s) => s.result)
  const status = useStore(auditStore, (s) => s.status)
  const error = useStore(auditStore, (s) => s.error)
  const quickStatus = useStore(auditStore, (s) => s.quickStatus)
  const loaded = useStore(auditStore, (s) => s.loaded)
  const focus = useFocusSet()
  // the category shown is shared: the Overview's problem alert opens this view on the blocking errors
  const only = useStore(auditLinkStore, (s) => s.only)
  const [text, setText] = useState('')
  const dataset = report?.dataset ?? null
  const key = report ? datasetKey(report) : null

  useEffect(() => {
    if (key !== null) void auditStore.getState().refreshSaved(key)
  }, [key])
  const runs = useStore(auditStore, (s) => s.runs)
  const configRefreshes = useStore(auditStore, (s) => s.configRefreshes)

  const all = useMemo(() => joinFindings([
    ['validation', report ? [...report.validation.findings] : []],
    ['config', result?.configFindings ?? []],
    ['audit', result?.report.findings ?? []],
  ]), [report, result])
  const filtered = useMemo(() => {
    const needle = text.trim().toLowerCase()
    return all.filter((f) => {
      if (focus.size > 0) { const l = languageOf(f); if (l !== null && !focus.has(l)) return false }
      return needle === '' || f.message.toLowerCase().includes(needle) || whereOf(f).toLowerCase().includes(needle) || f.kind.includes(needle)
    })
  }, [all, text, focus])
  const byTriage = useMemo(() => {
    const out: Record<Triage, SourcedFinding[]> = { blocking: [], row: [], data: [], config: [] }
    for (const f of filtered) out[triageOf(f)].push(f)
    return out
  }, [filtered])
  // findings past the reports' cap per kind are counted, not listed (`finding_counts`): per kind, how many there are,
  // counted by the engine as the Audit tab's badge and the Overview's alert count them
  const totals = useMemo(() => {
    const sources = [report?.validation, result?.report].filter((r) => r !== undefined)
    return new Map(problemCounts({ sources, extra: result?.configFindings ?? [] }).kinds.map((k) => [k.kind, k.total]))
  }, [report, result])
  // and those not listed, per triage card (a kind's card is its first listed finding's)
  const unlisted = useMemo(() => {
    const out: Record<Triage, number> = { blocking: 0, row: 0, data: 0, config: 0 }
    const listed = new Map<string, { n: number; first: SourcedFinding }>()
    for (const f of all) {
      const l = listed.get(f.kind)
      if (l) l.n++
      else listed.set(f.kind, { n: 1, first: f })
    }
    for (const [kind, l] of listed) out[triageOf(l.first)] += Math.max(0, (totals.get(kind) ?? 0) - l.n)
    return out
  }, [all, totals])
  const unfiltered = text.trim() === '' && focus.size === 0
  const totalOf = unfiltered ? (kind: string) => totals.get(kind) ?? null : undefined
  const triageRows = useMemo(() => {
    const out = {} as Record<Triage, number>
    for (const id of Object.keys(byTriage) as Triage[]) out[id] = distinctRows(byTriage[id])
    return out
  }, [byTriage])
  const rowsOf = useMemo(() => {
    const m = new Map<string, number>()
    for (const l of report?.overview.languages ?? []) if (l.language !== '(none)') m.set(l.language, l.rows)
    return m
  }, [report])
  const flagged = useMemo(() => flaggedLanguages(result?.report.tables.flagged_by_language ?? [], rowsOf), [result, rowsOf])

  if (!report) {
    return <div className="empty-state"><h3>Nothing to audit yet</h3><p>Open a dataset (header): the audit runs as soon as it is open; a config change reads the rows again only when it changes what the row checks read (a beta step updates the config notes alone).</p></div>
  }
  const hoursOf = (kind: string) => result?.report.summary[kind]?.hours ?? null
  const unlistedTotal = unlisted.blocking + unlisted.row + unlisted.data + unlisted.config
  const cap = result?.report.options.max_findings_per_kind ?? null
  const t = result?.report.totals
  // export = what is shown: with a text filter, a language focus or one category, the findings listed under them
  const narrowed = !unfiltered || only !== null
  const shown = only === null ? filtered : byTriage[only]
  const exportJson = () => {
    // the findings the view holds: the first ones of each kind when the audit left some out (findings_omitted)
    const body = { schema_version: 1, root: report.root, config: result?.report.options ?? null, totals: t ?? null,
      summary: result?.report.summary ?? null, finding_counts: result?.report.finding_counts ?? {}, findings_omitted: unlistedTotal,
      ...(narrowed ? { shown: { text: text.trim(), languages: [...focus].sort(), category: only, findings: shown.length } } : {}),
      findings: narrowed ? shown : all, tables: result?.report.tables ?? {} }
    downloadBytes(JSON.stringify(body, null, 2) + '\n', narrowed ? 'audit-shown.json' : 'audit.json', 'application/json')
  }
  const exportFlagged = () => {
    const jsonl = narrowed ? flaggedRowsJsonl(shown) : result!.flaggedJsonl
    downloadBytes(jsonl, narrowed ? 'flagged-shown.jsonl' : 'flagged.jsonl', 'application/x-ndjson')
  }
  const sections = triageCards.filter((c) => c.id !== 'config' && (only === null || only === c.id))

  return (
    <section className="audit-view" aria-labelledby="audit-heading" data-audit-runs={runs} data-config-refreshes={configRefreshes}>
      <h2 id="audit-heading" className="visually-hidden">Audit</h2>
      <p role="status" aria-live="polite" className="audit-status">
        {status === 'running' && !result ? 'Auditing metadata…'
          : result && t ? <>
            {formatCount(all.length + unlistedTotal)} findings on {plural(t.rows, 'row')} ({formatHours(t.hours)}){result.level === 'footers' ? ' from the footers and the dataset index (no row read yet)' : ''}, config: {loaded ? 'as saved' : <>preset {preset ?? 'reference defaults'}</>}, split {loaded ? result.report.options.split : split}
            {result.report.options.deep ? ', audio decoded' : result.level === 'footers' ? '' : ', metadata only'}.
            {' '}<strong>{formatCount(t.flagged_rows)}</strong> of {formatCount(t.rows)} rows are flagged (<span title={exactText(t.flagged_hours, 'h')}>{formatHours(t.flagged_hours)}</span>).
            {unlistedTotal > 0 && <> Listed: the first {cap === null ? 'findings' : formatCount(cap)} of each kind; {formatCount(unlistedTotal)} more are counted, not listed.</>}
          </> : ''}
      </p>
      {dataset !== null && key !== null && <AuditConfigSync dataset={dataset} />}
      {dataset !== null && !loaded && <RowPassStatus store={auditStore} dataset={dataset} spec={specNow} />}
      <AudioCheckLine rowsChecked={t ? t.rows_audio_checked : null} undecodable={result?.report.summary['undecodable-audio']?.count ?? 0} />
      {error && quickStatus !== 'error' && <p className="field-problem" role="alert">{error}</p>}
      {dataset !== null && <SavedResultBar store={auditStore} dataset={dataset} spec={specNow} />}
      <div className="cards triage" role="group" aria-label="Triage">
        {triageCards.map((c) => {
          const list = byTriage[c.id]
          const rows = triageRows[c.id]
          const more = unfiltered ? unlisted[c.id] : 0
          const count = list.length + more
          return (
            <button key={c.id} type="button" className={`card ${count > 0 ? c.tone : ''}`} aria-pressed={only === c.id}
              onClick={() => setOnly(only === c.id ? null : c.id)} data-triage={c.id}>
              <span className="card-label">{c.title}</span>
              <span className="card-value" data-value={count}>{formatCount(count)}</span>
              <span className="sub">{rows > 0 ? `${more > 0 ? 'listed: ' : ''}${plural(rows, 'row')} · ` : ''}{c.what}</span>
            </button>
          )
        })}
      </div>
      <div className="row">
        <label className="search-field"><span>Filter findings</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="text in message, path or kind" /></label>
        {only && <button type="button" onClick={() => setOnly(null)}>Show every category</button>}
        <button type="button" disabled={!result || (narrowed && shown.length === 0)} onClick={exportJson}
          title={narrowed ? 'The findings shown under the filter, the focus and the category (the file says which)'
            : unlistedTotal > 0 ? 'The findings listed here (the first of each kind), with finding_counts; mixscope audit --findings FILE writes every one' : undefined}>
          {narrowed ? `Export ${formatCount(shown.length)} shown findings (JSON)` : <>Export findings (JSON){unlistedTotal > 0 ? ', first of each kind' : ''}</>}</button>
        <button type="button" disabled={!result || (narrowed ? !shown.some((f) => f.row !== null) : result.flaggedJsonl === '')} onClick={exportFlagged}
          title={narrowed ? 'The rows of the findings shown' : result?.flaggedCapped ? 'The rows of the findings listed here only; mixscope audit --flagged FILE writes every flagged row' : undefined}>
          {narrowed ? 'Export rows of the shown findings (JSONL)' : <>Export flagged rows (JSONL){result?.flaggedCapped ? ', of the listed findings' : ''}</>}</button>
        {unlistedTotal > 0 && <span className="hint" data-capped-export>Exports hold the listed findings only (the first of each kind); <code>mixscope audit --findings FILE --flagged FILE</code> writes every one.</span>}
        {focus.size > 0 && <span className="hint">Findings of {plural(focus.size, 'focused language')} (and of the whole dataset).</span>}
      </div>
      {sections.map((c) => (
        <section key={c.id} aria-labelledby={`triage-${c.id}`} className={`triage-section ${c.id}`}>
          <h3 id={`triage-${c.id}`}>{c.title} <span className="hint">({formatCount(byTriage[c.id].length + (unfiltered ? unlisted[c.id] : 0))}: {c.what})</span></h3>
          <FindingGroups findings={byTriage[c.id]} label={c.title} where={(f) => <Where f={f} />} hoursOf={hoursOf} totalOf={totalOf}
            empty={c.id === 'blocking' ? 'Nothing here would stop training.' : 'None.'} />
        </section>
      ))}
      {key && dataset !== null && <DeepAuditPanel store={auditStore} dataset={dataset} spec={specNow} datasetKey={key} />}
      {result && dataset !== null && (only === null || only === 'row') && <NearDuplicatesPanel dataset={dataset} rows={result.report.tables.near_duplicates ?? []} />}
      {result && (only === null || only === 'row') && (
        <div className="grid-2 wide-only">
          <section aria-labelledby="per-language-heading" className="panel">
            <h3 id="per-language-heading">Flagged rows per language</h3>
            <p className="hint">Each row counted once, whatever the number of its findings; its hours once.</p>
            <FlaggedByLanguage rows={flagged} />
          </section>
          <section aria-labelledby="drops-heading" className="panel">
            <h3 id="drops-heading">What the length filter drops (split {result.report.options.split})</h3>
            <FilterDropsTable rows={result.report.tables.length_cutoffs ?? []} minLen={result.report.options.min_audio_len} maxLen={result.report.options.max_audio_len} />
          </section>
        </div>
      )}
      {result && only === null && <ReportTables report={result.report} />}
      {(only === null || only === 'config') && (
        <section aria-labelledby="triage-config" className="triage-section config">
          <h3 id="triage-config">Config notes <span className="hint">({formatCount(byTriage.config.length)}: how training treats preset {preset ?? 'reference defaults'}, split {split}; not data defects)</span></h3>
          <FindingGroups findings={byTriage.config} label="Config notes" hoursOf={hoursOf} empty="None." />
        </section>
      )}
    </section>
  )
}
