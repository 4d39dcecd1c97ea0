/**
 * Every partition folder (one distinct combination of hive keys): sortable by any column, filterable by text or
 * `key=value` (the Audit links here with `?partition=<folder>`), virtualized with @tanstack/react-virtual when long.
 */
import { useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from '../../components/virtual-after-layout.ts'
import { CountCell, HoursCell } from '../../components/num.tsx'
import { LanguageCell } from '../../components/language-cell.tsx'
import type { PartitionStats } from '../../../engine/dataset/stats-types.ts'
import { otherKeysText } from '../../../engine/index.ts'
import { formatCount, formatHours } from '../../lib/format.ts'
import { filterPartitions, sortPartitions, type PartitionSortKey } from './partition-filter.ts'

/** Above this many rows the table renders only what is in view. */
export const virtualizeAbove = 200
const rowHeight = 29


function initialFilter(): string {
  return typeof window === 'undefined' ? '' : new URLSearchParams(window.location.search).get('partition') ?? ''
}

function Row({ p, showOther }: { p: PartitionStats; showOther: boolean }) {
  return (
    <>
      <td dir="auto">{p.corpus ?? '—'}</td>
      {p.language === null ? <td>—</td> : <LanguageCell code={p.language} />}
      <td dir="auto">{p.split ?? '—'}</td>
      {showOther && <td dir="auto">{otherKeysText(p)}</td>}
      <CountCell value={p.files} />
      <CountCell value={p.row_groups} />
      <CountCell value={p.rows} />
      <HoursCell hours={p.hours} />
    </>
  )
}

/** `showOther`: whether any partition of the dataset has a hive key besides corpus, language and split (a column for them). */
export function PartitionsTable({ partitions, showOther }: { partitions: PartitionStats[]; showOther: boolean }) {
  const [query, setQuery] = useState(initialFilter)
  const [sort, setSort] = useState<{ key: PartitionSortKey; descending: boolean } | null>(null)
  const shown = useMemo(() => {
    const filtered = filterPartitions(partitions, query)
    return sort ? sortPartitions(filtered, sort.key, sort.descending) : filtered
  }, [partitions, query, sort])
  const totals = useMemo(() => shown.reduce((t, p) => ({ files: t.files + p.files, rows: t.rows + p.rows, hours: t.hours + p.hours }), { files: 0, rows: 0, hours: 0 }), [shown])
  const virtual = shown.length > virtualizeAbove
  const scroller = useRef<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({ count: virtual ? shown.length : 0, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 20, ...virtualAfterLayout<HTMLDivElement, Element>(480) })

  function header(label: string, key: PartitionSortKey, numeric = false) {
    const active = sort?.key === key
    return (
      <th scope="col" className={numeric ? 'num' : undefined} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button type="button" className="sort" onClick={() => setSort({ key, descending: active ? !sort.descending : numeric })}>
          {label}{active ? (sort.descending ? ' ▼' : ' ▲') : ''}
        </button>
      </th>
    )
  }

  const items = virtual ? virtualizer.getVirtualItems() : []
  const top = items.length > 0 ? items[0].start : 0
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0
  const rows = virtual ? items.map((item) => ({ p: shown[item.index], index: item.index })) : shown.map((p, index) => ({ p, index }))

  return (
    <>
      <div className="row">
        <label htmlFor="partition-filter">Filter partitions</label>
        <input id="partition-filter" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="mls, eng_Latn, split=dev, corpus=mls/split=train/…" />
        <span className="hint" role="status" aria-live="polite">
          {formatCount(shown.length)} of {formatCount(partitions.length)} folders · {formatCount(totals.files)} files · {formatCount(totals.rows)} rows · {formatHours(totals.hours)}
        </span>
      </div>
      <div ref={scroller} className={virtual ? 'partitions-scroll' : undefined}>
        <table aria-label="Partition folders" aria-rowcount={shown.length + 1}>
          <thead>
            <tr>
              {header('Corpus', 'corpus')}{header('Language', 'language')}{header('Split', 'split')}
              {showOther && <th scope="col">Other keys</th>}
              {header('Files', 'files', true)}{header('Row groups', 'row_groups', true)}{header('Rows', 'rows', true)}{header('Hours', 'hours', true)}
            </tr>
          </thead>
          <tbody>
            {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
            {rows.map(({ p, index }) => (
              <tr key={index} aria-rowindex={index + 2} data-corpus={p.corpus ?? ''} data-language={p.language ?? ''} data-split={p.split ?? ''}
                style={virtual ? { height: rowHeight } : undefined}>
                <Row p={p} showOther={showOther} />
              </tr>
            ))}
            {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
          </tbody>
        </table>
      </div>
    </>
  )
}
