/**
 * Per-language pictures of the audit: flagged rows per language (each row once: `flagged_by_language`, with the
 * findings those rows carry) as every language ranked (zoomable to any rank range) and the "Find language" table, and
 * what the length filter drops.
 */
import { useMemo } from 'react'
import type { TableRow } from '../../../engine/audit/rows/types.ts'
import { RankedBars } from '../../components/charts/ranked-bars.tsx'
import { LanguageTable } from '../../components/language-table.tsx'
import { NumCell } from '../../components/num.tsx'
import { formatCount, formatSamples } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'
import { focusStore, useFocusSet } from '../../stores/focus-store.ts'

/** One row of `flagged_by_language`. */
export interface FlaggedLanguage {
  language: string
  /** Distinct flagged rows. */
  rows: number
  hours: number
  /** Findings those rows carry. */
  findings: number
  errorRows: number
  kinds: string
  /** Rows of the language in the dataset (from the stats). */
  total: number | null
}

/** `flagged_by_language` as typed rows, with each language's row count for the share. */
export function flaggedLanguages(table: readonly TableRow[], rowsOf: ReadonlyMap<string, number>): FlaggedLanguage[] {
  return table.map((r) => ({
    language: String(r.language), rows: Number(r.rows), hours: Number(r.hours), findings: Number(r.findings), errorRows: Number(r.error_rows),
    kinds: String(r.kinds ?? ''), total: rowsOf.get(String(r.language)) ?? null,
  }))
}

const toggleFocus = (key: string) => focusStore.getState().toggle(key)

export function FlaggedByLanguage({ rows }: { rows: FlaggedLanguage[] }) {
  const focus = useFocusSet()
  const items = useMemo(() => rows.map((r) => ({ key: r.language, value: r.rows })), [rows])
  if (rows.length === 0) return <p className="hint">No row is flagged.</p>
  return (
    <>
      <RankedBars items={items} noun={['language', 'languages']} format={formatCount} label={languageLabel} metric="flagged rows"
        chartLabel="Bar chart of flagged rows per language" selected={focus} onSelect={toggleFocus} />
      <LanguageTable<FlaggedLanguage> rows={rows} label="Flagged rows per language" height={300} initialSort={{ id: 'rows', descending: true }}
        columns={[
          { id: 'rows', header: 'Flagged rows', numeric: true, sortValue: (r) => r.rows, cell: (r) => <NumCell value={r.rows} kind="count" />, title: 'Rows with at least one row finding, each counted once' },
          { id: 'of', header: 'of rows', numeric: true, sortValue: (r) => r.total, cell: (r) => <NumCell value={r.total} kind="count" /> },
          { id: 'hours', header: 'Hours', numeric: true, sortValue: (r) => r.hours, cell: (r) => <NumCell value={r.hours} kind="hours" /> },
          { id: 'findings', header: 'Findings', numeric: true, sortValue: (r) => r.findings, cell: (r) => <NumCell value={r.findings} kind="count" />, title: 'Findings the flagged rows carry (a row can carry several)' },
          { id: 'errors', header: 'Rows with errors', numeric: true, sortValue: (r) => r.errorRows, cell: (r) => <NumCell value={r.errorRows} kind="count" /> },
          { id: 'kinds', header: 'Kinds', sortValue: (r) => r.kinds, cell: (r) => <td title={r.kinds}>{r.kinds}</td> },
        ]} />
    </>
  )
}

interface DropRow { language: string; rows: number; below: number; belowHours: number; above: number; aboveHours: number }

export function FilterDropsTable({ rows, minLen, maxLen }: { rows: readonly TableRow[]; minLen: number; maxLen: number }) {
  const typed = useMemo<DropRow[]>(() => rows.map((r) => ({
    language: String(r.language), rows: Number(r.rows), below: Number(r.rows_below_min), belowHours: Number(r.hours_below_min),
    above: Number(r.rows_above_max), aboveHours: Number(r.hours_above_max),
  })), [rows])
  const dropping = typed.filter((r) => r.below + r.above > 0).length
  return (
    <>
      <p className="hint">min_audio_len {formatCount(minLen)} samples ({formatSamples(minLen)}), max_audio_len {formatCount(maxLen)} samples ({formatSamples(maxLen)}): {formatCount(dropping)} of {formatCount(typed.length)} languages lose rows.</p>
      <LanguageTable<DropRow> rows={typed} label="Length filter drops per language" height={300} initialSort={{ id: 'above', descending: true }}
        columns={[
          { id: 'rows', header: 'Rows', numeric: true, sortValue: (r) => r.rows, cell: (r) => <NumCell value={r.rows} kind="count" /> },
          { id: 'below', header: 'Below min', numeric: true, sortValue: (r) => r.below, cell: (r) => <NumCell value={r.below} kind="count" /> },
          { id: 'belowHours', header: 'Hours below', numeric: true, sortValue: (r) => r.belowHours, cell: (r) => <NumCell value={r.belowHours} kind="hours" /> },
          { id: 'above', header: 'Above max', numeric: true, sortValue: (r) => r.above, cell: (r) => <NumCell value={r.above} kind="count" /> },
          { id: 'aboveHours', header: 'Hours above', numeric: true, sortValue: (r) => r.aboveHours, cell: (r) => <NumCell value={r.aboveHours} kind="hours" /> },
        ]} />
    </>
  )
}
