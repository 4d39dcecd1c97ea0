/**
 * The open dataset in numbers: hours and rows first, then its shape; what opening cost comes last, small. With a
 * language focus the tiles count the focused languages' partitions, each with the whole dataset's number beside it.
 */
import { useMemo } from 'react'
import { hoursBy } from '../../../engine/index.ts'
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { exactText, formatBytes, formatCount, formatDuration, formatHours } from '../../lib/format.ts'

function Card({ term, value, exact, sub, primary, tone }: { term: string; value: string; exact?: number; sub?: string; primary?: boolean; tone?: 'error' }) {
  return (
    <div className={`card${primary ? ' primary' : ''}${tone ? ` ${tone}` : ''}`}>
      <dt>{term}</dt>
      <dd data-value={exact} title={exact !== undefined ? exactText(exact) : undefined}>{value}</dd>
      {sub && <dd className="sub">{sub}</dd>}
    </div>
  )
}

/** The tiles' numbers of the focused languages' partitions (`null`: no focus, the whole dataset's). */
function useFocusedTotals(report: OpenResult, focus: ReadonlySet<string>) {
  return useMemo(() => {
    if (focus.size === 0) return null
    const partitions = report.stats.partitions.filter((p) => p.language !== null && focus.has(p.language))
    const sum = (key: 'hours' | 'rows' | 'files' | 'row_groups') => partitions.reduce((n, p) => n + p[key], 0)
    return {
      hours: sum('hours'), rows: sum('rows'), files: sum('files'), rowGroups: sum('row_groups'), partitions: partitions.length,
      languages: new Set(partitions.map((p) => p.language)).size,
      corpora: hoursBy(partitions, 'corpus').map((g) => g.key), splits: hoursBy(partitions, 'split').map((g) => g.key),
    }
  }, [report, focus])
}

export function DatasetSummary({ report, focus }: { report: OpenResult; focus: ReadonlySet<string> }) {
  const { totals, partitions } = report.stats
  // the worker's groupings (most hours first), not three passes over what may be 100,000 partitions on every render
  const languages = report.overview.languages.length
  const corpora = report.overview.corpora.map((g) => g.key)
  const splits = report.overview.splits.map((g) => g.key)
  const f = useFocusedTotals(report, focus)
  const of = (all: number, format: (n: number) => string = formatCount) => (f ? `of ${format(all)} in all` : undefined)
  const names = (list: string[], n: number) => list.slice(0, n).join(', ') + (list.length > n ? ', …' : '')
  return (
    <section aria-labelledby="summary-heading" data-focused={f ? focus.size : undefined}>
      <h3 id="summary-heading" className="visually-hidden">Summary</h3>
      {f && <p className="hint focus-scope" data-testid="summary-focus">The tiles count the {formatCount(focus.size)} focused language{focus.size === 1 ? '' : 's'} only (the focus above); each says the whole dataset&apos;s number under it.</p>}
      <dl className="cards">
        <Card primary term="Hours" value={formatHours(f?.hours ?? totals.hours)} exact={f?.hours ?? totals.hours} sub={of(totals.hours, formatHours)} />
        <Card primary term="Rows" value={formatCount(f?.rows ?? totals.rows)} exact={f?.rows ?? totals.rows} sub={of(totals.rows)} />
        <Card term="Languages" value={formatCount(f?.languages ?? languages)} exact={f?.languages ?? languages} sub={of(languages)} />
        <Card term="Corpora" value={formatCount((f?.corpora ?? corpora).length)} exact={(f?.corpora ?? corpora).length} sub={names(f?.corpora ?? corpora, 4) + (f ? ` (${of(corpora.length)})` : '')} />
        <Card term="Splits" value={formatCount((f?.splits ?? splits).length)} exact={(f?.splits ?? splits).length} sub={names(f?.splits ?? splits, 5) + (f ? ` (${of(splits.length)})` : '')} />
        <Card term="Partition folders" value={formatCount(f?.partitions ?? partitions.length)} exact={f?.partitions ?? partitions.length} sub={of(partitions.length)} />
        {f ? <Card term="Parquet files" value={formatCount(f.files)} exact={f.files} sub={`readable, ${of(report.files.parquet)}`} /> : (
        <Card term="Parquet files" value={formatCount(report.files.parquet)} exact={report.files.parquet}
          sub={report.files.readable === report.files.parquet ? 'all readable' : `${formatCount(report.files.parquet - report.files.readable)} unreadable`}
          tone={report.files.readable < report.files.parquet ? 'error' : undefined} />)}
        <Card term="Row groups" value={formatCount(f?.rowGroups ?? totals.row_groups)} exact={f?.rowGroups ?? totals.row_groups} sub={of(totals.row_groups)} />
      </dl>
      <p className="hint">
        Root <code dir="auto">{report.root}</code> ({report.sourceKind})
        {report.stats.summary ? <>; stats TSV <code dir="auto">{report.stats.summary.path}</code></> : '; no stats TSV found'}
        {report.files.ignored > 0 && `; ${formatCount(report.files.ignored)} ignored paths`}
        {' '}· opened in {formatDuration(report.elapsedMs)} with {formatCount(report.counters.requests)} requests, {formatBytes(report.counters.bytes)} read
      </p>
    </section>
  )
}
