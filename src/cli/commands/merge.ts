/**
 * `mixscope merge <part files or folders…> --out FILE`: the parts of a sharded run (docs/conventions.md "Sharded
 * jobs") into the output the unsharded command gives, byte for byte apart from a top-level `"timing"`. The kind
 * comes from the parts: an audit's parts give the `audit --json` document (`--report`, `--flagged` as `audit`
 * writes them), a dataprep's parts give the prepared dataset folder. Missing, repeated or mismatched parts stop the
 * merge with an error naming them.
 */
import { open, readdir, stat, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  AuditMerger,
  auditReportHtml,
  auditReportMarkdown,
  checkHeader,
  createFsSink,
  flaggedRowsJsonl,
  type IndexPart,
  isBinaryPart,
  mergeIndexParts,
  mergePrepareParts,
  MixscopeError,
  type NamedPart,
  parsePart,
  type PartBytes,
  type PartHeader,
  partMagic,
  type PreparePart,
  readPartJson,
  SKIP_REASONS,
  writeAtomic,
  writeFileAtomic,
} from '../../engine/node.ts'
import type { AuditPart } from '../../engine/audit/partial/types.ts'
import { exitCodes, formatJson, UsageError, writeJson, type CliIo } from '../lib/io.ts'
import { summaryText } from './audit.ts'

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

/** Index parts → the index file `mixscope index` writes; exit code and `--json` as `mixscope index`'s. */
async function mergeIndex(parts: NamedPart<IndexPart>[], values: { out?: string; json?: boolean; report?: string; flagged?: string }, io: CliIo, started: number): Promise<number> {
  if (values.report || values.flagged) throw new UsageError('merge: --report and --flagged belong to audit parts, not index parts')
  const merged = mergeIndexParts(parts)
  const out = values.out!
  await writeFileAtomic(out, merged.bytes)
  const rowGroups = merged.rows.filter((r) => r.row_group !== null).length
  const rows = merged.rows.reduce((n, r) => n + (r.rows ?? 0), 0)
  const timing = timingOf(merged.shardSeconds, started)
  if (values.json) {
    io.stdout(formatJson({ schema_version: 1, root: merged.root, index: out, files: merged.files, row_groups: rowGroups, rows, findings: merged.findings, timing }))
  }
  io.stderr(`mixscope merge: ${parts.length} index parts → ${out}: ${merged.files} files, ${rowGroups} row groups, ${rows} rows, ${merged.bytes.length} bytes, in ${timing.merge_seconds.toFixed(1)} s\n`)
  for (const f of merged.findings) if (!values.json) io.stderr(`${f.severity}: ${f.kind}: ${f.message}\n`)
  return merged.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}

/** Runs `mixscope merge`. */
export async function runMerge(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    out: { type: 'string' }, report: { type: 'string' }, flagged: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  } })
  if (values.help) {
    io.stdout(mergeHelp)
    return exitCodes.ok
  }
  if (positionals.length === 0) throw new UsageError('merge: expected the part files (or folders of them)')
  if (!values.out) throw new UsageError('merge: --out FILE is required')
  if (values.report && !/\.(html?|md)$/i.test(values.report)) throw new UsageError(`merge: --report must end in .html or .md, got ${values.report}`)
  const started = performance.now()
  const files = await partFiles(positionals)

  const handles = new PartFiles()
  try {
    const audit = new AuditMerger()
    const prepare: { bytes: PartBytes; part: PreparePart }[] = []
    const index: NamedPart<IndexPart>[] = []
    let first: { file: string; kind: string } | null = null
    for (const file of files) {
      const size = (await stat(file)).size
      const tailLength = Math.min(size, 8 + partMagic.length)
      const tail = await handles.read(file, size - tailLength, tailLength)
      const bytes = handles.bytes(file, size)
      const value = isBinaryPart(tail) ? await readPartJson(bytes) : parsePart(file, new TextDecoder().decode(await bytes.read(0, size)))
      const header: PartHeader = checkHeader(file, value)
      if (first && header.kind !== first.kind) throw new MixscopeError(`merge: parts of different kinds: ${first.file} is ${first.kind}, but ${file} is ${header.kind}`, 'bad-parts', 'usage')
      first ??= { file, kind: header.kind }
      if (header.kind === 'audit') audit.add(file, header as AuditPart)
      else if (header.kind === 'prepare') prepare.push({ bytes, part: header as PreparePart })
      else index.push({ name: file, header: header as IndexPart })
    }
    if (first?.kind === 'prepare') return await mergePrepare(prepare, values, io, started)
    if (first?.kind === 'index') return await mergeIndex(index, values, io, started)

    const report = audit.finish()
    const shardSeconds = audit.shardSeconds()
    const timing = timingOf(shardSeconds, started)
    const document = { ...report, timing }
    await writeJsonFile(values.out, document)
    if (values.report) await writeFileAtomic(values.report, /\.md$/i.test(values.report) ? auditReportMarkdown(report) : auditReportHtml(report))
    if (values.flagged) await writeFileAtomic(values.flagged, flaggedRowsJsonl(report.findings))
    if (values.json) await writeJson(document, (text) => io.stdout(text))
    else io.stdout(summaryText(report))
    io.stderr(`mixscope merge: ${files.length} audit parts → ${values.out} in ${timing.merge_seconds.toFixed(1)} s\n`)
    return report.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
  } finally {
    await handles.close()
  }
}

/** The merged output's `"timing"`: the shards' own seconds and the merge's. */
function timingOf(shardSeconds: number[], started: number) {
  return {
    shards: shardSeconds.length, shard_seconds: shardSeconds,
    shard_seconds_max: Math.max(...shardSeconds), shard_seconds_sum: shardSeconds.reduce((a, b) => a + b, 0),
    merge_seconds: (performance.now() - started) / 1000,
  }
}

/** A dataprep's parts → the dataset folder `--out`; prints what `prepare` prints. */
async function mergePrepare(parts: { bytes: PartBytes; part: PreparePart }[], values: { out?: string; report?: string; flagged?: string; json?: boolean }, io: CliIo, started: number): Promise<number> {
  if (values.report || values.flagged) throw new UsageError('merge: --report and --flagged are for audit parts; these are prepare parts')
  const out = values.out!
  const report = await mergePrepareParts(parts, { sink: createFsSink(out) })
  const timing = timingOf([...parts].sort((a, b) => a.part.shard.index - b.part.shard.index).map((p) => p.part.timing.seconds), started)
  if (values.json) io.stdout(formatJson({ ...report, root: `${out}/${report.root}`, timing }))
  else {
    const skipped = SKIP_REASONS.filter((r) => report.skipped[r]).map((r) => `${report.skipped[r]} ${r}`)
    io.stdout([
      `wrote ${report.rows_written} rows (${report.hours_written.toFixed(3)} h) in ${report.files.length} files to ${out}/${report.root} from ${parts.length} parts in ${timing.merge_seconds.toFixed(1)} s`,
      `stats: ${out}/${report.stats_tsv}`,
      skipped.length ? `skipped: ${skipped.join(', ')}` : 'skipped: none',
    ].join('\n') + '\n')
  }
  return report.rows_written > 0 ? exitCodes.ok : exitCodes.findings
}
