/**
 * A sortable, searchable table that stays fast at 1,600+ rows: above `virtualizeAbove` rows only the rows in view
 * are in the DOM (@tanstack/react-virtual, spacer rows above and below, `aria-rowcount`/`aria-rowindex` for
 * assistive technology). Clicking a row (or Enter on it) calls `onRowClick`; `selected` rows are marked.
 */
import { Fragment, useMemo, useRef, useState, type ReactNode } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from './virtual-after-layout.ts'
import { compareUtf8 } from '../../engine/index.ts'
import { formatCount } from '../lib/format.ts'

/** One column: its header, how it sorts, how its cell renders (a `<td>`, so cells can carry `data-value`). */
export interface Column<T> {
  id: string
  header: ReactNode
  /** Plain-text header for the sort button's accessible name when `header` is not a string. */
  label?: string
  numeric?: boolean
  /** The value sorted by (`null` sorts last); absent: the column does not sort. */
  sortValue?: (row: T) => number | string | null
  /** The cell, a `<td>`. */
  cell: (row: T) => ReactNode
  /** Header tooltip (what the column means). */
  title?: string
}

export interface DataTableProps<T> {
  rows: readonly T[]
  columns: Column<T>[]
  rowKey: (row: T) => string
  /** Accessible name of the table. */
  label: string
  /** Sort at start (column id, most first for numbers). */
  initialSort?: { id: string; descending: boolean } | null
  /** A search box above the table: its label, placeholder and the text a row matches on. */
  search?: { label: string; placeholder?: string; text: (row: T) => string; initial?: string }
  /** What the rows are, for the "12 of 1,600 languages" count. */
  noun?: [string, string]
  onRowClick?: (row: T) => void
  /** Keys of rows shown as selected. */
  selected?: ReadonlySet<string>
  /** `data-*` attributes of a row (tests and styles read them). */
  rowData?: (row: T) => Record<string, string>
  /** Height of the scroll area when virtualized, px. */
  height?: number
  /** Above this many rows only the visible ones render. */
  virtualizeAbove?: number
  /** Shown when no row matches (search or an empty list). */
  empty?: ReactNode
  /** Extra controls beside the search box. */
  toolbar?: ReactNode
  /** A row under the header summing the rows (e.g. totals). */
  footer?: ReactNode
}

const rowHeight = 30

function compareValues(a: number | string | null, b: number | string | null): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return compareUtf8(String(a), String(b))
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { rows, columns, rowKey, label, search, onRowClick, selected, rowData, noun } = props
  const [query, setQuery] = useState(search?.initial ?? '')
  const [sort, setSort] = useState(props.initialSort ?? null)
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase()
    const filtered = search && needle !== '' ? rows.filter((r) => search.text(r).toLowerCase().includes(needle)) : [...rows]
    const column = sort ? columns.find((c) => c.id === sort.id) : undefined
    if (!column?.sortValue || !sort) return filtered
    const value = column.sortValue
    const sign = sort.descending ? -1 : 1
    const indexed = filtered.map((r, i) => [r, i, value(r)] as const)
    // nulls last whichever the direction; ties keep the given order
    indexed.sort((x, y) => (x[2] === null || y[2] === null ? compareValues(x[2], y[2]) : sign * compareValues(x[2], y[2])) || x[1] - y[1])
    return indexed.map(([r]) => r)
  }, [rows, columns, query, sort, search])
  const virtual = shown.length > (props.virtualizeAbove ?? 100)
  const scroller = useRef<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({ count: virtual ? shown.length : 0, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 16, ...virtualAfterLayout<HTMLDivElement, Element>(props.height ?? 420) })
  const items = virtual ? virtualizer.getVirtualItems() : []
  const top = items.length > 0 ? items[0].start : 0
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0
  const visible = virtual ? items.map((item) => ({ row: shown[item.index], index: item.index })) : shown.map((row, index) => ({ row, index }))

  function header(c: Column<T>) {
    const active = sort?.id === c.id
    const ariaSort = active ? (sort.descending ? 'descending' : 'ascending') : c.sortValue ? 'none' : undefined
    return (
      <th key={c.id} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={ariaSort} title={c.title}>
        {c.sortValue ? (
          <button type="button" className="sort" aria-label={typeof c.header === 'string' ? undefined : c.label}
            onClick={() => setSort({ id: c.id, descending: active ? !sort.descending : !!c.numeric })}>
            {c.header}<span aria-hidden="true" className="sort-mark">{active ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
          </button>
        ) : c.header}
      </th>
    )
  }

  return (
    <div className="data-table">
      {(search || props.toolbar) && (
        <div className="toolbar">
          {search && (
            <label className="search-field">
              <span>{search.label}</span>
              <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={search.placeholder} />
            </label>
          )}
          {props.toolbar}
          {noun && <span className="hint" aria-live="polite">{formatCount(shown.length)} of {formatCount(rows.length)} {rows.length === 1 ? noun[0] : noun[1]}</span>}
        </div>
      )}
      <div ref={scroller} className={virtual ? 'table-scroll' : 'table-plain'} style={virtual ? { height: `min(${props.height ?? 420}px, 70vh)` } : undefined}
        tabIndex={virtual ? 0 : undefined} role={virtual ? 'region' : undefined} aria-label={virtual ? `${label} (scrollable)` : undefined}>
        <table aria-label={label} aria-rowcount={shown.length + 1}>
          <thead><tr>{columns.map(header)}</tr>{props.footer}</thead>
          <tbody>
            {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
            {visible.map(({ row, index }) => {
              const key = rowKey(row)
              const isSelected = selected?.has(key) ?? false
              return (
                <tr key={key} aria-rowindex={index + 2} aria-selected={onRowClick ? isSelected : undefined}
                  className={`${onRowClick ? 'clickable' : ''}${isSelected ? ' selected' : ''}`} style={virtual ? { height: rowHeight } : undefined}
                  tabIndex={onRowClick ? 0 : undefined} {...(rowData ? Object.fromEntries(Object.entries(rowData(row)).map(([k, v]) => [`data-${k}`, v])) : {})}
                  onClick={onRowClick ? () => onRowClick(row) : undefined}
                  onKeyDown={onRowClick ? (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onRowClick(row) } } : undefined}>
                  {columns.map((c) => <Fragment key={c.id}>{c.cell(row)}</Fragment>)}
                </tr>
              )
            })}
            {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
          </tbody>
        </table>
        {shown.length === 0 && <div className="table-empty">{props.empty ?? (query ? `Nothing matches “${query}”.` : 'Nothing to show.')}</div>}
      </div>
    </div>
  )
}
