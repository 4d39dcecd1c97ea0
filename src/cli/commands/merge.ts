/**
 * `mixscope merge <part files or folders…> --out FILE`: the parts of a sharded run (docs/conventions.md "Sharded
 * jobs") into the output the unsharded command gives, byte for byte apart from a top-level `"timing"`. The kind
 * comes from the parts: an audit's parts give the `audit --json` document (`--report`, `--flagged` as `audit`
 * writes them), a dataprep's parts give the prepared dataset folder, an index's parts the index file. The engine reads
 * and merges the parts by their kind (`readPartSet`, src/engine/merge); this command names the files and writes the
 * outputs. Missing, repeated or mismatched parts stop the merge with an error naming them.
 */
import { open, readdir, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import {
  auditHasErrors,
  auditReportHtml,
  auditReportMarkdown,
  createFileSpill,
  createFsSink,
  type MergedIndex,
  MixscopeError,
  nodePlanBudget,
  type PartBytes,
  type PartSet,
  type PrepareReport,
  readPartSet,
  SKIP_REASONS,
  writeAtomic,
  writeFileAtomic,
} from '../../engine/node.ts'
import { defineCommand, matchOption, parseCommand, UsageError } from '../lib/args.ts'
import { auditSummaryText } from '../lib/audit-summary.ts'
import { findingsHelp, findingsOptions, maxFindingsPerKind, openFindingOutputs } from '../lib/findings-args.ts'
import { exitCodes, formatJson, writeJson, type CliIo } from '../lib/io.ts'

export const mergeHelp = `Usage: mixscope merge <part files or folders…> --out FILE [options]

Merges the parts of a sharded run ("mixscope audit --shard i/N --out part-i.json", or a shard taken from
a Slurm array or a Kubernetes Indexed Job) into what the command gives on the whole dataset, byte for
byte apart from the top-level "timing". The kind is taken from the parts. A folder stands for every file
in it. Every shard 0…N−1 must be there once, from the same dataset and settings.

  --out FILE        audit: the merged "audit --json" document; prepare: the dataset folder, as
                    "prepare --out DIR" writes it; index: the index file, as "mixscope index"
                    writes it (give <root>/_mixscope_index.parquet to have open and stats use it)
  --report FILE     audit: the readable report, .html (self-contained) or .md, as "audit --report"
  --flagged FILE    audit: flagged rows as JSONL, as "audit --flagged"
${findingsHelp(20)} (audit, as "audit")
  --json            print the merged document instead of the summary table (index: what
                    "index --json" prints, and "timing")
  -h, --help        show this help

Exit codes: as the unsharded command (audit: 0 no error findings, 1 error findings); 2 for a usage or I/O
error, or parts that are missing, repeated or from another dataset or config (named in the message).
`

/** Files named by the arguments: files as given, folders as their files (sorted by name). */
async function partFiles(args: readonly string[]): Promise<string[]> {
  const out: string[] = []
  for (const arg of args) {
    const info = await stat(arg).catch(() => null)
    if (!info) throw new MixscopeError(`merge: ${arg} does not exist`, 'not-found', 'io')
    if (info.isDirectory()) {
      const names = (await readdir(arg)).filter((n) => !n.startsWith('.') && !n.endsWith('.partial')).sort()
      if (names.length === 0) throw new MixscopeError(`merge: the folder ${arg} holds no part files`, 'not-found', 'io')
      out.push(...names.map((n) => join(arg, n)))
    } else out.push(arg)
  }
  return out
}

/** Part files opened for random reads; at most `limit` stay open at once (a merge may read thousands of parts). */
class PartFiles {
  private readonly open = new Map<string, Promise<FileHandle>>()
  constructor(private readonly limit = 64) {}

  async read(path: string, offset: number, length: number): Promise<Uint8Array> {
    let handle = this.open.get(path)
    if (handle) {
      this.open.delete(path) // most recently used last
    } else {
      if (this.open.size >= this.limit) {
        const [oldest, h] = this.open.entries().next().value!
        this.open.delete(oldest)
        void h.then((x) => x.close())
      }
      handle = open(path, 'r')
    }
    this.open.set(path, handle)
    const out = new Uint8Array(length)
    const { bytesRead } = await (await handle).read(out, 0, length, offset)
    if (bytesRead !== length) throw new MixscopeError(`merge: ${path} is cut short (read ${bytesRead} of ${length} bytes at ${offset})`, 'bad-parts', 'io')
    return out
  }

  bytes(path: string, size: number): PartBytes {
    return { name: path, size, read: (offset, length) => this.read(path, offset, length) }
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map(async (h) => (await h).close()))
    this.open.clear()
  }
}

/** Writes `value` as `formatJson` would, streamed to `path` (whole or not at all). */
async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await writeAtomic(path, (write) => writeJson(value, write))
}

/** Runs `mixscope merge`. */
const args = defineCommand({
  name: 'merge', help: mergeHelp, positionals: { min: 1, what: 'the part files (or folders of them)' },
  options: { out: { type: 'string' }, report: { type: 'string' }, flagged: { type: 'string' }, json: { type: 'boolean' }, ...findingsOptions },
})

/** Runs `mixscope merge`. */
export async function runMerge(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  if (!values.out) throw new UsageError('merge: --out FILE is required')
  matchOption('merge', '--report', values.report, /\.(html?|md)$/i, 'a file name ending in .html or .md')
  const started = performance.now()
  const files = await partFiles(positionals)

  const handles = new PartFiles()
  let parts: PartSet | null = null
  try {
    const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size))
    // an audit's fingerprints wait on disk for the near-duplicate search: the merge holds none of them
    parts = await readPartSet(files.map((file, i) => handles.bytes(file, sizes[i])), { spill: () => createFileSpill() })
    if (parts.kind !== 'audit' && (values.report || values.flagged || values.findings || values['max-findings-per-kind'])) {
      throw new UsageError(`merge: --report, --flagged, --findings and --max-findings-per-kind are for audit parts; these are ${parts.kind} parts`)
    }
    const maxPerKind = maxFindingsPerKind('merge', values['max-findings-per-kind'])
    // every finding and flagged row streams to its file as the report is assembled; the report keeps the cap
    const outputs = parts.kind === 'audit' ? await openFindingOutputs({ findings: values.findings, flagged: values.flagged }) : null
    let merged
    try {
      merged = await parts.merge({
        sink: parts.kind === 'prepare' ? createFsSink(values.out) : undefined,
        budget: nodePlanBudget(),
        audit: { maxFindingsPerKind: maxPerKind, onFindings: outputs?.onFindings },
      })
      await outputs?.commit()
    } catch (error) {
      await outputs?.abort()
      throw error
    }
    if (merged.kind === 'prepare') return printPrepare(merged.report, parts.count, timingOf(merged.shardSeconds, started), values, io)
    if (merged.kind === 'index') return await writeIndex(merged.index, parts.count, timingOf(merged.shardSeconds, started), values, io)

    const report = merged.report
    const timing = timingOf(merged.shardSeconds, started)
    const document = { ...report, timing }
    await writeJsonFile(values.out, document)
    if (values.report) await writeFileAtomic(values.report, /\.md$/i.test(values.report) ? auditReportMarkdown(report) : auditReportHtml(report))
    if (values.json) await writeJson(document, (text) => io.stdout(text))
    else io.stdout(auditSummaryText(report, values.findings))
    io.stderr(`mixscope merge: ${files.length} audit parts → ${values.out} in ${timing.merge_seconds.toFixed(1)} s\n`)
    return auditHasErrors(report) ? exitCodes.findings : exitCodes.ok
  } finally {
    await parts?.close()
    await handles.close()
  }
}

/** The merged output's `"timing"`: the shards' own seconds and the merge's. */
type Timing = ReturnType<typeof timingOf>

function timingOf(shardSeconds: number[], started: number) {
  return {
    shards: shardSeconds.length, shard_seconds: shardSeconds,
    shard_seconds_max: Math.max(...shardSeconds), shard_seconds_sum: shardSeconds.reduce((a, b) => a + b, 0),
    merge_seconds: (performance.now() - started) / 1000,
  }
}

/** The merged index → the index file `mixscope index` writes; exit code and `--json` as `mixscope index`'s. */
async function writeIndex(merged: MergedIndex, count: number, timing: Timing, values: { out?: string; json?: boolean }, io: CliIo): Promise<number> {
  const out = values.out!
  await writeFileAtomic(out, merged.bytes)
  const rowGroups = merged.rows.filter((r) => r.row_group !== null).length
  const rows = merged.rows.reduce((n, r) => n + (r.rows ?? 0), 0)
  if (values.json) {
    io.stdout(formatJson({ schema_version: 1, root: merged.root, index: out, files: merged.files, row_groups: rowGroups, rows, findings: merged.findings, timing }))
  }
  io.stderr(`mixscope merge: ${count} index parts → ${out}: ${merged.files} files, ${rowGroups} row groups, ${rows} rows, ${merged.bytes.length} bytes, in ${timing.merge_seconds.toFixed(1)} s\n`)
  for (const f of merged.findings) if (!values.json) io.stderr(`${f.severity}: ${f.kind}: ${f.message}\n`)
  return merged.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}

/** A dataprep's merged report (the dataset folder `--out` is written); prints what `prepare` prints. */
function printPrepare(report: PrepareReport, count: number, timing: Timing, values: { out?: string; json?: boolean }, io: CliIo): number {
  const out = values.out!
  if (values.json) io.stdout(formatJson({ ...report, root: `${out}/${report.root}`, timing }))
  else {
    const skipped = SKIP_REASONS.filter((r) => report.skipped[r]).map((r) => `${report.skipped[r]} ${r}`)
    io.stdout([
      `wrote ${report.rows_written} rows (${report.hours_written.toFixed(3)} h) in ${report.files.length} files to ${out}/${report.root} from ${count} parts in ${timing.merge_seconds.toFixed(1)} s`,
      `stats: ${out}/${report.stats_tsv}`,
      skipped.length ? `skipped: ${skipped.join(', ')}` : 'skipped: none',
    ].join('\n') + '\n')
  }
  return report.rows_written > 0 ? exitCodes.ok : exitCodes.findings
}
