/**
 * `mixscope batches <dataset> --split S [...]`: the batches rank r of W sees, as the reference builds them
 * (docs/reference-pipeline.md §1-§9, §15), from `audio_size` and `text` only.
 */
import { parseArgs } from 'node:util'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { defaultPipelineConfig } from '../../engine/config/defaults.ts'
import { getPreset, presetNames } from '../../engine/config/presets.ts'
import { loadRecipe } from '../../engine/config/recipe.ts'
import { applySetArguments } from '../../engine/config/set.ts'
import { isTrainStreaming } from '../../engine/config/split.ts'
import type { PipelineConfig } from '../../engine/config/types.ts'
import type { OpenDataset } from '../../engine/discovery/open.ts'
import { type Finding } from '../../engine/findings.ts'
import { planIpcFile } from '../../engine/plan/arrow.ts'
import { batchJsonLine } from '../../engine/plan/jsonl.ts'
import { PlanRefusedError, planDataset } from '../../engine/plan/plan-dataset.ts'
import { taskBucketSizes } from '../../engine/pipeline/buckets.ts'
import { codePointLength } from '../../engine/pipeline/example.ts'
import type { PlannedBatch } from '../../engine/pipeline/plan.ts'
import { isUrl, openDatasetArg } from '../dataset-arg.ts'
import { exitCodes, UsageError, type CliIo } from '../io.ts'

/** Batches printed for an infinite (train) stream when `--max-batches` is not given (docs/conventions.md). */
export const DEFAULT_TRAIN_MAX_BATCHES = 20

export const batchesHelp = `Usage: mixscope batches <dataset> --split S [--summary TSV] [--config FILE|--preset NAME]
                        [--set key=value ...] [--rank r --world-size W] [--max-batches N]
                        [--jsonl] [--buckets] [--arrow OUT]

The batches data-parallel rank r of W sees, in order, exactly as Omnilingual ASR on fairseq2 0.6
builds them (split selection, mixture sampling, shuffles, filters, length buckets). Reads only the
audio_size and text columns.

  <dataset>          dataset root (a folder, a .parquet file, or an http(s) URL holding _manifest.json)
  --split S          split string as given to the reader (train, train_mls, dev, ...)
  --summary TSV      language_distribution TSV (else the config's dataset_summary_path when it exists
                     here, else the lookup beside the root); which one is used goes to stderr
  --config FILE      fairseq2 recipe YAML (dataset.mixture_parquet_storage_config, asr_task_config,
                     common.seed, ...) or a JSON/YAML object of config keys
  --preset NAME      a shipped configuration: ${presetNames.join(', ')}
  --set key=value    override one config key (repeatable; values parsed as JSON when valid)
  --rank r           data-parallel rank, 0-based (default: config rank, 0)
  --world-size W     data-parallel size (default: config world_size, 1)
  --max-batches N    stop after N batches (train streams are infinite: default ${DEFAULT_TRAIN_MAX_BATCHES})
  --jsonl            one line per batch: {"batch", "examples": [{"file", "row", "row_group", "corpus",
                     "language", "split", "length", "text_chars"}]}
  --buckets          print the length-bucket table (stderr with --jsonl)
  --arrow OUT        also write the planned examples as an Arrow IPC file (pyarrow / pandas.read_feather)
  -h, --help         show this help

Without a config the reference defaults apply (example_shuffle_window 0 fails there, so it fails here).
Exit codes: 0 done, 1 config errors (printed) or a pipeline error, 2 usage or I/O error.
`

/** A config from `--config` / `--preset` / `--set`; `--config` load findings come back too. */
export async function configFromArgs(values: { config?: string; preset?: string; set?: string[] }): Promise<{ config: PipelineConfig; findings: Finding[]; summaryFrom: string | null }> {
  if (values.config && values.preset) throw new UsageError('give --config or --preset, not both')
  let config = defaultPipelineConfig()
  let findings: Finding[] = []
  let summaryFrom: string | null = null
  if (values.preset) config = getPreset(values.preset).config
  if (values.config) {
    let text: string
    try {
      text = await readFile(values.config, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read --config ${values.config} (${(error as Error).message})`)
    }
    const loaded = loadRecipe(text, { name: values.config })
    config = loaded.config
    findings = loaded.findings
    summaryFrom = loaded.summaryPathFrom
  }
  if (values.set && values.set.length > 0) {
    const before = config.dataset_summary_path
    config = applySetArguments(config, values.set)
    if (config.dataset_summary_path !== before) summaryFrom = '--set'
  }
  return { config, findings, summaryFrom }
}

/**
 * Which TSV to open: `--summary` wins; else the config's `dataset_summary_path` when it exists here (a URL, a path
 * relative to the working directory, or one relative to the recipe's folder); else the lookup beside the root
 * (docs/conventions.md "Stats TSV"). Returns the path to pass to `openDatasetArg` and a sentence for stderr, or `null` + a
 * note when the lookup is used.
 */
export async function resolveSummary(explicit: string | undefined, config: PipelineConfig, recipePath: string | undefined, summaryFrom: string | null): Promise<{ path: string | undefined; note: string | null }> {
  if (explicit) return { path: explicit, note: null }
  const configured = config.dataset_summary_path
  if (!configured) return { path: undefined, note: null }
  if (isUrl(configured)) return { path: configured, note: null }
  const candidates = [resolve(configured)]
  if (recipePath) candidates.push(resolve(dirname(recipePath), configured))
  for (const candidate of candidates) {
    try {
      if ((await stat(candidate)).isFile()) return { path: candidate, note: null }
    } catch {
      // try the next one
    }
  }
  return { path: undefined, note: `dataset_summary_path ${JSON.stringify(configured)}${summaryFrom ? ` (${summaryFrom})` : ''} does not exist here; looking for language_distribution_*.tsv beside the dataset instead` }
}

/** The sentence saying which TSV is in use. */
export function summaryLine(dataset: OpenDataset): string {
  return dataset.summary
    ? `summary TSV: ${dataset.summary.path} (${dataset.summary.rows.length} rows)`
    : 'summary TSV: none found: no mixture, one stream (as the reference without dataset_summary_path)'
}

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

function findingLines(findings: Finding[]): string {
  return findings.map((f) => `${f.severity}: ${f.kind}: ${f.path ? `${f.path}: ` : ''}${f.message}\n`).join('')
}

export async function runBatches(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    split: { type: 'string' }, summary: { type: 'string' }, config: { type: 'string' }, preset: { type: 'string' },
    set: { type: 'string', multiple: true }, rank: { type: 'string' }, 'world-size': { type: 'string' },
    'max-batches': { type: 'string' }, jsonl: { type: 'boolean' }, buckets: { type: 'boolean' }, arrow: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } })
  if (values.help) {
    io.stdout(batchesHelp)
    return exitCodes.ok
  }
  if (positionals.length !== 1) throw new UsageError(`expected one dataset argument, got ${positionals.length}`)
  if (values.split === undefined || values.split === '') throw new UsageError('--split is required (e.g. --split train or --split dev)')
  const rank = values.rank === undefined ? undefined : nonNegativeInt('--rank', values.rank)
  const worldSize = values['world-size'] === undefined ? undefined : nonNegativeInt('--world-size', values['world-size'])
  if (worldSize === 0) throw new UsageError('--world-size must be at least 1, got 0')
  const maxBatches = values['max-batches'] === undefined ? undefined : nonNegativeInt('--max-batches', values['max-batches'])

  const loaded = await configFromArgs(values)
  const loadErrors = loaded.findings.filter((f) => f.severity === 'error')
  if (loadErrors.length > 0) {
    io.stderr(findingLines(loaded.findings))
    throw new PlanRefusedError(loadErrors)
  }
  const config = loaded.config
  config.split = values.split
  if (rank !== undefined) config.rank = rank
  if (worldSize !== undefined) config.world_size = worldSize
  if (config.rank >= config.world_size) throw new UsageError(`--rank must be below --world-size, got rank ${config.rank} of ${config.world_size}`)
  const train = isTrainStreaming(config.split, config.sync_mode)
  const limit = Math.min(maxBatches ?? (train ? DEFAULT_TRAIN_MAX_BATCHES : Infinity), config.max_num_batches ?? Infinity)
  config.max_num_batches = Number.isFinite(limit) ? limit : null

  const summary = await resolveSummary(values.summary, config, values.config, loaded.summaryFrom)
  if (summary.note) io.stderr(`mixscope batches: ${summary.note}\n`)
  const dataset = await openDatasetArg(positionals[0], { summary: summary.path })
  io.stderr(`mixscope batches: ${summaryLine(dataset)}\n`)

  const plan = planDataset(dataset, config)
  const notes = [...loaded.findings, ...plan.findings].filter((f) => f.severity !== 'info')
  if (!values.jsonl && notes.length > 0) io.stderr(findingLines(notes))
  if (values.buckets) (values.jsonl ? io.stderr : io.stdout)(bucketTable(config))

  const kept: PlannedBatch[] = []
  let count = 0
  for await (const batch of plan.batches) {
    io.stdout(values.jsonl ? batchJsonLine(batch) : batchText(batch))
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

function nonNegativeInt(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} expects a non-negative integer, got ${JSON.stringify(text)}`)
  return Number(text)
}
