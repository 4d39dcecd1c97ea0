/**
 * The Overview: the errors opening found first (problems-alert.tsx), then totals (hours and rows first), hours per language as pictures that hold 1,600 languages (log
 * histogram, coverage curve, top N + rest) and the "Find language" table, hours per corpus and split, the hours per
 * (corpus, language, split), the stats TSV against the data, the partition folders, and the problems found while
 * opening, grouped by kind. The language focus (header) narrows the tiles, the charts and the tables to the focused
 * languages; the "Find language" table alone lists every language (it is where the focus is picked), and says so.
 *
 * The summary and the language charts render first; the sections under them (`OverviewDetails`) render from a
 * deferred copy of the same inputs, in a background pass React can interrupt, and mount one per idle period
 * (components/staged.tsx): at 1,600 languages rendering all of it at once was one main-thread task of seconds before
 * the first chart painted. While that copy is behind, or a section not mounted yet, its block is `aria-busy`. The
 * groupings of the whole dataset come from the worker with the open result (`overview`).
 */
import { memo, useDeferredValue, useMemo, useState } from 'react'
import type { GroupHours, LanguageHours } from '../../../engine/dataset/groupings.ts'
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { FindingGroups } from '../../components/finding-groups.tsx'
import { usePaced } from '../../components/paced.ts'
import { Staged, useStage } from '../../components/staged.tsx'
import { mergeFindings, countBySeverity } from '../../lib/merge-findings.ts'
import { formatCount } from '../../lib/format.ts'
import { useFocusSet } from '../../stores/focus-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { shownReport } from '../../stores/dataset-store.ts'
import { ProvisionalNotice } from './provisional-notice.tsx'
import { ProblemsAlert } from './problems-alert.tsx'
import { SaveIndex } from './save-index.tsx'
import { DatasetSummary } from './dataset-summary.tsx'
import { GroupHoursTable } from './group-hours-table.tsx'
import { hoursBy } from '../../../engine/index.ts'
import { HoursChart } from './hours-chart.tsx'
import { LanguageSection } from './language-section.tsx'
import { PartitionsTable } from './partitions-table.tsx'
import { RangeIgnoredNotice } from './range-ignored-notice.tsx'
import { SplitHoursTable } from './split-hours-table.tsx'
import { TsvComparisonTable } from './tsv-comparison-table.tsx'
import './overview.css'

const noLanguages: LanguageHours[] = []

export function OverviewView() {
  // every result (a progressive open's provisional numbers, and the final one) drawn as a deferred, interruptible
  // render, so a snapshot of 100,000 partitions does not hold the main thread. The final result too: drawn at once it
  // was one synchronous render of every chart (zustand updates are synchronous) of 1.3 s at 1,600 languages when it
  // came while the validating partial was still being drawn. A deferred value always catches up with the latest;
  // until it has, the Overview is `aria-busy`.
  const live = useDatasetStore(shownReport)
  const report = useDeferredValue(live)
  const status = useDatasetStore((s) => s.status)
  const reportRequest = useDatasetStore((s) => s.reportRequest)
  const focus = useFocusSet()
  const [metric, setMetric] = useState<'hours' | 'rows'>('hours')
  const [log, setLog] = useState(false)
  const languages = report?.overview.languages ?? noLanguages
  const inputs = useMemo(() => (report ? { report, focus, metric, log } : null), [report, focus, metric, log])
  const details = useDeferredValue(inputs, null)

  if (!report) {
    return (
      <div className="empty-state">
        <h3>{status === 'loading' ? 'Opening…' : 'No dataset open'}</h3>
        <p>Open a dataset folder, paste the URL of a folder with <code>_manifest.json</code> (or of one <code>.parquet</code> file), or drop a folder on the page. The demo opens by default.</p>
      </div>
    )
  }
  return (
    <section className="overview" aria-labelledby="overview-heading" aria-busy={report !== live}>
      <h2 id="overview-heading" className="visually-hidden">Overview</h2>
      <ProblemsAlert report={report} />
      <RangeIgnoredNotice report={report} request={reportRequest} />
      <ProvisionalNotice report={report} />
      <SaveIndex report={report} request={reportRequest} />
      <DatasetSummary report={report} focus={focus} />
      <div className="chart-controls" role="group" aria-label="Chart options">
        <label><input type="radio" name="overview-metric" checked={metric === 'hours'} onChange={() => setMetric('hours')} /> Hours</label>
        <label><input type="radio" name="overview-metric" checked={metric === 'rows'} onChange={() => setMetric('rows')} /> Rows</label>
        <label><input type="checkbox" checked={log} onChange={(e) => setLog(e.target.checked)} /> Log scale (corpus and split bars)</label>
      </div>
      <LanguageSection languages={languages} metric={metric} focus={focus} unread={report.provisional?.unreadLanguages} />
      <div className="overview-details" aria-busy={details !== inputs}>
        {details && <OverviewDetails inputs={details} />}
      </div>
    </section>
  )
}

/** What the sections under the language charts draw from. */
interface DetailInputs { report: OpenResult; focus: ReadonlySet<string>; metric: 'hours' | 'rows'; log: boolean }

/**
 * Everything under the language charts: hours per corpus and split, the (corpus, language, split) and TSV tables,
 * partitions, problems. Each section mounts in an idle period of its own (components/staged.tsx) and, while an
 * open streams snapshots, takes a new one a frame after the section above it (components/paced.ts): changed
 * together, the whole page was laid out and painted in one frame.
 */
const OverviewDetails = memo(function OverviewDetails({ inputs }: { inputs: DetailInputs }) {
  // one section per idle period (components/staged.tsx): mounted together they were one task of a second
  const stage = useStage(4)
  const groups = usePaced(inputs, 1)
  const tables = usePaced(inputs, 2)
  const partitions = usePaced(inputs, 3)
  const problems = usePaced(inputs, 4)
  return (
    <>
      <Staged stage={stage} at={1} minHeight={300}>
        <GroupSections {...groups} busy={groups !== inputs} />
      </Staged>
      <Staged stage={stage} at={2} minHeight={420}>
        <TableSections report={tables.report} focus={tables.focus} busy={tables !== inputs} />
      </Staged>
      <Staged stage={stage} at={3} minHeight={420}>
        <PartitionSection report={partitions.report} focus={partitions.focus} busy={partitions !== inputs} />
      </Staged>
      <Staged stage={stage} at={4} minHeight={200}>
        <ProblemSection report={problems.report} busy={problems !== inputs} />
      </Staged>
    </>
  )
})

/** The partitions of the focused languages (all of them without a focus). */
function useFocused(report: OpenResult, focus: ReadonlySet<string>) {
  const partitions = report.stats.partitions
  return useMemo(() => (focus.size === 0 ? partitions : partitions.filter((p) => p.language !== null && focus.has(p.language))), [partitions, focus])
}

const scopeOf = (focus: ReadonlySet<string>) => (focus.size > 0 ? ` (${formatCount(focus.size)} focused languages)` : '')

/** Hours per corpus and per split (of the focused languages). */
function GroupSections({ report, focus, metric, log, busy }: DetailInputs & { busy: boolean }) {
  const { overview } = report
  // the whole dataset's groupings come from the worker; a focus (a few languages) is grouped here
  const focused = useFocused(report, focus)
  const corpora = useMemo(() => (focus.size === 0 ? overview.corpora : hoursBy(focused, 'corpus')), [focus, overview, focused])
  const splits = useMemo(() => (focus.size === 0 ? overview.splits : hoursBy(focused, 'split')), [focus, overview, focused])
  const scope = scopeOf(focus)
  return (
    <div className="grid-2" aria-busy={busy}>
      <GroupPanel id="corpora-heading" title={`Hours per corpus${scope}`} groups={corpora} noun="corpus" metric={metric} log={log} />
      <GroupPanel id="split-groups-heading" title={`Hours per split${scope}`} groups={splits} noun="split" metric={metric} log={log} />
    </div>
  )
}

/** One grouping's chart and table under its heading. */
function GroupPanel({ id, title, groups, noun, metric, log }: { id: string; title: string; groups: GroupHours[]; noun: 'corpus' | 'split'; metric: 'hours' | 'rows'; log: boolean }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <div className="split-main">
        <HoursChart groups={groups} noun={noun} metric={metric} log={log} />
        <GroupHoursTable groups={groups} noun={noun} />
      </div>
    </section>
  )
}

/** Hours per (corpus, language, split), and the stats TSV against the data (of the focused languages). */
function TableSections({ report, focus, busy }: { report: OpenResult; focus: ReadonlySet<string>; busy: boolean }) {
  const { overview } = report
  const pivot = useMemo(() => (focus.size === 0 ? overview.splitPivot : { ...overview.splitPivot, rows: overview.splitPivot.rows.filter((r) => focus.has(r.language)) }), [overview, focus])
  const coverage = useMemo(() => (focus.size === 0 ? overview.tsvCoverage ?? [] : (overview.tsvCoverage ?? []).filter((r) => focus.has(r.language))), [overview, focus])
  const scope = scopeOf(focus)
  return (
    <div className="grid-2" aria-busy={busy}>
      <section aria-labelledby="splits-heading">
        <h3 id="splits-heading">Hours per corpus, language and split{scope}</h3>
        <SplitHoursTable pivot={pivot} />
      </section>
      {report.stats.summary ? (
        <section aria-labelledby="tsv-heading">
          <h3 id="tsv-heading">Stats TSV vs data{scope}</h3>
          <TsvComparisonTable rows={coverage} tsvPath={report.stats.summary.path} />
        </section>
      ) : (
        <div>
          <h3>Language distribution</h3>
          <div className="empty-state"><h3>No language_distribution TSV</h3><p>Training has no mixture without one: it reads one stream. Pick one with “Stats TSV…” to compare it with the data.</p></div>
        </div>
      )}
    </div>
  )
}

/** The partition folders (of the focused languages). */
function PartitionSection({ report, focus, busy }: { report: OpenResult; focus: ReadonlySet<string>; busy: boolean }) {
  const focused = useFocused(report, focus)
  return (
    <section aria-labelledby="partitions-heading" aria-busy={busy}>
      <h3 id="partitions-heading">Partition folders{scopeOf(focus)}</h3>
      <PartitionsTable partitions={focused} showOther={report.overview.hasOtherKeys} />
    </section>
  )
}

/** The problems found while opening, grouped by kind. */
function ProblemSection({ report, busy }: { report: OpenResult; busy: boolean }) {
  const findings = useMemo(() => mergeFindings(report.stats.findings, report.validation.findings), [report])
  const counts = countBySeverity(findings)
  // validation lists the first findings of each kind and counts the rest (`finding_counts`)
  const totals = report.validation.finding_counts
  for (const [kind, c] of Object.entries(totals)) {
    const listed = findings.filter((f) => f.kind === kind).length
    if (c.total > listed) counts[c.severity] += c.total - listed
  }
  const totalOf = (kind: string) => totals[kind]?.total ?? null
  return (
    <section aria-labelledby="findings-heading" aria-busy={busy}>
      <h3 id="findings-heading">Problems found</h3>
      <p>{formatCount(counts.error)} errors, {formatCount(counts.warning)} warnings, {formatCount(counts.info)} notes while opening; the Audit checks much more.</p>
      <FindingGroups findings={findings} label="Problems found" totalOf={totalOf} empty="Nothing found while opening." />
    </section>
  )
}
