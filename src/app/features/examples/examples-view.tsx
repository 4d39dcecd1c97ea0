/**
 * The Examples list: the filter, then a virtualized table of the matching examples (pages fetched from the worker
 * as they scroll into view) with sortable column headers, an inline play button and the findings of each row.
 * Choosing a row (click, Enter) selects it; the Inspector beside the list shows it while the list keeps its place.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from '../../components/virtual-after-layout.ts'
import { useEffect, useRef, type KeyboardEvent } from 'react'
import type { ExampleSample, ExampleSort, ExampleSummary } from '../../../engine/examples/search.ts'
import type { TextScanStatus } from '../../../engine/examples/text-scan.ts'
import { languageName } from '../../lib/language-names.ts'
import { formatCount, formatSamples } from '../../lib/format.ts'
import { focusStore, useFocusStore } from '../../stores/focus-store.ts'
import { playbackStore } from '../../stores/playback-store.ts'
import { selectionStore, useSelectionStore } from '../../stores/selection-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableDataset } from '../../stores/dataset-store.ts'
import { examplesStore, useExamplesStore } from '../../stores/use-examples-store.ts'
import { showAudit } from '../../stores/audit-link-store.ts'
import { ExamplesFilter } from './examples-filter.tsx'
import './examples.css'

const rowHeight = 34

function select(id: string): void {
  selectionStore.getState().select(id)
}

const columns: { key: ExampleSort['key'] | null; label: string; numeric?: boolean }[] = [
  { key: null, label: 'Play' },
  { key: 'language', label: 'Language' },
  { key: 'corpus', label: 'Corpus · split' },
  { key: 'length', label: 'Length', numeric: true },
  { key: 'text', label: 'Transcript' },
  { key: 'findings', label: 'Findings', numeric: true },
]

function Header() {
  const sort = useExamplesStore((s) => s.sort)
  return (
    <div className="examples-row examples-head" role="row">
      {columns.map((c) => {
        const active = c.key !== null && sort?.key === c.key
        return (
          <span key={c.label} role="columnheader" className={c.numeric ? 'num' : undefined}
            aria-sort={c.key === null ? undefined : active ? (sort!.descending ? 'descending' : 'ascending') : 'none'}>
            {c.key === null ? <span className="visually-hidden">{c.label}</span> : (
              <button type="button" className="sort" onClick={() => void examplesStore.getState().setSort(
                active && sort!.descending === !!c.numeric ? { key: c.key!, descending: !c.numeric } : active ? null : { key: c.key!, descending: !!c.numeric })}>
                {c.label}<span aria-hidden="true">{active ? (sort!.descending ? ' ▼' : ' ▲') : ''}</span>
              </button>
            )}
          </span>
        )
      })}
    </div>
  )
}

function Row({ row, index, selected, onKey }: { row: ExampleSummary | undefined; index: number; selected: boolean; onKey: (e: KeyboardEvent, index: number) => void }) {
  if (!row) return <div className="examples-row loading" role="row" aria-rowindex={index + 2}><span role="cell">…</span></div>
  const name = languageName(row.language)
  return (
    <div className={`examples-row${selected ? ' selected' : ''}`} role="row" aria-rowindex={index + 2} aria-selected={selected} tabIndex={0}
      data-example-id={row.id} data-index={index}
      onClick={() => select(row.id)}
      onKeyDown={(e) => onKey(e, index)}>
      <span role="cell">
        <button type="button" className="play" aria-label={`Play ${row.id}`} title="Play (opens it in the Inspector)"
          onClick={(e) => { e.stopPropagation(); select(row.id); playbackStore.getState().request(row.id) }}>▶</button>
      </span>
      <span role="cell" className="examples-language"><code>{row.language}</code>{name && <span className="language-name"> {name}</span>}</span>
      <span role="cell" className="examples-corpus">{row.corpus} · {row.split}</span>
      <span role="cell" className="examples-length num" title={row.audioSize === null ? 'null audio_size' : `${row.audioSize} samples at 16 kHz`}>{formatSamples(row.audioSize)}</span>
      <span role="cell" className="examples-text" dir="auto">{row.text === null ? <em className="hint">(null transcript)</em> : row.text === '' ? <em className="hint">(empty transcript)</em> : row.text}</span>
      <span role="cell" className={`examples-findings num severity ${row.severity ?? ''}`} title={row.kinds.length > 0 ? row.kinds.join(', ') : undefined} data-kinds={row.kinds.join(' ')}>
        {row.findings > 0 ? `${row.findings} finding${row.findings === 1 ? '' : 's'}` : ''}
      </span>
    </div>
  )
}

function ExamplesList() {
  const total = useExamplesStore((s) => s.total) ?? 0
  // re-render when pages arrive; a refresh (same total) asks again for the rows in view
  useExamplesStore((s) => s.pages)
  const generation = useExamplesStore((s) => s.generation)
  const selected = useSelectionStore((s) => s.exampleId)
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 20, ...virtualAfterLayout<HTMLDivElement, Element>(560) })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0
  useEffect(() => {
    if (total > 0) void examplesStore.getState().ensureRange(first, last + 1)
  }, [first, last, total, generation])

  function onKey(event: KeyboardEvent, index: number) {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    const row = examplesStore.getState().rowAt(index)
    if ((event.key === 'Enter' || event.key === ' ') && row) {
      event.preventDefault()
      select(row.id)
      if (event.key === ' ') playbackStore.getState().request(row.id)
    } else if (step !== 0) {
      event.preventDefault()
      const next = Math.min(total - 1, Math.max(0, index + step))
      virtualizer.scrollToIndex(next)
      requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-index="${next}"]`)?.focus())
    }
  }

  return (
    <div className="examples-table" role="table" aria-label="Examples" aria-rowcount={total + 1}>
      <Header />
      <div className="examples-scroller" ref={scroller} role="rowgroup">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = examplesStore.getState().rowAt(item.index)
            return (
              <div key={item.key} className="examples-slot" style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}>
                <Row row={row} index={item.index} selected={row?.id === selected} onKey={onKey} />
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}

/** What the empty list says: which filter leaves nothing, and the way out. */
function NothingMatches() {
  const filter = useExamplesStore((s) => s.filter)
  const languages = useFocusStore((s) => s.languages)
  const parts = [
    languages.length > 0 && `${formatCount(languages.length)} language${languages.length === 1 ? '' : 's'}`,
    filter.corpora?.length && `corpora ${filter.corpora.join(', ')}`,
    filter.splits?.length && `splits ${filter.splits.join(', ')}`,
    (filter.minSamples != null || filter.maxSamples != null) && `length ${filter.minSamples != null ? formatSamples(filter.minSamples) : '0 s'}–${filter.maxSamples != null ? formatSamples(filter.maxSamples) : '∞'}`,
    filter.text && `transcript containing “${filter.text}”`,
    filter.flaggedOnly && 'only flagged rows',
  ].filter(Boolean)
  return (
    <div className="empty-state" role="status">
      <h3>No example matches</h3>
      <p>Nothing has {parts.join(', ') || 'these filters'} together. Loosen one of them, or start again.</p>
      <button type="button" onClick={() => { focusStore.getState().clear(); void examplesStore.getState().setFilter({ corpora: [], splits: [], minSamples: null, maxSamples: null, text: '', flaggedOnly: false }) }}>Clear every filter</button>
    </div>
  )
}

/**
 * A streamed search's count: matches so far, rows searched of all, Stop / Continue; for a sort, that its list is the
 * first 100,000 rows of the order when capped; for a sample, its picks of the matches.
 */
function ScanStatusLine({ scan, listed, sample }: { scan: TextScanStatus; listed: number; sample: ExampleSample | null }) {
  if (scan.state === 'needs-audit') {
    return (
      <div className="examples-count examples-scan" role="status" data-testid="examples-scan-status">
        <p>
          At {formatCount(scan.rowsTotal)} rows, “Only flagged” lists the rows the Audit flags: it reads and judges every row once.{' '}
          {scan.otherConfig ? 'The Audit ran under another config than this list’s: run it again with this config.' : 'Run the Audit, and they are listed here.'}
        </p>
        <button type="button" onClick={showAudit}>Open the Audit</button>
      </div>
    )
  }
  const running = scan.state === 'running'
  const matches = `${formatCount(scan.matches)} match${scan.matches === 1 ? '' : 'es'}`
  const searched = `${formatCount(scan.rowsRead)} of ${formatCount(scan.rowsTotal)} rows searched`
  const picked = scan.order === 'sample' && sample
    ? `${formatCount(listed)} example${listed === 1 ? '' : 's'} (random ${formatCount(sample.perLanguage)} per language, seed ${sample.seed}) of `
    : ''
  return (
    <div className="examples-count examples-scan">
      <p aria-live="polite" data-testid="examples-scan-status">
        {running ? `${matches} so far · ${searched}${scan.order === 'sort' ? ' · sorted as they are read' : scan.order === 'sample' ? ' · the sample is drawn once every row is searched' : ''}`
          : scan.state === 'done' ? `${picked}${matches} (all ${formatCount(scan.rowsTotal)} rows searched)`
          : scan.state === 'stopped' ? `Stopped: ${matches} in ${searched}`
          : `Search failed after ${searched}: ${scan.error ?? 'unknown error'}`}
        {scan.order === 'sort' && scan.capped ? ` · the sort lists the first ${formatCount(listed)} of its order`
          : scan.order !== 'sample' && listed < scan.matches && ` · listing the first ${formatCount(listed)}`}
        {scan.unreadableRowGroups > 0 && ` · ${formatCount(scan.unreadableRowGroups)} row group${scan.unreadableRowGroups === 1 ? '' : 's'} unreadable (see the Audit)`}
      </p>
      <progress max={Math.max(1, scan.rowsTotal)} value={scan.rowsRead} aria-label="Rows searched" />
      {running && <button type="button" onClick={() => void examplesStore.getState().stopScan()}>Stop</button>}
      {(scan.state === 'stopped' || scan.state === 'error') && <button type="button" onClick={() => void examplesStore.getState().continueScan()}>Continue</button>}
    </div>
  )
}

export function ExamplesView() {
  const dataset = useDatasetStore(usableDataset)
  const status = useExamplesStore((s) => s.status)
  const error = useExamplesStore((s) => s.error)
  const progress = useExamplesStore((s) => s.progress)
  const total = useExamplesStore((s) => s.total)
  const sample = useExamplesStore((s) => s.sample)
  const rowFindings = useExamplesStore((s) => s.rowFindings)
  const scan = useExamplesStore((s) => s.scan)
  const languages = useFocusStore((s) => s.languages)

  useEffect(() => { void examplesStore.getState().load(dataset) }, [dataset])
  // the language focus is the list's language filter
  useEffect(() => {
    const current = examplesStore.getState().filter.languages ?? []
    if (current.length !== languages.length || current.some((l, i) => l !== languages[i])) void examplesStore.getState().setFilter({ languages })
  }, [languages])

  if (dataset === null) return <div className="empty-state"><h3>No dataset open</h3><p>Open a dataset (header) to list, filter and listen to its examples.</p></div>
  return (
    <section className="examples-view" aria-labelledby="examples-heading">
      <h2 id="examples-heading" className="visually-hidden">Examples</h2>
      <ExamplesFilter />
      {scan ? <ScanStatusLine scan={scan} listed={total ?? 0} sample={sample} /> : (
        <p className="examples-count" aria-live="polite">
          {status === 'loading' && total === null
            ? `Reading audio_size and text${progress ? `: ${formatCount(progress.done)} of ${progress.total === null ? '?' : formatCount(progress.total)} row groups` : '…'}`
            : total !== null && `${formatCount(total)} example${total === 1 ? '' : 's'}${sample ? ` (random ${sample.perLanguage} per language, seed ${sample.seed})` : ''}`}
        </p>
      )}
      {scan && scan.state !== 'needs-audit' ? (
        <p className="hint" data-testid="examples-streamed">
          Searched as the rows are read (this dataset has more rows than the list indexes in memory): matches appear in dataset order (or the
          sort&apos;s, of the first 100,000), without their findings. &ldquo;Only flagged&rdquo; looks only at the rows the Audit flagged; a sample
          of partitions alone reads only its picks; sorting by findings reads every row into the index first.
        </p>
      ) : rowFindings === false && (
        <p className="hint" data-testid="examples-by-partition">
          Listed by partition from the footers: each page reads only its own row groups. Row findings, a transcript search, a length range,
          &ldquo;only flagged&rdquo;, sorting and samples read every row&apos;s audio_size and text first (with progress; past the rows the list
          indexes in memory they are searched as the rows are read instead).
        </p>
      )}
      {status === 'error' && <p className="field-problem" role="alert">Could not list examples: {error}</p>}
      {scan?.state === 'needs-audit' ? null : total === 0 && status === 'ready' ? <NothingMatches /> : <ExamplesList />}
      <p className="hint">Click or Enter shows an example beside the list; Space or ▶ plays it; ↑ ↓ move in the list; j / k step in the Inspector.</p>
    </section>
  )
}
