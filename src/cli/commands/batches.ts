/**
 * `mixscope batches <dataset> --split S [...]`: the batches rank r of W sees, as the reference builds them
 * (docs/reference-pipeline.md §1-§9, §15), from `audio_size` and `text` only.
 */
import { writeFile } from 'node:fs/promises'
import type { PipelineConfig } from '../../engine/pipeline/config/types.ts'
import {
  applyBatchLimit,
  batchJsonLine,
  codePointLength,
  DEFAULT_TRAIN_MAX_BATCHES,
  planDataset,
  planIpcFile,
  splitFooters,
  taskBucketSizes,
} from '../../engine/node.ts'
import type { PlannedBatch } from '../../engine/pipeline/plan-batches.ts'
import { configHelp, configOptions, findingLine, resolveConfigArgs, resolveSummary, summaryLine } from '../lib/config-args.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, integerOption, parseCommand, UsageError } from '../lib/args.ts'
import { exitCodes, type CliIo } from '../lib/io.ts'

export const batchesHelp = `Usage: mixscope batches <dataset> --split S [--summary TSV] [--preset NAME] [--config FILE]
                        [--set key=value ...] [--rank r --world-size W] [--max-batches N]
                        [--jsonl] [--buckets] [--arrow OUT]

The batches data-parallel rank r of W sees, in order, exactly as Omnilingual ASR on fairseq2 0.6
builds them (split selection, mixture sampling, shuffles, filters, length buckets). Reads only the
audio_size and text columns.

  <dataset>          dataset root (a folder, a .parquet file, or an http(s) URL holding _manifest.json)
  --split S          split string as given to the reader (train, train_mls, dev, ...)
  --summary TSV      language_distribution TSV (else the config's dataset_summary_path when it exists
                     here, else the lookup beside the root); which one is used goes to stderr
${configHelp(21)}
  --rank r           data-parallel rank, 0-based (default: config rank, 0); applied after --set
  --world-size W     data-parallel size (default: config world_size, 1); applied after --set
  --max-batches N    stop after N batches (train streams are infinite: default ${DEFAULT_TRAIN_MAX_BATCHES})
  --jsonl            one line per batch: {"batch", "examples": [{"file", "row", "row_group", "corpus",
                     "language", "split", "length", "text_chars"}]}
  --buckets          print the length-bucket table (stderr with --jsonl)
  --arrow OUT        also write the planned examples as an Arrow IPC file (pyarrow / pandas.read_feather)
  -h, --help         show this help

--split is applied after --set too. Without a config the reference defaults apply (example_shuffle_window 0
fails there, so it fails here).
Exit codes: 0 done, 1 the training would fail with this config (findings printed) or a pipeline error, 2 usage
or I/O error, or a config that cannot be built as given (unknown preset or key, bad value: findings printed).
`

/** The LENGTH bucket table (or the STATIC batch size) as text. */
export function bucketTable(config: PipelineConfig): string {
  if (config.batching_strategy === 'STATIC') {
    return `STATIC batching: ${config.batch_size} examples per batch${config.drop_remainder ? ', last partial batch dropped' : ''}\n`
  }
  const { sizes, maxNumElements, rounded } = taskBucketSizes(config)
  const lines = [`LENGTH buckets: ${sizes.length} (max_num_elements ${maxNumElements}${rounded ? ', rounded down to a multiple of max_audio_len' : ''})`,
    'bucket  max_examples  max_length']
  sizes.forEach((s, i) => lines.push(`${String(i).padStart(6)}  ${String(s.batchSize).padStart(12)}  ${String(s.seqLen).padStart(10)}`))
  return lines.join('\n') + '\n'
}

function batchText(b: PlannedBatch): string {
  const longest = b.examples.reduce((m, e) => Math.max(m, e.length), 0)
  const head = `batch ${b.index} (step ${b.step}, ${b.indexInStep + 1} in step): ${b.examples.length} examples, max length ${longest}, padded ${longest * b.examples.length} samples`
  const rows = b.examples.map((e) => `  ${e.file}:${e.row}  rg ${e.row_group}  ${e.corpus}/${e.language}  ${e.split}  length ${e.length}  chars ${codePointLength(e.text)}`)
  return [head, ...rows].join('\n') + '\n'
}

const args = defineCommand({
  name: 'batches', help: batchesHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: {
    split: { type: 'string' }, summary: { type: 'string' }, ...configOptions, rank: { type: 'string' }, 'world-size': { type: 'string' },
    'max-batches': { type: 'string' }, jsonl: { type: 'boolean' }, buckets: { type: 'boolean' }, arrow: { type: 'string' },
  },
})

/** Runs `mixscope batches`. */
export async function runBatches(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  if (values.split === undefined || values.split === '') throw new UsageError('batches: --split is required (e.g. --split train or --split dev)')
  const rank = integerOption('batches', '--rank', values.rank, { min: 0 })
  const worldSize = integerOption('batches', '--world-size', values['world-size'], { min: 1 })
  const maxBatches = integerOption('batches', '--max-batches', values['max-batches'], { min: 0 })

  const flags: [string, unknown][] = [['split', values.split]]
  if (rank !== undefined) flags.push(['rank', rank])
  if (worldSize !== undefined) flags.push(['world_size', worldSize])
  const resolved = await resolveConfigArgs(values, io, 'batches', flags)
  const config = resolved.config
  if (config.rank >= config.world_size) throw new UsageError(`batches: --rank must be below --world-size, got rank ${config.rank} of ${config.world_size}`)
  const { trainStreaming: train } = applyBatchLimit(config, maxBatches)

  const summary = await resolveSummary(values.summary, config, resolved.recipePath, resolved.summaryPathFrom)
  if (summary.note) io.stderr(`mixscope batches: ${summary.note}\n`)
  // the footers of the split's files only, as the reference lists only the files it selects
  const dataset = await openDatasetArg(positionals[0], { summary: summary.path, open: { footersOf: splitFooters(config.split) } })
  io.stderr(`mixscope batches: ${summaryLine(dataset)}\n`)

  const plan = planDataset(dataset, config)
  const notes = plan.findings.filter((f) => f.severity !== 'info')
  if (!values.jsonl) for (const f of notes) io.stderr(findingLine(f))
  if (values.buckets) (values.jsonl ? io.stderr : io.stdout)(bucketTable(config))

  const kept: PlannedBatch[] = []
  let count = 0
  for await (const batch of plan.batches) {
    await io.stdout(values.jsonl ? batchJsonLine(batch) : batchText(batch))
    if (values.arrow) kept.push(batch)
    count++
  }
  if (values.arrow) await writeFile(values.arrow, planIpcFile(kept))
  if (!values.jsonl) io.stdout(summaryText(plan, count, train))
  return exitCodes.ok
}

function summaryText(plan: ReturnType<typeof planDataset>, count: number, train: boolean): string {
  const lines = [`${count} batch(es) of rank ${plan.config.rank}/${plan.config.world_size}, split ${JSON.stringify(plan.config.split)} (${train ? 'train streaming: infinite, shown up to --max-batches' : 'one pass'})`]
  if (plan.mixture) {
    lines.push('mixture (corpus/language  probability  sampled):')
    for (const m of plan.mixture) lines.push(`  ${m.corpus}/${m.language}  ${m.probability.toFixed(6)}  ${m.sampled}`)
  }
  if (plan.unweighted.length > 0) lines.push(`left out (no TSV row): ${plan.unweighted.map((u) => `${u.corpus}/${u.language}`).join(', ')}`)
  const drops = plan.drops.list()
  if (drops.length > 0) {
    lines.push('dropped (reason  corpus/language  examples):')
    for (const d of drops) lines.push(`  ${d.reason}  ${d.corpus}/${d.language}  ${d.count}`)
  }
  for (const d of plan.diagnostics) if (d.note) lines.push(`note: ${d.note}`)
  return lines.join('\n') + '\n'
}
