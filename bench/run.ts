/**
 * `npm run bench`: runs every benchmark and prints one table. Speed targets live here, not in unit tests:
 * figures are ratios against a reference measured in the same run. `npm run bench -- stats` runs one group.
 */
import { formatTable, type BenchRow } from './table.ts'

const groups: Record<string, () => Promise<BenchRow[]>> = {
  stats: async () => (await import('./stats.bench.ts')).runStatsBench(),
  decode: async () => (await import('./decode.bench.ts')).runDecodeBench(),
  features: async () => (await import('./features.bench.ts')).runFeaturesBench(),
  plan: async () => (await import('./plan.bench.ts')).runPlanBench(),
  audit: async () => (await import('./audit.bench.ts')).runAuditBench(),
  explorer: async () => (await import('./explorer.bench.ts')).runExplorerBench(),
}

/** Adds a benchmark group (other modules register theirs here). */
export function registerBench(name: string, run: () => Promise<BenchRow[]>): void {
  groups[name] = run
}

const wanted = process.argv.slice(2)
const rows: BenchRow[] = []
for (const [name, run] of Object.entries(groups)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue
  process.stderr.write(`bench: ${name}...\n`)
  rows.push(...await run())
}
process.stdout.write(formatTable(rows) + '\n')
