/**
 * Hours per language at any scale: the distribution of hours per language on a log axis ("412 languages under
 * 1 h"), the cumulative coverage curve, the top languages with the rest as one bar, every language ranked with a
 * brush to zoom into any rank range, and the "Find language" table
 * with every language. Clicking a bar or a row focuses languages (every view then filters to them): the charts then
 * draw the focused languages only, and the "Find language" table keeps every language (it is where the focus is
 * picked) and says so. While an open reads the files (`OpenProvisional.unreadLanguages`), the table also lists the
 * languages of the file listing none of whose files is read yet, as "not read yet" rows that can be found and focused
 * at once (their numbers come with their files).
 */
import { useDeferredValue, useMemo } from 'react'
import { usePaced } from '../../components/paced.ts'
import { Staged, useStage } from '../../components/staged.tsx'
import { CoverageCurve, LogHistogram, TopBars } from '../../components/charts/distribution-charts.tsx'
import { RankedBars } from '../../components/charts/ranked-bars.tsx'
import { LanguageTable } from '../../components/language-table.tsx'
import { NumCell } from '../../components/num.tsx'
import type { LanguageHours } from '../../../engine/dataset/groupings.ts'
import { formatCount, formatHours } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'
import { focusStore } from '../../stores/focus-store.ts'

const noun: [string, string] = ['language', 'languages']
const toggleFocus = (key: string) => focusStore.getState().toggle(key)
const noUnread: readonly string[] = []

/** A row of the "Find language" table: a language's numbers, or (`unread`) a language whose files are not read yet. */
type TableRow = LanguageHours & { unread?: true }

/** A number cell; for a language whose files are not read yet, "not read yet" in the first one, a dash in the others. */
function cellOf(l: TableRow, value: number, kind: 'hours' | 'count' | 'share', first = false) {
  if (!l.unread) return <NumCell value={value} kind={kind} />
  return <td className="num empty not-read" title="its files are not read yet">{first ? 'not read yet' : '—'}</td>
}

export function LanguageSection({ languages, metric, focus, unread = noUnread }: {
  languages: LanguageHours[]
  metric: 'hours' | 'rows'
  focus: ReadonlySet<string>
  /** Languages of the listing none of whose files is read yet (a progressive open's `files` snapshots). */
  unread?: readonly string[]
}) {
  // the charts draw the focused languages (all without a focus); the table lists every one
  const charted = useMemo(() => (focus.size === 0 ? languages : languages.filter((l) => focus.has(l.language))), [languages, focus])
  const items = useMemo(() => charted.map((l) => ({ key: l.language, value: metric === 'hours' ? l.hours : l.rows })), [charted, metric])
  const format = metric === 'hours' ? formatHours : formatCount
  // every language ranked (1,600 bars' worth of chart) and the table render in a background pass, after the charts
  // above paint
  const tableRows = useMemo<readonly TableRow[]>(() => (unread.length === 0 ? languages : [...languages, ...unread.map((language) => ({
    language, hours: 0, rows: 0, share: 0, trainHours: 0, corpora: [], splits: [], unread: true as const,
  }))]), [languages, unread])
  const now = useMemo(() => ({ items, metric, languages: tableRows, unread: unread.length }), [items, metric, tableRows, unread])
  const ranked = useDeferredValue(now, null)
  // the distribution paints first; the coverage curve, the top bars, the ranked chart and the table mount after it,
  // one per idle period (each chart's commit is a cascade of recharts store updates: together, at 100,000
  // partitions, they were one task of 0.4 s before the first chart showed)
  const stage = useStage(4)
  // while an open streams snapshots, the blocks take each new one a frame or more apart (components/paced.ts):
  // the distribution at once, the coverage and top bars a frame later, then the ranked chart, then the table
  const paced = usePaced(items, 1)
  const rankedShown = usePaced(ranked, 2)
  const tableShown = usePaced(ranked, 3)
  return (
    <section aria-labelledby="languages-heading">
      <h3 id="languages-heading" data-charted={charted.length}>{metric === 'hours' ? 'Hours' : 'Rows'} per language ({focus.size === 0 ? `${formatCount(languages.length)} languages` : `${formatCount(charted.length)} focused of ${formatCount(languages.length)} languages`})</h3>
      {focus.size > 0 && <p className="hint focus-scope">The charts draw the focused languages only; the &ldquo;Find language&rdquo; table below lists all {formatCount(languages.length)}, the focused ones marked, to add or remove one.</p>}
      <div className="grid-3">
        <section className="panel" aria-label="Distribution">
          <h4>How many languages have how much</h4>
          <LogHistogram items={items} noun={noun} format={format} label={metric === 'hours' ? 'hours per language' : 'rows per language'}
            thresholds={metric === 'hours' ? [1 / 6, 1, 10] : [10, 100, 1000]}
            onSelect={(keys) => focusStore.getState().set(keys)} />
        </section>
        <section className="panel" aria-label="Coverage" aria-busy={paced !== items}>
          <h4>How few languages hold most of the {metric}</h4>
          <Staged stage={stage} at={1} minHeight={220}>
          <CoverageCurve items={paced} noun={noun} label={metric} />
          </Staged>
        </section>
        <section className="panel" aria-label="Top languages" aria-busy={paced !== items}>
          <h4>Most {metric}</h4>
          <Staged stage={stage} at={2} minHeight={304}>
          <TopBars items={paced} n={12} noun={noun} format={format} label={(k) => `${languageLabel(k)} (${k})`}
            chartLabel={`Bar chart of ${metric} per language`} selected={focus} onSelect={(k) => focusStore.getState().toggle(k)} />
          </Staged>
        </section>
      </div>
      <section className="panel" aria-labelledby="ranked-heading">
        <h4 id="ranked-heading">Every language by {metric === 'hours' ? 'hours' : 'rows'}, ranked: zoom into any rank range</h4>
        <div aria-busy={ranked !== now || rankedShown !== ranked}>
          <Staged stage={stage} at={3} minHeight={380}>
          {rankedShown && <RankedBars items={rankedShown.items} noun={noun} format={rankedShown.metric === 'hours' ? formatHours : formatCount} label={languageLabel} metric={rankedShown.metric}
            chartLabel={`Bar chart of ${rankedShown.metric} per language`}
            selected={focus} onSelect={toggleFocus} />}
          </Staged>
        </div>
      </section>
      <div className="language-table-block" aria-busy={ranked !== now || tableShown !== ranked}>
        <Staged stage={stage} at={4} minHeight={420}>
        {tableShown && (
        <LanguageTable rows={tableShown.languages} label="Hours per language" initialSort={{ id: 'hours', descending: true }} height={360}
          toolbar={(focus.size > 0 || tableShown.unread > 0) ? <>
            {focus.size > 0 && <span className="hint" data-testid="table-all-languages">Every language, not only the focused ones: click a row to add it to the focus or remove it.</span>}
            {tableShown.unread > 0 && <span className="hint" data-testid="table-unread-languages">{formatCount(tableShown.unread)} {tableShown.unread === 1 ? 'language' : 'languages'} of the file listing not read yet: listed as &ldquo;not read yet&rdquo;, to find and focus now.</span>}
          </> : undefined}
          rowData={(l): Record<string, string> => (l.unread ? { unread: 'true' } : {})}
          columns={[
            { id: 'hours', header: 'Hours', numeric: true, sortValue: (l) => (l.unread ? null : l.hours), cell: (l) => cellOf(l, l.hours, 'hours', true) },
            { id: 'rows', header: 'Rows', numeric: true, sortValue: (l) => (l.unread ? null : l.rows), cell: (l) => cellOf(l, l.rows, 'count') },
            { id: 'share', header: 'Share', numeric: true, sortValue: (l) => (l.unread ? null : l.share), cell: (l) => cellOf(l, l.share, 'share') },
            { id: 'train', header: 'Train hours', numeric: true, sortValue: (l) => (l.unread ? null : l.trainHours), cell: (l) => cellOf(l, l.trainHours, 'hours') },
            { id: 'corpora', header: 'Corpora', sortValue: (l) => l.corpora.length, cell: (l) => <td dir="auto">{l.corpora.join(', ')}</td> },
            { id: 'splits', header: 'Splits', sortValue: (l) => l.splits.join(','), cell: (l) => <td>{l.splits.join(', ')}</td> },
          ]} />
        )}
        </Staged>
      </div>
    </section>
  )
}
