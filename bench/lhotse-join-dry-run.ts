/**
 * `prepare --dry-run` of a Lhotse input as the CLI does it (scan into the row log, plan without rows, summary), under
 * the CLI's budget (`nodePlanBudget`) with, optionally, another key budget for the recordings + supervisions join
 * (`PlanBudget.keys`: past it, hash partitions). Run under GNU time for its peak RSS; prints
 * `{ rows, skipped, partitions, seconds, maxRssMiB }` as JSON. Input: bench/make-lhotse.ts. With `scan`, only the scan
 * (the join into the row log) is done: the join's own peak.
 * Usage: tsx bench/lhotse-join-dry-run.ts <folder> [keys|-] [scan]
 */
import { resolve } from 'node:path'
import { createFsSource, nodePlanBudget, planPrepare, preparePlanSummary, scanInput } from '../src/engine/node.ts'

const [folder, keys, only] = process.argv.slice(2)
if (!folder) throw new Error('bench lhotse-join-dry-run: usage: lhotse-join-dry-run.ts <folder> [keys]')
const t0 = performance.now()
const root = resolve(folder)
const budget = { ...nodePlanBudget(), ...(keys && keys !== '-' ? { keys: Number(keys) } : {}) }
const { input, scan } = await scanInput(await createFsSource(root), { inputFormat: 'lhotse', paths: { root, workingDir: process.cwd() }, budget })
if (only === 'scan') {
  const rows = await scan.count()
  await scan.close()
  process.stdout.write(`${JSON.stringify({ rows, seconds: (performance.now() - t0) / 1000, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`)
  process.exit(0)
}
const plan = await planPrepare(scan, input, { corpus: 'bench' }, { keepRows: false })
const summary = await preparePlanSummary(plan, 10)
await plan.close()
await scan.close()
process.stdout.write(`${JSON.stringify({
  rows: summary.input_rows, skipped: summary.skipped, partitions: summary.partitions.length,
  seconds: (performance.now() - t0) / 1000, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
})}\n`)
