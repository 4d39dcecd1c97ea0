/**
 * Findings grouped by kind, each group collapsed to one line (severity, kind, how many findings, rows and hours,
 * the first message) and opened on demand into a paged table of where and what. A list of 100,000 findings renders
 * as a few dozen lines. Used by the Overview (problems found on opening) and the Audit (each triage category).
 */
import { useMemo, useState, type ReactNode } from 'react'
import { compareUtf8, type Finding } from '../../engine/index.ts'
import { formatCount, plural } from '../lib/format.ts'
import { Num } from './num.tsx'

const severityRank = { error: 0, warning: 1, info: 2 } as const
/** Findings listed per page inside an open group. */
const pageSize = 100

/** `path:row`, `path (row group n)`, `path`, or `(dataset)`. */
export function whereOf(f: Finding): string {
  if (f.path === '') return '(dataset)'
  if (f.row !== null) return `${f.path}:${f.row}`
  if (f.row_group !== null) return `${f.path} (row group ${f.row_group})`
  return f.path
}

/** One group: every finding of a (severity, kind). */
export interface FindingGroup<F extends Finding> {
  severity: Finding['severity']
  kind: string
  findings: F[]
  /** Distinct rows the group's row findings are about. */
  rows: number
}

/** Groups by severity then kind (errors first, kinds alphabetical); findings keep their order. */
export function groupFindings<F extends Finding>(findings: readonly F[]): FindingGroup<F>[] {
  const groups = new Map<string, FindingGroup<F> & { ids: Set<string> }>()
  for (const f of findings) {
    const key = `${f.severity}\u0000${f.kind}`
    let g = groups.get(key)
    if (!g) groups.set(key, g = { severity: f.severity, kind: f.kind, findings: [], rows: 0, ids: new Set() })
    g.findings.push(f)
    if (f.row !== null) g.ids.add(`${f.path}:${f.row}`)
  }
  return [...groups.values()].map(({ ids, ...g }) => ({ ...g, rows: ids.size }))
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || compareUtf8(a.kind, b.kind))
}

function Group<F extends Finding>({ group, label, open, onToggle, where, hoursOf, totalOf, extra }: {
  group: FindingGroup<F>
  label: string
  open: boolean
  onToggle: (open: boolean) => void
  where?: (f: F) => ReactNode
  hoursOf?: (kind: string) => number | null
  totalOf?: (kind: string) => number | null
  extra?: { header: string; cell: (f: F) => ReactNode }
}) {
  const [pages, setPages] = useState(1)
  const shown = group.findings.slice(0, pages * pageSize)
  const hours = hoursOf?.(group.kind) ?? null
  // the findings of a kind past the report's cap are counted, not listed: the group says how many there are
  const total = Math.max(group.findings.length, totalOf?.(group.kind) ?? 0)
  const capped = total > group.findings.length
  return (
    <details className={`finding-group ${group.severity}`} open={open} data-kind={group.kind} data-severity={group.severity}
      onToggle={(e) => onToggle((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span className={`severity ${group.severity}`}>{group.severity}</span>
        <code className="kind">{group.kind}</code>
        <span className="group-count" data-total={total}><strong>{formatCount(total)}</strong> finding{total === 1 ? '' : 's'}</span>
        {capped && <span className="group-count capped">showing first {formatCount(group.findings.length)} of {formatCount(total)}</span>}
        {group.rows > 0 && <span className="group-count">{capped ? 'first ' : ''}{formatCount(group.rows)} row{group.rows === 1 ? '' : 's'}</span>}
        {hours !== null && hours > 0 && <span className="group-count"><Num value={hours} kind="hours" /></span>}
        <span className="first-message" dir="auto">{group.findings[0]?.message}</span>
      </summary>
      {open && (
        <>
          <table aria-label={`${label}: ${group.kind}`} className="findings">
            <thead><tr><th scope="col">Where</th><th scope="col">Message</th>{extra && <th scope="col">{extra.header}</th>}</tr></thead>
            <tbody>
              {shown.map((f, i) => (
                <tr key={i} data-severity={f.severity} data-kind={f.kind}>
                  <td className="where">{where ? where(f) : <code dir="auto">{whereOf(f)}</code>}</td>
                  <td className="message" dir="auto">{f.message}</td>
                  {extra && <td>{extra.cell(f)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          {group.findings.length > shown.length && (
            <button type="button" onClick={() => setPages(pages + 1)}>
              Show {formatCount(Math.min(pageSize, group.findings.length - shown.length))} more ({formatCount(group.findings.length - shown.length)} not shown)
            </button>
          )}
          {capped && group.findings.length === shown.length && (
            <p className="hint">The first {formatCount(group.findings.length)} of {formatCount(total)} {group.kind} findings, in dataset order; the
              others are counted, not listed (<code>mixscope audit --findings FILE</code> writes every one).</p>
          )}
        </>
      )}
    </details>
  )
}

/** The groups of `findings`, collapsed; "Expand all" opens every one. */
export function FindingGroups<F extends Finding>({ findings, label, where, hoursOf, totalOf, extra, empty }: {
  findings: readonly F[]
  /** Accessible name stem of the groups' tables (`<label>: <kind>`). */
  label: string
  /** Renders a finding's location (e.g. a link to the Inspector); default: the location as code. */
  where?: (f: F) => ReactNode
  /** Hours a kind is about (from the audit's summary), shown in the group line. */
  hoursOf?: (kind: string) => number | null
  /** How many findings of a kind there are when the list holds only the first ones (the report's `finding_counts`). */
  totalOf?: (kind: string) => number | null
  extra?: { header: string; cell: (f: F) => ReactNode }
  empty?: ReactNode
}) {
  const groups = useMemo(() => groupFindings(findings), [findings])
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  if (groups.length === 0) return <p className="hint">{empty ?? 'Nothing found.'}</p>
  const key = (g: FindingGroup<F>) => `${g.severity}/${g.kind}`
  const allOpen = groups.every((g) => open.has(key(g)))
  const total = groups.reduce((n, g) => n + Math.max(g.findings.length, totalOf?.(g.kind) ?? 0), 0)
  return (
    <div className="finding-groups">
      <div className="row">
        <button type="button" onClick={() => setOpen(allOpen ? new Set() : new Set(groups.map(key)))}>{allOpen ? 'Collapse all' : 'Expand all'}</button>
        <span className="hint">{plural(total, 'finding')} in {plural(groups.length, 'kind')}{total > findings.length ? ` (the first ${formatCount(findings.length)} listed)` : ''}</span>
      </div>
      {groups.map((g) => (
        <Group key={key(g)} group={g} label={label} open={open.has(key(g))} where={where} hoursOf={hoursOf} totalOf={totalOf} extra={extra}
          onToggle={(isOpen) => setOpen((old) => {
            if (old.has(key(g)) === isOpen) return old
            const next = new Set(old)
            if (isOpen) next.add(key(g))
            else next.delete(key(g))
            return next
          })} />
      ))}
    </div>
  )
}
