/** The Overview: totals, hours per language (chart + table), hours per split, partition folders, problems. */
import { useMemo } from 'react'
import { hoursByLanguage } from '../../lib/aggregate.ts'
import { mergeFindings } from '../../lib/merge-findings.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { DatasetSummary } from './dataset-summary.tsx'
import { FindingsList } from './findings-list.tsx'
import { LanguageHoursChart } from './language-hours-chart.tsx'
import { LanguageHoursTable } from './language-hours-table.tsx'
import { PartitionsTable } from './partitions-table.tsx'
import { RangeIgnoredNotice } from './range-ignored-notice.tsx'
import { SplitHoursTable } from './split-hours-table.tsx'

export function OverviewView() {
  const report = useDatasetStore((s) => s.report)
  const reportRequest = useDatasetStore((s) => s.reportRequest)
  const languages = useMemo(() => (report ? hoursByLanguage(report.stats.partitions) : []), [report])
  const findings = useMemo(() => (report ? mergeFindings(report.stats.findings, report.validation.findings) : []), [report])

  if (!report) return null
  return (
    <section className="overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading">Overview</h2>
      <RangeIgnoredNotice report={report} request={reportRequest} />
      <DatasetSummary report={report} />
      <section aria-labelledby="languages-heading">
        <h3 id="languages-heading">Hours per language</h3>
        <div className="chart-and-table">
          <LanguageHoursChart languages={languages} />
          <LanguageHoursTable languages={languages} />
        </div>
      </section>
      <section aria-labelledby="splits-heading">
        <h3 id="splits-heading">Hours per corpus, language and split</h3>
        <SplitHoursTable partitions={report.stats.partitions} />
      </section>
      <section aria-labelledby="partitions-heading">
        <h3 id="partitions-heading">Partition folders</h3>
        <PartitionsTable partitions={report.stats.partitions} />
      </section>
      <FindingsList findings={findings} />
    </section>
  )
}
