/**
 * `mixscope index <folder|url> [--out FILE] [--full] [--json]`: writes the dataset index; with `--shard i/N` (or a
 * shard from the environment, docs/conventions.md "Sharded jobs") and `--out FILE`, one shard's part, which
 * `mixscope merge` turns into the same index file.
 */
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  buildIndexRows,
  describeShard,
  indexFileName,
  indexFindings,
  indexShard,
  shardFrom,
  stringifyPart,
  writeDatasetIndex,
  writeFileAtomic,
} from '../../engine/node.ts'
import type { Finding } from '../../engine/core/findings.ts'
import { isUrl, openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, parseCommand, UsageError } from '../lib/args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const indexHelp = `Usage: mixscope index <folder|url> [--out FILE] [--full] [--json] [--shard i/N]

Writes <folder>/${indexFileName}, the dataset index: one row per (file, row group) with
what opening, stats, the explorer's Overview and batch planning need (sizes, mtimes, rows,
Σ/min/max audio_size, footer errors, partition keys, columns), as a plain parquet file DuckDB,
pyarrow or polars can query. With it, opening the dataset reads no footer and stats read no
audio_size; an HTTP root with an index needs no _manifest.json. The leading "_" keeps training
from reading it. A file whose size or mtime has changed since is read again (a stale-index
warning), so rerun this after changing the data.

  --out FILE       write it here instead (required for a URL)
  --full           read every file again, even those the existing index still describes
  --json           print {"schema_version": 1, "root", "index", "files", "row_groups", "rows", "findings"}
  --shard i/N      build only shard i of N (row groups in dataset order, balanced by compressed
                   bytes; default from SLURM_ARRAY_TASK_ID, MIXSCOPE_SHARD or JOB_COMPLETION_INDEX
                   with MIXSCOPE_SHARDS) into the part --out FILE; "mixscope merge parts…
                   --out <root>/${indexFileName}" writes the index "mixscope index" writes
  -h, --help       show this help

Exit codes: 0 written, 1 written with error findings (unreadable files are recorded in it),
2 usage or I/O error. A shard exits 0 once its part is written; the merge exits as the unsharded index.
`

const args = defineCommand({
  name: 'index', help: indexHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: { out: { type: 'string' }, full: { type: 'boolean' }, json: { type: 'boolean' }, shard: { type: 'string' } },
})

/** Runs `mixscope index`. */
export async function runIndex(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const root = positionals[0]
  if (isUrl(root) && !values.out) throw new UsageError('index: a URL dataset needs --out FILE (the index is written locally, then served beside the data)')
  if (/\.(parquet|parq|pq)$/i.test(root) && !values.out) throw new UsageError(`index: ${root} is one file; an index describes a dataset folder`)
  const shard = shardFrom(values.shard, process.env)
  if (shard && !values.out) throw new UsageError(`index: shard ${describeShard(shard)} writes a part: give --out FILE (then "mixscope merge" the parts)`)
  if (shard && values.json) throw new UsageError(`index: shard ${describeShard(shard)} writes a part: --json belongs to "mixscope merge parts… --out FILE --json"`)
  const started = performance.now()
  if (shard) {
    // every shard describes every file (the cut is made from them; a local root's previous index describes the files
    // it still matches), then reads the facts of its own files only
    const dataset = await openDatasetArg(root, { open: { useIndex: !values.full && !isUrl(root) } })
    const part = await indexShard(dataset, shard)
    dataset.source.close?.()
    const out = values.out!
    await mkdir(dirname(out), { recursive: true })
    await writeFileAtomic(out, stringifyPart(part))
    io.stderr(`mixscope index: shard ${describeShard(shard)}: units ${part.range.first}–${part.range.end} of ${part.dataset.units}, ` +
      `${part.rows.length} index rows in ${part.timing.seconds.toFixed(1)} s → ${out}\n`)
    return exitCodes.ok
  }
  // an existing index describes the files it still matches (size and mtime): only the others are read; a URL
  // gives no mtime, so it is always read whole
  const dataset = await openDatasetArg(root, { open: { facts: true, useIndex: !values.full && !isUrl(root) } })
  const rows = await buildIndexRows(dataset)
  const bytes = writeDatasetIndex(rows)
  const out = values.out ?? join(root, indexFileName)
  await writeFileAtomic(out, bytes)
  dataset.source.close?.()
  // what the index records as problems (unreadable files), and whether it was reused
  const findings: Finding[] = indexFindings(dataset)
  const rowGroups = rows.filter((r) => r.row_group !== null).length
  const totalRows = rows.reduce((n, r) => n + (r.rows ?? 0), 0)
  const seconds = (performance.now() - started) / 1000
  if (values.json) {
    io.stdout(formatJson({ schema_version: 1, root: dataset.root, index: out, files: dataset.files.length + dataset.otherFiles.length, row_groups: rowGroups, rows: totalRows, findings }))
  }
  io.stderr(`wrote ${out}: ${dataset.files.length} parquet files (${dataset.described.fromIndex} from the previous index, ` +
    `${dataset.described.read} read), ${rowGroups} row groups, ${totalRows} rows, ${bytes.length} bytes, in ${seconds.toFixed(1)} s\n`)
  for (const f of findings) if (!values.json) io.stderr(`${f.severity}: ${f.kind}: ${f.message}\n`)
  return findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
