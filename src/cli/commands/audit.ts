/**
 * `mixscope audit <dataset> [--preset NAME] [--config FILE] [--set k=v] [--deep|--sample F] [--json] [--report FILE] [--flagged FILE]`;
 * with `--shard i/N` (or a shard from the environment, docs/conventions.md "Sharded jobs") and `--out FILE`, one
 * shard's part for `mixscope merge`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import {
  auditConfigFindings,
  auditDataset,
  auditHasErrors,
  auditReportHtml,
  auditReportMarkdown,
  auditShard,
  auditWithConfig,
  contentHash,
  createFileSpill,
  createAuditState,
  describeShard,
  finding,
  loadSpmTokenizer,
  MixscopeError,
  shardCutFromIndex,
  shardFrom,
  type ShardSpec,
  stringifyPart,
  wholeShard,
  writeFileAtomic,
} from '../../engine/node.ts'
import type { AuditReport, AuditState } from '../../engine/audit/rows/types.ts'
import type { OpenDataset } from '../../engine/dataset/open.ts'
import { configHelp, configOptions, resolveConfigArgs, resolveSummary, summaryLine } from '../lib/config-args.ts'
import { isUrl, openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, integerOption, matchOption, numberOption, parseCommand, UsageError } from '../lib/args.ts'
import { auditSummaryText } from '../lib/audit-summary.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'
import { createHelperPool, measureWith } from '../lib/helper-pool.ts'
import { findingsHelp, findingsOptions, maxFindingsPerKind, openFindingOutputs } from '../lib/findings-args.ts'

export const auditHelp = `Usage: mixscope audit <folder|url> [options]

Finds what is wrong with a speech dataset before training: splits, mixture vs the stats TSV,
length cut-offs and buckets, empty/fast/off-script transcripts, train/dev/test leakage, row groups
per rank; every row's audio checked cheaply (headers, frames and CRCs, no decoding: undecodable rows,
as the Audit view does); with --deep or --sample every sample decoded: lengths, rates, silence,
clipping, loudness, DC offset and duplicate audio.

${configHelp(20)}
  --deep            decode every row
  --no-audio-check  skip the cheap audio check (metadata only: audio_size and text, no audio bytes read)
  --sample F        decode a seeded random fraction F (0 < F ≤ 1) of each language's rows
  --seed N          seed of --sample (default 0)
  --tokenizer FILE  SentencePiece .model: unknown-token rate per language
  --summary TSV     language_distribution TSV (else the config's dataset_summary_path when it exists
                    here, else the lookup beside the root)
  --workers N       decoding workers (default: all cores; 0 decodes in this thread)
  --state FILE      resume the audio pass from FILE and save it there (also on Ctrl-C)
  --json            print {"schema_version": 1, "root", "summary", "finding_counts", "findings_omitted",
                    "findings", "config_findings", "tables", ...}
  --report FILE     write a readable report: .html (self-contained) or .md
  --flagged FILE    write flagged rows as JSONL of example ids (every row, whatever the cap below)
${findingsHelp(20)}
  --shard i/N       audit only shard i of N (row groups in dataset order, balanced by compressed bytes);
                    without it the shard comes from a Slurm array (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN
                    of SLURM_ARRAY_TASK_COUNT), MIXSCOPE_SHARD=i/N, or a Kubernetes Indexed Job
                    (JOB_COMPLETION_INDEX with MIXSCOPE_SHARDS=N)
  --out FILE        write this shard's part to FILE (without a shard: the whole dataset as part 0/1);
                    "mixscope merge parts… --out audit.json" gives what --json prints for the whole dataset
  -h, --help        show this help

Exit codes: 0 no error findings, 1 error findings (of the data, or of the config on this dataset: what the
training would refuse; counted, also when --json leaves them out), 2 usage or I/O error, or a config that cannot be built as
given (unknown preset or key, bad value: findings printed). A shard exits 0 once its part is written: its
findings are judged by the merge.
`

async function stateOf(path: string | undefined): Promise<AuditState | undefined> {
  if (!path) return undefined
  try {
    return JSON.parse(await readFile(path, 'utf8')) as AuditState
  } catch {
    return createAuditState()
  }
}

const args = defineCommand({
  name: 'audit', help: auditHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: {
    ...configOptions, deep: { type: 'boolean' }, 'no-audio-check': { type: 'boolean' }, sample: { type: 'string' }, seed: { type: 'string' }, tokenizer: { type: 'string' },
    summary: { type: 'string' }, workers: { type: 'string' }, state: { type: 'string' },
    json: { type: 'boolean' }, report: { type: 'string' }, flagged: { type: 'string' }, shard: { type: 'string' }, out: { type: 'string' },
    ...findingsOptions,
  },
})

/** Runs `mixscope audit`. */
export async function runAudit(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const sample = numberOption('audit', '--sample', values.sample, 'a fraction in (0, 1]', (f) => f > 0 && f <= 1)
  const seed = integerOption('audit', '--seed', values.seed, { min: 0 }) ?? 0
  const workers = integerOption('audit', '--workers', values.workers, { min: 0 })
  matchOption('audit', '--report', values.report, /\.(html?|md)$/i, 'a file name ending in .html or .md')
  const maxPerKind = maxFindingsPerKind('audit', values['max-findings-per-kind'])
  const found = shardFrom(values.shard, process.env)
  const shard: ShardSpec | null = found ?? (values.out !== undefined ? wholeShard : null)
  if (shard) {
    const what = found ? `shard ${describeShard(found)}` : '--out'
    if (values.out === undefined) throw new UsageError(`audit: ${what} writes a part: give --out FILE (then "mixscope merge" the parts)`)
    const whole = ['report', 'flagged', 'json', 'findings', 'max-findings-per-kind'].filter((k) => values[k as 'report' | 'flagged' | 'json' | 'findings' | 'max-findings-per-kind'] !== undefined)
    if (whole.length > 0) throw new UsageError(`audit: ${what} writes a part, not a report: --${whole.join(', --')} belong${whole.length > 1 ? '' : 's'} to "mixscope merge parts… --out FILE --report F.html"`)
  }
  const resolved = await resolveConfigArgs(values, io, 'audit')
  const config = resolved.config
  // without --preset, --config or --set there is no training config to check (the reference defaults are not one:
  // they fail on any dataset with a TSV): the audit says so instead of reporting their errors
  const configGiven = values.preset !== undefined || values.config !== undefined || (values.set?.length ?? 0) > 0
  const configFindings = (d: OpenDataset) => configGiven ? auditConfigFindings(d, resolved)
    : [finding('info', 'no-training-config', '', 'no training config given: the config checks the Audit view runs for its config are skipped; give --preset (the explorer uses ctc-finetune), --config recipe.yaml or --set')]
  const model = values.tokenizer
    ? new Uint8Array(await readFile(values.tokenizer).catch((e: Error) => { throw new MixscopeError(`tokenizer: cannot read ${values.tokenizer} (${e.message})`, 'not-found', 'io') }))
    : undefined
  const tokenizer = model ? await loadSpmTokenizer(model) : undefined
  const summary = await resolveSummary(values.summary, config, resolved.recipePath, resolved.summaryPathFrom)
  if (summary.note) io.stderr(`mixscope audit: ${summary.note}\n`)
  // the audit reads the data itself (docs/conventions.md "Dataset index"); a shard of a local root cuts its range from
  // a fresh index when there is one (every footer otherwise), then reads its own files only
  let dataset = shard && !isUrl(positionals[0]) ? await openDatasetArg(positionals[0], { summary: summary.path }) : null
  if (dataset) {
    const cut = shardCutFromIndex(dataset)
    if (cut) {
      dataset = cut.dataset
      const shown = cut.notes.slice(0, 5)
      for (const f of shown) io.stderr(`mixscope audit: ${f.severity}: ${f.kind}: ${f.message}\n`)
      if (cut.notes.length > shown.length) io.stderr(`mixscope audit: … and ${cut.notes.length - shown.length} more ${cut.notes[0].kind} findings about the index\n`)
    } else {
      io.stderr(`mixscope audit: the dataset index lacks row-group sizes (an older index): every footer is read; rewrite it with "mixscope index <root>"\n`)
      dataset.source.close?.()
      dataset = null
    }
  }
  dataset ??= await openDatasetArg(positionals[0], { summary: summary.path, open: { useIndex: false } })
  if (!values.json) io.stderr(`mixscope audit: ${summaryLine(dataset)}\n`)
  const state = await stateOf(values.state)
  const audio = !!values.deep || sample !== undefined
  const pool = audio && workers !== 0 ? createHelperPool(workers) : null
  const controller = new AbortController()
  const onSigint = () => controller.abort(new MixscopeError('audit: interrupted', 'interrupted', 'io'))
  process.once('SIGINT', onSigint)
  let report: AuditReport
  // every finding and every flagged row stream to their files as the report is assembled (the report keeps the cap)
  const outputs = shard ? null : await openFindingOutputs({ findings: values.findings, flagged: values.flagged })
  try {
    const options = { config, deep: values.deep, quick: !values['no-audio-check'], sample, seed, tokenizer, state, measure: pool ? measureWith(pool) : undefined, concurrency: pool ? pool.size * 2 : 1, signal: controller.signal }
    if (shard) {
      const part = await auditShard(dataset, shard, { ...options, configFindings: configFindings(dataset), tokenizerId: model ? contentHash(model) : undefined })
      // written whole or not at all: a task killed while writing leaves no part that looks complete
      const out = values.out!
      await mkdir(dirname(out), { recursive: true })
      await writeFileAtomic(out, stringifyPart(part))
      const rows = part.rows.audio_size.length
      io.stderr(`mixscope audit: shard ${describeShard(shard)}: row groups ${part.range.first}–${part.range.end} of ${part.dataset.units}, ${rows} rows` +
        `${part.audio ? `, ${part.audio.measures.length} decoded` : ''}${dataset.described.fromIndex > 0 ? `, cut from ${dataset.described.index} (${dataset.described.read} footers read)` : ''} in ${part.timing.seconds.toFixed(1)} s → ${out}\n`)
      return exitCodes.ok
    }
    // the row records wait on disk for their partition's checks: memory stays at one partition's rows
    // the findings wait on disk too, a file's at a time: the report holds at most --max-findings-per-kind of a kind
    const whole = { ...options, spill: () => createFileSpill(), maxFindingsPerKind: maxPerKind, onFindings: outputs?.onFindings }
    report = configGiven ? await auditWithConfig(dataset, resolved, whole) : await auditDataset(dataset, { ...whole, configFindings: configFindings(dataset) })
    await outputs?.commit()
  } catch (error) {
    await outputs?.abort()
    throw error
  } finally {
    process.off('SIGINT', onSigint)
    await pool?.close()
    tokenizer?.dispose()
    if (values.state && state) await writeFile(values.state, JSON.stringify(state))
  }
  if (values.report) await writeFile(values.report, /\.md$/i.test(values.report) ? auditReportMarkdown(report) : auditReportHtml(report))
  io.stdout(values.json ? formatJson(report) : auditSummaryText(report, values.findings))
  return auditHasErrors(report) ? exitCodes.findings : exitCodes.ok
}
