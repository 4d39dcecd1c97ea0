/**
 * The Overview: totals, hours (or rows) per language, corpus and split (charts with a log-scale toggle, tables as
 * their text equivalents), the hours per (corpus, language, split), the stats TSV against the data, the partition
 * folders (sortable, filterable, virtualized), and the problems found while opening.
 */
import { useMemo, useState } from 'react'
import { hoursByLanguage } from '../../lib/aggregate.ts'
import { mergeFindings } from '../../lib/merge-findings.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { shownReport } from '../../stores/dataset-store.ts'
import { ProvisionalNotice } from './provisional-notice.tsx'
import { SaveIndex } from './save-index.tsx'
import { DatasetSummary } from './dataset-summary.tsx'
import { FindingsList } from './findings-list.tsx'
import { GroupHoursTable } from './group-hours-table.tsx'
import { hoursBy, tsvComparison } from './group-hours.ts'
import { HoursChart } from './hours-chart.tsx'
import { LanguageHoursChart } from './language-hours-chart.tsx'
import { LanguageHoursTable } from './language-hours-table.tsx'
import { PartitionsTable } from './partitions-table.tsx'
import { RangeIgnoredNotice } from './range-ignored-notice.tsx'
import { SplitHoursTable } from './split-hours-table.tsx'
import { TsvComparisonTable } from './tsv-comparison-table.tsx'
import './overview.css'

export function OverviewView() {
  const report = useDatasetStore(shownReport) // a progressive open's provisional numbers while it reads
  const reportRequest = useDatasetStore((s) => s.reportRequest)
  const [metric, setMetric] = useState<'hours' | 'rows'>('hours')
  const [log, setLog] = useState(false)
  const languages = useMemo(() => (report ? hoursByLanguage(report.stats.partitions) : []), [report])
  const corpora = useMemo(() => (report ? hoursBy(report.stats.partitions, 'corpus') : []), [report])
  const splits = useMemo(() => (report ? hoursBy(report.stats.partitions, 'split') : []), [report])
  const comparison = useMemo(() => (report?.stats.summary ? tsvComparison(report.stats) : null), [report])
  const findings = useMemo(() => (report ? mergeFindings(report.stats.findings, report.validation.findings) : []), [report])

  if (!report) return null
  return (
    <section className="overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading">Overview</h2>
      <RangeIgnoredNotice report={report} request={reportRequest} />
      <ProvisionalNotice report={report} />
      <SaveIndex report={report} request={reportRequest} />
      <DatasetSummary report={report} />
      <div className="chart-controls" role="group" aria-label="Chart options">
        <label><input type="radio" name="overview-metric" checked={metric === 'hours'} onChange={() => setMetric('hours')} /> Hours</label>
        <label><input type="radio" name="overview-metric" checked={metric === 'rows'} onChange={() => setMetric('rows')} /> Rows</label>
        <label><input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Log scale</label>
      </div>
      <section aria-labelledby="languages-heading">
        <h3 id="languages-heading">Hours per language</h3>
        <div className="chart-and-table">
          <LanguageHoursChart languages={languages} metric={metric} log={log} />
          <LanguageHoursTable languages={languages} />
        </div>
      </section>
      <div className="two-charts">
        <section aria-labelledby="corpora-heading">
          <h3 id="corpora-heading">Hours per corpus</h3>
          <HoursChart groups={corpora} noun="corpus" metric={metric} log={log} />
          <GroupHoursTable groups={corpora} noun="corpus" />
        </section>
        <section aria-labelledby="split-groups-heading">
          <h3 id="split-groups-heading">Hours per split</h3>
          <HoursChart groups={splits} noun="split" metric={metric} log={log} />
          <GroupHoursTable groups={splits} noun="split" />
        </section>
      </div>
      <section aria-labelledby="splits-heading">
        <h3 id="splits-heading">Hours per corpus, language and split</h3>
        <SplitHoursTable partitions={report.stats.partitions} />
      </section>
      {comparison && report.stats.summary && (
        <section aria-labelledby="tsv-heading">
          <h3 id="tsv-heading">Stats TSV vs data</h3>
          <TsvComparisonTable rows={comparison} tsvPath={report.stats.summary.path} />
        </section>
      )}
      <section aria-labelledby="partitions-heading">
        <h3 id="partitions-heading">Partition folders</h3>
        <PartitionsTable partitions={report.stats.partitions} />
      </section>
      <FindingsList findings={findings} />
    </section>
  )
}
