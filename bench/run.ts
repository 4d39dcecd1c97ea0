/**
 * `npm run bench`: runs every benchmark group and prints one table per group. Speed targets live here, not in unit tests:
 * figures are ratios against a reference measured in the same run. `npm run bench -- stats` runs one group.
 */
import { formatTable, type BenchRow } from './table.ts'

const groups: Record<string, () => Promise<BenchRow[]>> = {
  stats: async () => (await import('./stats.bench.ts')).runStatsBench(),
  parquet: async () => (await import('./parquet.bench.ts')).runParquetBench(),
  decode: async () => (await import('./decode.bench.ts')).runDecodeBench(),
  features: async () => (await import('./features.bench.ts')).runFeaturesBench(),
  plan: async () => (await import('./plan.bench.ts')).runPlanBench(),
  audit: async () => (await import('./audit.bench.ts')).runAuditBench(),
  explorer: async () => (await import('./explorer.bench.ts')).runExplorerBench(),
  'mixture-tuning': async () => (await import('./mixture-tuning.bench.ts')).runMixtureTuningBench(),
  'fbank-micro': async () => (await import('./fbank-micro.bench.ts')).runFbankMicroBench(),
  prepare: async () => (await import('./prepare.bench.ts')).runPrepareBench(),
  'prepare-plan': async () => (await import('./prepare-plan.bench.ts')).runPreparePlanBench(),
  'prepare-scale': async () => (await import('./prepare-plan.bench.ts')).runPreparePlanBench('1000000,10000000'),
  scale: async () => (await import('./scale.bench.ts')).runScaleBench(),
  shard: async () => (await import('./shard.bench.ts')).runShardBench(),
  rows: async () => (await import('./rows.bench.ts')).runRowsBench(),
  'near-duplicates': async () => (await import('./near-duplicates.bench.ts')).runNearDuplicatesBench(),
  'near-duplicates-scale': async () => (await import('./near-duplicates-scale.bench.ts')).runNearDuplicatesScaleBench(),
}

const wanted = process.argv.slice(2)
const unknown = wanted.filter((name) => !(name in groups))
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown group(s) ${unknown.join(', ')}; groups: ${Object.keys(groups).join(', ')}\n`)
  process.exit(2)
}
// one table per group, printed as each group finishes
for (const [name, run] of Object.entries(groups)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue
  process.stderr.write(`bench: ${name}...\n`)
  process.stdout.write(`\n## ${name}\n\n${formatTable(await run())}\n`)
}
