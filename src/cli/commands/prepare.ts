/**
 * `mixscope prepare <input> --out <dir>`: converts a raw speech corpus (NeMo manifest, Common Voice release,
 * audiofolder, Hugging Face parquet) into the reference's mixture-parquet layout (docs/conventions.md "Dataprep").
 * Thin glue over src/engine/prepare: scan → plan → run, clips converted on a worker-thread pool.
 */
import { mkdir, stat } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import {
  createFsSink,
  createFsSource,
  describeShard,
  INPUT_FORMATS,
  type InputFormat,
  MixscopeError,
  nodePlanBudget,
  planPrepare,
  planShard,
  type PreparePlan,
  preparePlanSummary,
  type PreparePlanSummary,
  type ShardPlan,
  shardRows,
  prepareShard,
  processClipNode,
  streamClipNode,
  runPrepare,
  scanInput,
  shardFrom,
  SKIP_REASONS,
  SKIPPED_FILE,
} from '../../engine/node.ts'
import { choiceOption, defineCommand, integerOption, matchOption, parseCommand, UsageError } from '../lib/args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'
import { createHelperPool, processClipWith } from '../lib/helper-pool.ts'

export const prepareHelp = `Usage: mixscope prepare <input> --out <dir> [options]

Converts a speech corpus into the Omnilingual ASR mixture-parquet layout, as the reference dataprep does:
text normalized (text_normalize), audio decoded, mixed to mono, resampled to 16 kHz (torchaudio's
resampler), encoded as 16-bit FLAC (or Ogg Vorbis), rows shuffled (seed 123, buffer 10000), written to
<dir>/version=<V>/corpus=…/split=…/language=…/part-<k>.parquet (row groups of 100, files of 10,000 rows)
with <dir>/language_distribution_<V>.tsv beside it. Rows that cannot be converted are skipped, counted per
reason and listed in <dir>/${SKIPPED_FILE}. A cancelled run resumes after its last finished file.

<input> is a folder (or one manifest / parquet / tar file of it):
  nemo          JSON Lines manifests (.json, .jsonl, .gz): audio_filepath|audio_filename, text,
                [duration, offset, lang|language, split, corpus]; paths beside the manifest, else
                from the working directory (NeMo's rule)
  nemo-tarred   tarred_audio_manifest.json + audio_<shard_id>.tar (NeMo's tarred datasets)
  commonvoice   a Common Voice release folder: clips/, train.tsv, dev.tsv, test.tsv (path, sentence, locale)
  audiofolder   metadata.csv|.jsonl|.parquet (file_name or *_file_name + a transcript column), split folders
  hf-parquet    parquet files with an audio struct (bytes, path) and a transcript column
  lhotse        *cuts*.jsonl[.gz] (or .json), or *recordings* + *supervisions*.jsonl[.gz] of one name
  webdataset    .tar shards: key.flac|wav|mp3|ogg|opus + key.txt or key.json

  --out DIR              output folder (required)
  --input-format F       ${INPUT_FORMATS.join('|')} (guessed from the folder when absent)
  --corpus NAME          corpus of every row (default: the row's own "corpus" field or column; required
                         when a row declares none)
  --language CODE        language of every row (xxx_Script, or an ISO 639 / BCP-47 code that maps to one)
  --language FROM=TO     decide one input code (e.g. mn=khk_Cyrl); repeatable
  --split NAME           split of every row: train, dev or test (training, validation, valid, val, eval,
                         evaluation, development, testing name one of them); default: from the input
  --split-map FROM=TO    write the input split FROM as TO (e.g. 9_hours=train); repeatable. Rows of any
                         other split name are skipped (unknown-split), never guessed into train
  --audio-format F       flac (16-bit, default) or ogg (Vorbis)
  --text-column NAME     transcript column (audiofolder, hf-parquet)
  --no-normalize-text    keep transcripts as they are
  --version V            the version=<V> folder (default 0)
  --dry-run              print what would be written and skipped; write nothing
  --fresh                convert everything again, ignoring finished files of an earlier run
  --jobs N               worker threads converting clips (default: all cores)
  --json                 print the report as JSON
  --shard i/N            plan and convert only shard i of N (an equal cut of the input rows in reading
                         order) into the part --out FILE (with --dry-run: print that shard's plan); without it
                         the shard comes from a Slurm array, MIXSCOPE_SHARD or a Kubernetes Indexed Job;
                         "mixscope merge parts… --out DIR" writes the dataset
  -h, --help             show this help

Exit codes: 0 written (skipped rows are listed, not errors), 1 nothing could be written,
2 usage or I/O error, or input language codes that need a --language decision.
`

const args = defineCommand({
  name: 'prepare', help: prepareHelp, positionals: { count: 1, what: 'one input folder or file' },
  options: {
    out: { type: 'string' }, 'input-format': { type: 'string' }, corpus: { type: 'string' }, language: { type: 'string', multiple: true },
    split: { type: 'string' }, 'split-map': { type: 'string', multiple: true }, 'audio-format': { type: 'string' }, 'text-column': { type: 'string' }, 'no-normalize-text': { type: 'boolean' },
    version: { type: 'string' }, 'dry-run': { type: 'boolean' }, fresh: { type: 'boolean' }, jobs: { type: 'string' }, json: { type: 'boolean' },
    shard: { type: 'string' },
  },
})

/** Runs `mixscope prepare`. */
export async function runPrepareCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  if (!values.out && !values['dry-run']) throw new UsageError('prepare: --out DIR is required')
  const format: InputFormat | undefined = choiceOption('prepare', '--input-format', values['input-format'], INPUT_FORMATS)
  const audioFormat = choiceOption('prepare', '--audio-format', values['audio-format'], ['flac', 'ogg'] as const) ?? 'flac'
  const version = matchOption('prepare', '--version', values.version, /^[\w.-]+$/, 'a folder-safe name') ?? '0'
  const jobs = integerOption('prepare', '--jobs', values.jobs, { min: 0, max: 256 })

  const arg = positionals[0]
  const info = await stat(arg).catch(() => null)
  if (!info) throw new MixscopeError(`prepare: ${arg} does not exist`, 'not-found', 'io')
  const root = info.isFile() ? dirname(resolve(arg)) : resolve(arg)
  const entry = info.isFile() ? basename(arg) : undefined
  const source = await createFsSource(root)
  const options = {
    inputFormat: format, corpus: values.corpus, language: values.language, split: values.split, splitMap: values['split-map'],
    audioFormat, textColumn: values['text-column'], normalizeText: !values['no-normalize-text'], version,
  }
  const shard = shardFrom(values.shard, process.env)
  const out = values.out
  if (shard && !values['dry-run']) {
    if ((await stat(out!).catch(() => null))?.isDirectory()) throw new UsageError(`shard ${describeShard(shard)} writes its part to a file, but --out ${out} is a folder`)
  }
  let plan: PreparePlan
  let input: Awaited<ReturnType<typeof scanInput>>['input'] | undefined
  let sharded: ShardPlan | null = null
  const budget = nodePlanBudget()
  try {
    // rows of layouts other than NeMo's wait in a log of bytes, spilled past its own 256 MiB (row-log.ts)
    const scanned = await scanInput(source, { inputFormat: options.inputFormat, entry, textColumn: options.textColumn, paths: { root: toSlashes(root), workingDir: toSlashes(process.cwd()) }, budget: nodePlanBudget() })
    input = scanned.input
    try {
      // a manifest is read while it is planned, row by row; a shard plans only its cut of the rows
      if (shard && !values['dry-run']) plan = (sharded = await planShard(scanned.scan, input, options, shard, budget)).plan
      else if (shard) plan = await planPrepare(scanned.scan, input, options, { keepRows: false, range: await shardRange(scanned.scan, shard) })
      else plan = await planPrepare(scanned.scan, input, options, { keepRows: !values['dry-run'], budget })
    } finally {
      await scanned.scan.close()
    }
  } catch (error) {
    if (error instanceof MixscopeError) throw error
    throw new MixscopeError((error as Error).message, 'prepare-input', 'io')
  }
  try {
    return await afterPlan(plan, sharded)
  } finally {
    await plan.close()
  }

  async function afterPlan(plan: PreparePlan, sharded: ShardPlan | null): Promise<number> {
    const ambiguous = plan.languages.filter((l) => l.output === null && l.candidates.length)
    if (ambiguous.length) {
      io.stderr(ambiguous.map((l) => `mixscope prepare: language "${l.input}" (${l.rows} rows) is ambiguous: ${l.note}\n  decide with --language ${l.input}=${l.candidates[0] ?? 'xxx_Script'}\n`).join(''))
      return exitCodes.usage
    }
    if (values['dry-run']) {
      const summary = await preparePlanSummary(plan)
      const range = shard && plan.range ? { shard: { index: shard.index, count: shard.count, first: plan.range.first, end: plan.range.end, of: plan.range.of } } : {}
      io.stdout(values.json ? formatJson({ schema_version: 1, root: arg, ...range, plan: summary }) : describePlan(plan, summary))
      return exitCodes.ok
    }
    const pool = jobs === 0 ? null : createHelperPool(jobs)
    const processClip = pool ? processClipWith(pool) : processClipNode
    try {
      if (shard && sharded) {
        await mkdir(dirname(resolve(out!)), { recursive: true })
        const sink = createFsSink(dirname(resolve(out!)))
        const part = await prepareShard(shard, {
          planned: sharded, input: input!, root: arg, processClip, streamClip: streamClipNode, concurrency: (pool?.size ?? 1) * 2,
          out: await sink.create(basename(out!)), createdBy: 'mixscope prepare (hyparquet-writer)', budget: nodePlanBudget(64 * 1024 * 1024),
        })
        const { count, failed } = part.sections.clips
        io.stderr(`mixscope prepare: shard ${describeShard(shard)}: input rows ${part.range.first}–${part.range.end} of ${part.dataset.units}, ` +
          `${count - failed} converted, ${failed} failed, in ${part.timing.seconds.toFixed(1)} s → ${out}\n`)
        if (values.json) io.stdout(formatJson({ schema_version: 1, root: arg, shard: part.shard, part: out, range: part.range, converted: count - failed, failed, timing: part.timing }))
        return exitCodes.ok
      }
      const started = performance.now()
      let last = 0
      const report = await runPrepare({
        plan, input, sink: createFsSink(out!), processClip, streamClip: streamClipNode, concurrency: (pool?.size ?? 1) * 2, fresh: values.fresh,
        createdBy: 'mixscope prepare (hyparquet-writer)',
        onProgress: (p) => {
          const now = performance.now()
          if (values.json || now - last < 1000) return
          last = now
          io.stderr(`\r${p.rowsDone}/${p.rowsTotal} rows, ${(p.samplesWritten / 16000 / 3600).toFixed(2)} h, ${p.filesWritten} files${p.rowsResumed ? ` (${p.rowsResumed} rows from an earlier run)` : ''}`)
        },
      })
      if (!values.json && last) io.stderr('\n')
      const seconds = (performance.now() - started) / 1000
      if (values.json) io.stdout(formatJson({ ...report, root: `${out}/${report.root}`, timing: { seconds } }))
      else {
        const skipped = SKIP_REASONS.filter((r) => report.skipped[r]).map((r) => `${report.skipped[r]} ${r}`)
        io.stdout([
          `wrote ${report.rows_written} rows (${report.hours_written.toFixed(3)} h) in ${report.files.length} files to ${out}/${report.root} in ${seconds.toFixed(1)} s`,
          `stats: ${out}/${report.stats_tsv}`,
          skipped.length ? `skipped: ${skipped.join(', ')} (listed in ${out}/${SKIPPED_FILE})` : 'skipped: none',
          ...report.notes.map((n) => `note: ${n}`),
        ].join('\n') + '\n')
      }
      return report.rows_written > 0 ? exitCodes.ok : exitCodes.findings
    } finally {
      await pool?.close()
    }
  }
}

/** A local path with `/` separators (NeMo's path rules compare them as strings). */
function toSlashes(path: string): string {
  return path.replace(/\\/g, '/')
}

/** A shard's cut of the input rows (they are counted first). */
async function shardRange(scan: { count(): Promise<number> }, shard: { index: number; count: number }) {
  return shardRows(await scan.count(), shard.index, shard.count)
}

function describePlan(plan: PreparePlan, s: PreparePlanSummary): string {
  const lines = [plan.range
    ? `${plan.format}: input rows ${plan.range.first}–${plan.range.end} of ${plan.range.of} (this shard's ${plan.inputRows})`
    : `${plan.format}: ${plan.inputRows} input rows`]
  for (const p of s.partitions) lines.push(`  corpus=${p.corpus} split=${p.split} language=${p.language}: ${p.rows} rows`)
  for (const l of plan.languages) lines.push(`language "${l.input}" → ${l.output ?? '?'} (${l.rows} rows)${l.note ? `: ${l.note}` : ''}`)
  for (const r of SKIP_REASONS) if (s.skipped[r]) lines.push(`skipped ${r}: ${s.skipped[r]}`)
  for (const k of s.skipped_rows.slice(0, 20)) lines.push(`  ${k.message}`)
  if (plan.skipped.length > 20) lines.push(`  … ${plan.skipped.length - 20} more`)
  for (const n of plan.notes) lines.push(`note: ${n}`)
  return lines.join('\n') + '\n'
}
