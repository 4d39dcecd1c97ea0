/**
 * `mixscope weights <dataset> [--preset NAME] [--config FILE] [--set k=v] [--summary TSV] [--beta-corpus B]
 * [--beta-language B] [--split train] [--steps N] [--json]`:
 * the reference's mixture weights per summary TSV row and what the sampler draws with for one split
 * (docs/reference-pipeline.md §4-§5).
 */
import { computeStats, exposureReport, weightsReport, type ExposureReport, type WeightsReport } from '../../engine/node.ts'
import { configHelp, configOptions, resolveConfigArgs, resolveSummary, summaryLine } from '../lib/config-args.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, integerOption, numberOption, parseCommand } from '../lib/args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

/** Betas when neither the flags, `--set`, `--preset` nor `--config` give one: the value every shipped recipe uses (docs/reference-pipeline.md §18). */
export const DEFAULT_BETA = 0.5

export const weightsHelp = `Usage: mixscope weights <dataset> [--preset NAME] [--config FILE] [--set key=value ...]
                        [--summary TSV] [--beta-corpus B] [--beta-language B] [--split train] [--steps N] [--json]

Two-level mixture weights of Omnilingual ASR (get_partition_weights_from_betas) for every row of the
language_distribution TSV, and the probability the training sampler really draws each (corpus,
language) with for the split (partitions absent from the split dropped, float32 renormalization).
Without a TSV, weights derived from audio_size are shown, labelled "source": "data" (training has no
mixture then).

  <dataset>            dataset root (a folder, a .parquet file, or an http(s) URL holding _manifest.json)
${configHelp(23)}
  --summary TSV        language_distribution TSV (else the config's dataset_summary_path when it exists
                       here, else the lookup beside the root)
  --beta-corpus B      corpus-level temperature, applied after --set (default: the config's; without
                       --preset or --config ${DEFAULT_BETA}, as the shipped recipes)
  --beta-language B    language-level temperature, applied after --set (default as --beta-corpus)
  --split S            split string the sampling probabilities are for, applied after --set (default: the
                       config's split, train)
  --steps N            also what the sampler makes the model see by optimizer step N, per (corpus, language)
                       and per language: hours drawn (all ranks), expected_epochs (hours drawn / hours the
                       length filter keeps), p_not_drawn; from the config's batching (length buckets or
                       batch_size, num_accumulate, world_size). Findings over-repeated-partition (above
                       exposure.max_epochs, default 100) and unseen-partition (p_not_drawn above
                       exposure.max_p_not_drawn, default 0.5); --set changes either
  --json               print {"schema_version": 1, "root", "source", "summary_path", "weights": [{"corpus",
                       "language", "hours", "corpus_weight", "language_weight", "weight", "in_split",
                       "sampling_probability"}], "findings"}; with --steps also "exposure": {"steps",
                       "curve_steps", "draws_per_step", "examples_per_batch", "batches_per_step", "step_seconds",
                       "basis", "draws", "partitions", "languages": [{"corpus", "language", "probability",
                       "hours_available", "hours_drawn", "expected_epochs", "p_not_drawn", "curve"}], "findings"}
  -h, --help           show this help

Exit codes: 0 done, 1 error findings (e.g. a zero-hours row the sampler rejects), 2 usage or I/O error, or a
config that cannot be built as given (unknown preset or key, bad value: findings printed).
`

/** A readable table of the report. */
function weightsTable(report: WeightsReport): string {
  const num = (v: number | null, digits: number) => (v === null || !Number.isFinite(v) ? '-' : v.toFixed(digits))
  const head = ['corpus', 'language', 'hours', 'corpus_w', 'language_w', 'weight', 'in_split', 'p_sample']
  const rows = report.weights.map((w) => [w.corpus, w.language, num(w.hours, 4), num(w.corpus_weight, 6), num(w.language_weight, 6),
    num(w.weight, 6), w.in_split ? 'yes' : 'no', num(w.sampling_probability, 6)])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (r: string[]) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  const findings = report.findings.map((f) => `${f.severity}: ${f.kind}: ${f.message}`)
  return [`weights from ${report.source === 'tsv' ? 'the summary TSV' : 'the data (audio_size over all splits; no mixture in training)'}`,
    line(head), ...rows.map(line), '', `${report.findings.length} finding(s)`, ...findings].join('\n') + '\n'
}

/** The exposure tables (per language, then per partition) for the text output. */
function exposureTable(exposure: ExposureReport): string {
  const num = (v: number | null, digits: number) => (v === null || !Number.isFinite(v) ? '-' : v.toFixed(digits))
  const prob = (v: number | null) => (v === null ? '-' : v < 1e-4 && v > 0 ? v.toExponential(2) : v.toFixed(4))
  const table = (head: string[], rows: string[][], text: number) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
    const line = (r: string[]) => r.map((c, i) => (i >= text ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
    return [line(head), ...rows.map(line)]
  }
  const cells = (r: ExposureReport['languages'][number]) => [num(r.hours_available, 4), num(r.hours_drawn, 4), num(r.expected_epochs, 2), prob(r.p_not_drawn)]
  const head = ['hours_available', 'hours_drawn', 'epochs', 'p_not_drawn']
  return [
    '', `exposure by step ${exposure.steps}: ${num(exposure.draws_per_step, 1)} draws per step on each rank (${exposure.draws === 'sampler' ? 'the sampler' : 'one shuffled stream'}), ` +
      `${num(exposure.examples_per_batch, 2)} examples per batch (${exposure.basis}), ${exposure.batches_per_step} batches per step`,
    ...table(['language', ...head], exposure.languages.map((r) => [r.language, ...cells(r)]), 1),
    '',
    ...table(['corpus', 'language', ...head], exposure.partitions.map((r) => [r.corpus ?? '', r.language, ...cells(r)]), 2),
  ].join('\n') + '\n'
}

const args = defineCommand({
  name: 'weights', help: weightsHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: {
    ...configOptions, summary: { type: 'string' }, 'beta-corpus': { type: 'string' }, 'beta-language': { type: 'string' },
    split: { type: 'string' }, steps: { type: 'string' }, json: { type: 'boolean' },
  },
})

/** Runs `mixscope weights`. */
export async function runWeights(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const flags: [string, unknown][] = []
  const betaCorpus = numberOption('weights', '--beta-corpus', values['beta-corpus'], 'a number')
  const betaLanguage = numberOption('weights', '--beta-language', values['beta-language'], 'a number')
  if (betaCorpus !== undefined) flags.push(['beta_corpus', betaCorpus])
  if (betaLanguage !== undefined) flags.push(['beta_language', betaLanguage])
  if (values.split !== undefined) flags.push(['split', values.split])
  const steps = integerOption('weights', '--steps', values.steps, { min: 1, max: 1e12, expected: 'a whole number of optimizer steps from 1 to 10^12' }) ?? null
  const resolved = await resolveConfigArgs(values, io, 'weights', flags)
  const config = resolved.config
  if (!values.preset && !values.config) {
    // no config given: the betas every shipped recipe uses (the reference defaults leave them unset, which fails)
    config.beta_corpus ??= DEFAULT_BETA
    config.beta_language ??= DEFAULT_BETA
  }
  const summary = await resolveSummary(values.summary, config, resolved.recipePath, resolved.summaryPathFrom)
  if (summary.note) io.stderr(`mixscope weights: ${summary.note}\n`)
  const dataset = await openDatasetArg(positionals[0], { summary: summary.path })
  if (!values.json) io.stderr(`mixscope weights: ${summaryLine(dataset)}\n`)
  const weights = await weightsReport(dataset, config)
  let report: WeightsReport & { exposure?: ExposureReport | null } = weights
  if (steps !== null) {
    await computeStats(dataset) // the row groups' audio_size facts the exposure model reads
    const exposure = weights.findings.some((f) => f.severity === 'error') ? null : exposureReport(dataset, config, weights.weights, steps)
    report = { ...weights, findings: [...weights.findings, ...(exposure?.findings ?? [])], exposure }
  }
  io.stdout(values.json ? formatJson(report) : weightsTable(report) + (report.exposure ? exposureTable(report.exposure) : report.exposure === null ? '\nexposure: none (the split is read once, or the sampler cannot be built)\n' : ''))
  return report.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
