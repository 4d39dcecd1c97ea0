/** The Overview's one list of problems: stats and validation findings, each reported once, in the engine's order. */
import { type Finding, sortFindings } from '../../engine/index.ts'

/** Concatenates finding lists, drops exact duplicates (discovery findings appear in both reports), sorts. */
export function mergeFindings(...lists: Finding[][]): Finding[] {
  const seen = new Set<string>()
  const merged: Finding[] = []
  for (const f of lists.flat()) {
    const key = JSON.stringify([f.path, f.row, f.row_group, f.kind, f.severity, f.message])
    if (seen.has(key)) continue
    seen.add(key)
    merged.push(f)
  }
  return sortFindings(merged)
}

/** Counts per severity. */
export function countBySeverity(findings: Finding[]): Record<Finding['severity'], number> {
  const counts = { error: 0, warning: 0, info: 0 }
  for (const f of findings) counts[f.severity]++
  return counts
}
