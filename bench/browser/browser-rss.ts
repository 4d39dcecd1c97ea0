/**
 * Resident memory of a headless Chromium started by a bench: every process in the tree under the processes whose
 * command line holds `marker` (a flag Chromium ignores, naming the run, so other sessions' browsers are not counted).
 */
import { execFileSync } from 'node:child_process'

/** MiB resident in all of the browser's processes (from `ps`), or null when none is found. */
export function browserRssMiB(marker: string): number | null {
  try {
    const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    const lines = out.trim().split('\n').map((l) => l.trim())
    const rows = lines.map((l) => l.split(/\s+/).slice(0, 3).map(Number))
    const roots = lines.filter((l) => l.includes(marker)).map((l) => Number(l.split(/\s+/)[0]))
    if (roots.length === 0) return null
    const tree = new Set(roots)
    for (let grew = true; grew;) {
      grew = false
      for (const [p, pp] of rows) if (tree.has(pp) && !tree.has(p)) { tree.add(p); grew = true }
    }
    return Math.round(rows.filter(([p]) => tree.has(p)).reduce((s, [, , rss]) => s + rss, 0) / 1024)
  } catch {
    return null
  }
}
