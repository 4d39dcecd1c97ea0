/**
 * Problems first: when opening found errors (files that cannot be read, rows training would fail on), the Overview
 * starts with them, before the totals they make wrong: how many files and rows, the unreadable files whose rows are
 * in no total, what they cost in hours (known, or `hours unknown` and why: `problemCounts`), the kinds with most
 * findings, and a button to the Audit's blocking errors. Warnings alone get a quiet
 * note; a clean open shows nothing. Every number is the engine's (`problemCounts`, through `openProblems`); a count
 * taken from a capped list says "at least".
 */
import { useMemo } from 'react'
import type { BoundedCount, KindProblems, ProblemCounts } from '../../../engine/index.ts'
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import { formatCount, formatHours, plural } from '../../lib/format.ts'
import { openProblems, showAudit, showAuditErrors } from '../../stores/audit-link-store.ts'

/** Kinds named in the alert; the others are counted in one line. */
const topKinds = 4

/** `3 files`, `at least 3 files`. */
function bounded(c: BoundedCount, one: string): string {
  return `${c.atLeast ? 'at least ' : ''}${plural(c.count, one)}`
}

/** What one kind is about: its rows when it names rows, else its files, else its findings. */
function scopeOf(k: KindProblems): string {
  const [c, one] = k.rows.count > 0 ? [k.rows, 'row'] : k.files.count > 0 ? [k.files, 'file'] : [null, '']
  let text = c ? bounded(c, one) : plural(k.total, 'finding')
  if (c && (c.atLeast || c.count !== k.total)) text += ` (${plural(k.total, 'finding')})`
  return text
}

/** What one kind costs in hours: the known hours, and `hours unknown` (with why) for the files or rows without. */
function HoursOf({ k }: { k: KindProblems }) {
  const unknown = k.unknown.count > 0 || k.unknown.atLeast
  const whole = k.rows.count > 0 ? k.rows : k.files
  const some = unknown && k.hours !== null
  return (
    <span className="kind-hours" data-hours={k.hours ?? ''} data-unknown={k.unknown.count}>
      {k.hours !== null && <>{', '}<strong>{formatHours(k.hours)}</strong>{k.hours === 0 && k.rows.count === 0 && !unknown ? ' (no rows)' : ''}
        {k.hoursBasis && <span className="hint"> ({k.hoursBasis})</span>}</>}
      {unknown && <>{', '}<span className="hours-unknown">hours unknown{some || whole.count !== k.unknown.count ? ` for ${bounded(k.unknown, k.rows.count > 0 ? 'row' : 'file')}` : ''}</span>
        {k.unknownWhy && <span className="hint"> ({k.unknownWhy})</span>}</>}
    </span>
  )
}

/** The errors' cost in hours: the known hours, then the files and rows whose hours are unknown. */
function costText(h: ProblemCounts['errors']['hours']): string {
  const unknown = [h.unknownFiles.count > 0 || h.unknownFiles.atLeast ? bounded(h.unknownFiles, 'file') : null,
    h.unknownRows.count > 0 || h.unknownRows.atLeast ? bounded(h.unknownRows, 'row') : null].filter((x) => x !== null)
  const known = `${formatHours(h.known)} of audio`
  if (unknown.length === 0) return `They cost ${known}.`
  if (h.known > 0) return `They cost ${known}, and the hours of ${unknown.join(' and ')}, unknown without reading them (why, by kind, below).`
  return `What they cost in hours is unknown for ${unknown.join(' and ')} without reading them (why, by kind, below).`
}

export function ProblemsAlert({ report }: { report: OpenResult }) {
  const counts = useMemo(() => openProblems(report), [report])
  const { error, warning } = counts.findings
  const soFar = report.provisional ? ' so far (the rows are still being checked)' : ''
  if (error === 0) {
    if (warning === 0) return null
    const kinds = counts.kinds.filter((k) => k.severity === 'warning')
    return (
      <div className="notice problems-note" role="status" data-warnings={warning}>
        <p>
          No errors while opening{soFar}; {plural(warning, 'warning')} ({kinds.slice(0, topKinds).map((k) => k.kind).join(', ')}{kinds.length > topKinds ? ', …' : ''}): listed under
          {' '}“Problems found” below.{' '}
          <button type="button" className="link" onClick={showAudit}>Open the Audit</button>
        </p>
      </div>
    )
  }
  const errorKinds = counts.kinds.filter((k) => k.severity === 'error')
  const shown = errorKinds.slice(0, topKinds)
  const rest = errorKinds.slice(topKinds)
  const unreadable = counts.files?.unreadable ?? 0
  return (
    <section className="problems-alert" role="alert" aria-labelledby="problems-alert-heading" data-errors={error}>
      <h3 id="problems-alert-heading">{plural(error, 'error')} found while opening{soFar}: training would fail on this data</h3>
      <p className="problems-scope" data-files={counts.errors.files.count} data-rows={counts.errors.rows.count}>
        The errors are about {bounded(counts.errors.files, 'file')}{counts.errors.rows.count > 0 && <> and {bounded(counts.errors.rows, 'row')}</>}.
        {' '}<span className="problems-hours" data-known-hours={counts.errors.hours.known}>{costText(counts.errors.hours)}</span>
        {unreadable > 0 && counts.files && <>
          {' '}<strong data-unreadable={unreadable}>{formatCount(unreadable)} of {plural(counts.files.parquet, 'parquet file')} cannot be read</strong>: their rows
          and hours are in none of the totals below.
        </>}
      </p>
      <ul className="problems-kinds" aria-label="Errors by kind">
        {shown.map((k) => (
          <li key={k.kind} data-kind={k.kind} data-total={k.total}>
            <code className="kind">{k.kind}</code> <strong>{scopeOf(k)}</strong><HoursOf k={k} />
            {k.first && <span className="first-message" dir="auto">{k.total > 1 ? 'first: ' : ''}{k.first.message}</span>}
          </li>
        ))}
        {rest.length > 0 && <li>and {plural(rest.reduce((n, k) => n + k.total, 0), 'more error')} of {plural(rest.length, 'other kind')} ({rest.map((k) => k.kind).join(', ')})</li>}
      </ul>
      <p className="problems-actions">
        <button type="button" className="primary" onClick={showAuditErrors}>Show the errors in the Audit</button>
        {warning > 0 && <span className="hint">and {plural(warning, 'warning')}: under “Problems found” below and in the Audit.</span>}
      </p>
    </section>
  )
}
