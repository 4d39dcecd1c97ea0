/** Problems found while opening (discovery, stats, shallow validation): severity, kind, where, message. */
import { useState } from 'react'
import type { Finding } from '../../../engine/findings.ts'
import { formatCount } from '../../lib/format.ts'
import { countBySeverity } from '../../lib/merge-findings.ts'

/** Rows shown before "Show all". */
const firstPage = 200

/** `path:row`, `path (row group 3)`, `path`, or `(dataset)` for findings about the whole dataset. */
function location(f: Finding): string {
  if (f.path === '') return '(dataset)'
  if (f.row !== null) return `${f.path}:${f.row}`
  if (f.row_group !== null) return `${f.path} (row group ${f.row_group})`
  return f.path
}

export function FindingsList({ findings }: { findings: Finding[] }) {
  const [showAll, setShowAll] = useState(false)
  const counts = countBySeverity(findings)
  const shown = showAll ? findings : findings.slice(0, firstPage)
  return (
    <section aria-labelledby="findings-heading">
      <h3 id="findings-heading">Problems found</h3>
      <p>
        {formatCount(counts.error)} errors, {formatCount(counts.warning)} warnings, {formatCount(counts.info)} notes
      </p>
      {findings.length > 0 && (
        <table aria-label="Problems found" className="findings">
          <thead>
            <tr><th scope="col">Severity</th><th scope="col">Kind</th><th scope="col">Where</th><th scope="col">Message</th></tr>
          </thead>
          <tbody>
            {shown.map((f, i) => (
              <tr key={i} data-severity={f.severity} data-kind={f.kind}>
                <td><span className={`severity ${f.severity}`}>{f.severity}</span></td>
                <td><code>{f.kind}</code></td>
                <td className="where"><code dir="auto">{location(f)}</code></td>
                <td dir="auto">{f.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!showAll && findings.length > firstPage && (
        <button type="button" onClick={() => setShowAll(true)}>Show all {formatCount(findings.length)} problems</button>
      )}
    </section>
  )
}
