/**
 * "Find language": a searchable (code or English name), sortable, virtualized table with one row per language and
 * any columns after the language's; clicking a row toggles the language in the explorer's focus (every view filters
 * to it). Used by the Overview, the Mixture and the Audit.
 */
import type { ReactNode } from 'react'
import { DataTable, type Column } from './data-table.tsx'
import { LanguageCell } from './language-cell.tsx'
import { languageName } from '../lib/language-names.ts'
import { focusStore, useFocusSet } from '../stores/focus-store.ts'

/** A language column for any row type that has a `language` code. */
export function languageColumn<T extends { language: string }>(): Column<T> {
  return { id: 'language', header: 'Language', sortValue: (r) => r.language, cell: (r) => <LanguageCell code={r.language} /> }
}

export function LanguageTable<T extends { language: string }>({ rows, columns, label, initialSort, height, rowKey, toolbar, empty, noun, rowData }: {
  rows: readonly T[]
  /** Columns after the language column. */
  columns: Column<T>[]
  /** Accessible name of the table, e.g. `Hours per language`. */
  label: string
  initialSort?: { id: string; descending: boolean }
  height?: number
  /** Key of a row; default the language (rows per (corpus, language) pass their own). */
  rowKey?: (row: T) => string
  toolbar?: ReactNode
  empty?: ReactNode
  /** `[one, many]` for the count above the table (default languages). */
  noun?: [string, string]
  /** Extra `data-*` attributes of a row (`language` is always set). */
  rowData?: (row: T) => Record<string, string>
}) {
  const focus = useFocusSet()
  const selectedKeys = rowKey ? new Set(rows.filter((r) => focus.has(r.language)).map(rowKey)) : focus
  return (
    <DataTable rows={rows} label={label} rowKey={rowKey ?? ((r) => r.language)} columns={[languageColumn<T>(), ...columns]}
      initialSort={initialSort ?? null} height={height} noun={noun ?? ['language', 'languages']} toolbar={toolbar} empty={empty}
      search={{ label: 'Find language', placeholder: 'code or name, e.g. swh or Swahili', text: (r) => `${r.language} ${languageName(r.language) ?? ''}` }}
      onRowClick={(r) => focusStore.getState().toggle(r.language)} selected={selectedKeys}
      rowData={(r) => ({ ...rowData?.(r), language: r.language })} />
  )
}
