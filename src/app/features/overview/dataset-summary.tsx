/** The open dataset in numbers: hours and rows first, then its shape; what opening cost comes last, small. */
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

export function DatasetSummary({ report }: { report: OpenResult }) {
  const { totals, partitions } = report.stats
  // the worker's groupings (most hours first), not three passes over what may be 100,000 partitions on every render
  const languages = report.overview.languages.length
  const corpora = report.overview.corpora.map((g) => g.key)
  const splits = report.overview.splits.map((g) => g.key)
  return (
    <section aria-labelledby="summary-heading">
      <h3 id="summary-heading" className="visually-hidden">Summary</h3>
      <dl className="cards">
        <Card primary term="Hours" value={formatHours(totals.hours)} exact={totals.hours} />
        <Card primary term="Rows" value={formatCount(totals.rows)} exact={totals.rows} />
        <Card term="Languages" value={formatCount(languages)} exact={languages} />
        <Card term="Corpora" value={formatCount(corpora.length)} exact={corpora.length} sub={corpora.slice(0, 4).join(', ') + (corpora.length > 4 ? ', …' : '')} />
        <Card term="Splits" value={formatCount(splits.length)} exact={splits.length} sub={splits.slice(0, 5).join(', ')} />
        <Card term="Partition folders" value={formatCount(partitions.length)} exact={partitions.length} />
        <Card term="Parquet files" value={formatCount(report.files.parquet)} exact={report.files.parquet}
          sub={report.files.readable === report.files.parquet ? 'all readable' : `${formatCount(report.files.parquet - report.files.readable)} unreadable`}
          tone={report.files.readable < report.files.parquet ? 'error' : undefined} />
        <Card term="Row groups" value={formatCount(totals.row_groups)} exact={totals.row_groups} />
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
