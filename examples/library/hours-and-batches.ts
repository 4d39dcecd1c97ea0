// Hours per language and the first batches training draws: node --import mixscope/register hours-and-batches.ts <folder>
import { applyBatchLimit, computeStats, createFsSource, openDataset, planDataset, resolveConfig } from 'mixscope/node'

const dataset = await openDataset(await createFsSource(process.argv[2]!))
const stats = await computeStats(dataset) // footers + audio_size only: hours, rows and files per partition
console.log(`${stats.totals.hours.toFixed(3)} h in ${stats.totals.rows} rows, ${stats.partitions.length} partitions`)
const { config } = resolveConfig({ preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } })
applyBatchLimit(config, 3) // rank 0's first 3 batches, exactly as the reference builds them
for await (const batch of planDataset(dataset, config).batches) {
  console.log(`batch ${batch.index}: ${batch.examples.map((e) => `${e.file}:${e.row}`).join(' ')}`)
}
