/** Totals of the open dataset and what opening it cost (requests, bytes, time). */
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { formatBytes, formatCount, formatDuration, formatHours } from '../../lib/format.ts'

function Item({ term, value, exact }: { term: string; value: string; exact?: number }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-value={exact} title={exact !== undefined ? String(exact) : undefined}>{value}</dd>
    </div>
  )
}

export function DatasetSummary({ report }: { report: OpenResult }) {
  const { totals, partitions } = report.stats
  return (
    <section aria-labelledby="summary-heading">
      <h3 id="summary-heading">Summary</h3>
      <dl className="summary">
        <Item term="Hours" value={formatHours(totals.hours)} exact={totals.hours} />
        <Item term="Rows" value={formatCount(totals.rows)} exact={totals.rows} />
        <Item term="Partition folders" value={formatCount(partitions.length)} exact={partitions.length} />
        <Item term="Parquet files" value={`${formatCount(report.files.readable)} readable of ${formatCount(report.files.parquet)}`} exact={report.files.parquet} />
        <Item term="Row groups" value={formatCount(totals.row_groups)} exact={totals.row_groups} />
        <Item term="Requests" value={formatCount(report.counters.requests)} exact={report.counters.requests} />
        <Item term="Bytes fetched" value={formatBytes(report.counters.bytes)} exact={report.counters.bytes} />
        <Item term="Time" value={formatDuration(report.elapsedMs)} />
      </dl>
      <p className="hint">
        Root <code dir="auto">{report.root}</code> ({report.sourceKind})
        {report.stats.summary ? <>; stats TSV <code dir="auto">{report.stats.summary.path}</code></> : '; no stats TSV found'}
        {report.files.ignored > 0 && `; ${formatCount(report.files.ignored)} ignored paths`}
      </p>
    </section>
  )
}
