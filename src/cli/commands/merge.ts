/**
 * `mixscope merge <part files or folders…> --out FILE`: the parts of a sharded run (docs/conventions.md "Sharded
 * jobs") into the output the unsharded command gives, byte for byte apart from a top-level `"timing"`. The kind
 * comes from the parts: an audit's parts give the `audit --json` document (`--report`, `--flagged` as `audit`
 * writes them), a dataprep's parts give the prepared dataset folder. Missing, repeated or mismatched parts stop the
 * merge with an error naming them.
 */
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { AuditMerger } from '../../engine/audit/partial/merge.ts'
import type { AuditPart } from '../../engine/audit/partial/types.ts'
import { flaggedRowsJsonl } from '../../engine/audit/flagged.ts'
import { auditReportHtml, auditReportMarkdown } from '../../engine/audit/report.ts'
import { MixscopeError } from '../../engine/findings.ts'
import { checkHeader, parsePart } from '../../engine/shard/part.ts'
import { exitCodes, formatJson, UsageError, type CliIo } from '../io.ts'
import { summaryText } from './audit.ts'

export const mergeHelp = `Usage: mixscope merge <part files or folders…> --out FILE [options]

Merges the parts of a sharded run ("mixscope audit --shard i/N --out part-i.json", or a shard taken from
a Slurm array or a Kubernetes Indexed Job) into what the command gives on the whole dataset, byte for
byte apart from the top-level "timing". The kind is taken from the parts. A folder stands for every file
in it. Every shard 0…N−1 must be there once, from the same dataset and settings.

  --out FILE        audit: the merged "audit --json" document
  --report FILE     audit: the readable report, .html (self-contained) or .md, as "audit --report"
  --flagged FILE    audit: flagged rows as JSONL, as "audit --flagged"
  --json            print the merged document instead of the summary table
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

/** Writes `text` to `path` whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  await writeFile(`${path}.partial`, text)
  await rename(`${path}.partial`, path)
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

  const audit = new AuditMerger()
  let kind: string | null = null
  for (const file of files) {
    const bytes = await readFile(file).catch((e: Error) => { throw new MixscopeError(`merge: cannot read ${file} (${e.message})`, 'not-found', 'io') })
    const header = checkHeader(file, parsePart(file, bytes.toString('utf8')))
    if (kind !== null && header.kind !== kind) throw new MixscopeError(`merge: parts of different kinds: ${files[0]} is ${kind}, but ${file} is ${header.kind}`, 'bad-parts', 'usage')
    kind = header.kind
    if (header.kind === 'audit') audit.add(file, header as AuditPart)
    else throw new MixscopeError(`merge: ${file} is a ${header.kind} part, which this mixscope cannot merge`, 'bad-parts', 'usage')
  }

  const report = audit.finish()
  const shardSeconds = audit.shardSeconds()
  const timing = {
    shards: shardSeconds.length, shard_seconds: shardSeconds,
    shard_seconds_max: Math.max(...shardSeconds), shard_seconds_sum: shardSeconds.reduce((a, b) => a + b, 0),
    merge_seconds: (performance.now() - started) / 1000,
  }
  const document = formatJson({ ...report, timing })
  await writeWhole(values.out, document)
  if (values.report) await writeWhole(values.report, /\.md$/i.test(values.report) ? auditReportMarkdown(report) : auditReportHtml(report))
  if (values.flagged) await writeWhole(values.flagged, flaggedRowsJsonl(report.findings))
  io.stdout(values.json ? document : summaryText(report))
  io.stderr(`mixscope merge: ${files.length} audit parts → ${values.out} in ${timing.merge_seconds.toFixed(1)} s\n`)
  return report.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
