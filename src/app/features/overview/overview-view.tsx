/**
 * The Overview: totals (hours and rows first), hours per language as pictures that hold 1,600 languages (log
 * histogram, coverage curve, top N + rest) and the "Find language" table, hours per corpus and split, the hours per
 * (corpus, language, split), the stats TSV against the data, the partition folders, and the problems found while
 * opening, grouped by kind. The language focus (header) filters the tables.
 */
import { useMemo, useState } from 'react'
import { FindingGroups } from '../../components/finding-groups.tsx'
import { hoursByLanguage } from '../../lib/aggregate.ts'
import { mergeFindings, countBySeverity } from '../../lib/merge-findings.ts'
import { formatCount } from '../../lib/format.ts'
import { useFocusSet } from '../../stores/focus-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { shownReport } from '../../stores/dataset-store.ts'
import { ProvisionalNotice } from './provisional-notice.tsx'
import { SaveIndex } from './save-index.tsx'
import { DatasetSummary } from './dataset-summary.tsx'
import { GroupHoursTable } from './group-hours-table.tsx'
import { hoursBy } from './group-hours.ts'
import { HoursChart } from './hours-chart.tsx'
import { LanguageSection } from './language-section.tsx'
import { PartitionsTable } from './partitions-table.tsx'
import { RangeIgnoredNotice } from './range-ignored-notice.tsx'
import { SplitHoursTable } from './split-hours-table.tsx'
import { TsvComparisonTable } from './tsv-comparison-table.tsx'
import './overview.css'

export function OverviewView() {
  const report = useDatasetStore(shownReport) // a progressive open's provisional numbers while it reads
  const status = useDatasetStore((s) => s.status)
  const reportRequest = useDatasetStore((s) => s.reportRequest)
  const focus = useFocusSet()
  const [metric, setMetric] = useState<'hours' | 'rows'>('hours')
  const [log, setLog] = useState(false)
  const partitions = useMemo(() => report?.stats.partitions ?? [], [report])
  const focused = useMemo(() => (focus.size === 0 ? partitions : partitions.filter((p) => p.language !== null && focus.has(p.language))), [partitions, focus])
  const languages = useMemo(() => hoursByLanguage(partitions), [partitions])
  const corpora = useMemo(() => hoursBy(focused, 'corpus'), [focused])
  const splits = useMemo(() => hoursBy(focused, 'split'), [focused])
  const findings = useMemo(() => (report ? mergeFindings(report.stats.findings, report.validation.findings) : []), [report])
  const counts = countBySeverity(findings)

  if (!report) {
    return (
      <div className="empty-state">
        <h3>{status === 'loading' ? 'Opening…' : 'No dataset open'}</h3>
        <p>Open a dataset folder, paste the URL of a folder with <code>_manifest.json</code> (or of one <code>.parquet</code> file), or drop a folder on the page. The demo opens by default.</p>
      </div>
    )
  }
  const scope = focus.size > 0 ? ` (${formatCount(focus.size)} focused languages)` : ''
  return (
    <section className="overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading" className="visually-hidden">Overview</h2>
      <RangeIgnoredNotice report={report} request={reportRequest} />
      <ProvisionalNotice report={report} />
      <SaveIndex report={report} request={reportRequest} />
      <DatasetSummary report={report} />
      <div className="chart-controls" role="group" aria-label="Chart options">
        <label><input type="radio" name="overview-metric" checked={metric === 'hours'} onChange={() => setMetric('hours')} /> Hours</label>
        <label><input type="radio" name="overview-metric" checked={metric === 'rows'} onChange={() => setMetric('rows')} /> Rows</label>
        <label><input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Log scale (corpus and split bars)</label>
      </div>
      <LanguageSection languages={languages} metric={metric} />
      <div className="grid-2">
        <section className="panel" aria-labelledby="corpora-heading">
          <h3 id="corpora-heading">Hours per corpus{scope}</h3>
          <div className="split-main">
            <HoursChart groups={corpora} noun="corpus" metric={metric} log={log} />
            <GroupHoursTable groups={corpora} noun="corpus" />
          </div>
        </section>
        <section className="panel" aria-labelledby="split-groups-heading">
          <h3 id="split-groups-heading">Hours per split{scope}</h3>
          <div className="split-main">
            <HoursChart groups={splits} noun="split" metric={metric} log={log} />
            <GroupHoursTable groups={splits} noun="split" />
          </div>
        </section>
      </div>
      <div className="grid-2">
        <section aria-labelledby="splits-heading">
          <h3 id="splits-heading">Hours per corpus, language and split</h3>
          <SplitHoursTable partitions={partitions} />
        </section>
        {report.stats.summary ? (
          <section aria-labelledby="tsv-heading">
            <h3 id="tsv-heading">Stats TSV vs data</h3>
            <TsvComparisonTable stats={report.stats} tsvPath={report.stats.summary.path} />
          </section>
        ) : (
          <div>
            <h3>Language distribution</h3>
            <div className="empty-state"><h3>No language_distribution TSV</h3><p>Training has no mixture without one: it reads one stream. Pick one with “Stats TSV…” to compare it with the data.</p></div>
          </div>
        )}
      </div>
      <section aria-labelledby="partitions-heading">
        <h3 id="partitions-heading">Partition folders</h3>
        <PartitionsTable partitions={focused} />
      </section>
      <section aria-labelledby="findings-heading">
        <h3 id="findings-heading">Problems found</h3>
        <p>{formatCount(counts.error)} errors, {formatCount(counts.warning)} warnings, {formatCount(counts.info)} notes while opening; the Audit checks much more.</p>
        <FindingGroups findings={findings} label="Problems found" empty="Nothing found while opening." />
      </section>
    </section>
  )
}
