/**
 * Discovery (docs/conventions.md "Discovery"; docs/reference-pipeline.md §2): list the root, drop ignored paths, sort by UTF-8 bytes, parse hive
 * keys, read every footer once, find the stats TSV. One bad file never stops the others from being read.
 */
import { compareUtf8, finding, sortFindings, type Finding, MixscopeError } from '../findings.ts'
import type { Dataset, DatasetFile, RunOptions } from '../dataset.ts'
import type { DatasetSource, SourceFile } from '../source/source.ts'
import { isIgnoredPath, manifestName } from '../source/manifest.ts'
import { ChunkCache } from '../parquet/chunk-cache.ts'
import { FooterSizer, readFooter, rowGroupsOf } from '../parquet/footer.ts'
import { ParquetReader } from '../parquet/reader.ts'
import { describeColumns } from '../parquet/schema.ts'
import { hiveKeysOf, partitionIdOf } from './hive.ts'
import { findSummaryTsv, isSummaryName, parseSummaryTsv } from './summary-tsv.ts'
import { mapLimit } from '../util/map-limit.ts'

/** Keys the reference needs as folder keys (docs/reference-pipeline.md §2). */
export const requiredKeys = ['split', 'language', 'corpus'] as const

/** A dataset plus the reader that keeps its footers and chunk cache (lives in the worker / the CLI process). */
export interface OpenDataset extends Dataset {
  parquet: ParquetReader
}

/** Options of `openDataset`. */
export interface OpenOptions extends RunOptions {
  /** A TSV the user picked (`--summary`, or a file in the UI): wins over the lookup. */
  summary?: { path: string; bytes: Uint8Array }
  /** Footers read at once (default 8). */
  concurrency?: number
  /** Bytes of column chunks kept for re-reads (default 64 MiB). */
  cacheBytes?: number
}

/** True for a file discovery treats as parquet. */
export function isParquetName(path: string): boolean {
  return /\.(parquet|parq|pq)$/i.test(path)
}

/**
 * Lists, classifies and reads the footers of a dataset.
 * @throws MixscopeError (`empty-dataset`, exit class io) when the root holds no file at all
 */
export async function openDataset(source: DatasetSource, options: OpenOptions = {}): Promise<OpenDataset> {
  const { signal, onProgress } = options
  const progress = (phase: 'listing' | 'footers', done: number, total: number | null) =>
    onProgress?.({ phase, done, total, requests: source.counters.requests, bytes: source.counters.bytes })
  progress('listing', 0, null)
  const listed = await source.list({ signal })
  progress('listing', listed.length, listed.length)
  if (listed.length === 0) throw new MixscopeError(`dataset: ${source.root} holds no files`, 'empty-dataset', 'io')

  const findings: Finding[] = []
  const ignored: string[] = []
  const stray: string[] = []
  const parquet: SourceFile[] = []
  for (const file of [...listed].sort((a, b) => compareUtf8(a.path, b.path))) {
    if (isIgnoredPath(file.path)) {
      ignored.push(file.path)
      if (file.path !== manifestName) {
        findings.push(finding('info', 'ignored-file', file.path, `${file.path} is ignored: a path component below the root starts with "." or "_" (as pyarrow ignores it)`))
      }
    } else if (isParquetName(file.path)) {
      parquet.push(file)
    } else if (!file.path.includes('/') && isSummaryName(file.path)) {
      // the stats TSV at the root: read below
    } else {
      stray.push(file.path)
      findings.push(finding('error', 'stray-file', file.path,
        `${file.path} is not a parquet file; the reference reads every non-ignored file under the root as parquet and fails on it (rename it with a leading "_" or move it out)`))
    }
  }

  const parquetReader = new ParquetReader(source, new ChunkCache(options.cacheBytes))
  const sizer = new FooterSizer()
  let done = 0
  progress('footers', 0, parquet.length)
  const files: DatasetFile[] = await mapLimit(parquet, options.concurrency ?? 8, async (file) => {
    const keys = hiveKeysOf(file.path)
    const base: DatasetFile = { path: file.path, size: file.size, keys, partition: partitionIdOf(keys), rowGroups: [], rows: 0, columns: [], readable: false }
    try {
      const metadata = await readFooter(source, file.path, file.size, sizer, { signal }, parquetReader.cache)
      parquetReader.setFooter(file.path, metadata)
      base.rowGroups = rowGroupsOf(metadata)
      base.rows = base.rowGroups.reduce((n, g) => n + g.rows, 0)
      base.columns = describeColumns(metadata)
      base.readable = true
    } catch (error) {
      if (signal?.aborted) throw error
      findings.push(finding('error', 'unreadable-parquet', file.path, (error as Error).message))
    }
    progress('footers', ++done, parquet.length)
    return base
  })

  let summary = null
  const picked = options.summary ?? await findSummaryTsv(source, listed, { signal })
  if (picked) {
    const parsed = parseSummaryTsv(new TextDecoder().decode(picked.bytes), picked.path)
    summary = parsed.summary
    findings.push(...parsed.findings)
  }

  findings.push(...keyFindings(files))
  if (source.listFolders) findings.push(...emptyFolderFindings(await source.listFolders({ signal }), listed))
  if (files.length === 0) {
    findings.push(finding('error', 'no-parquet-files', '', `no parquet files found under ${source.root} (${listed.length} files listed, ${ignored.length} ignored)`))
  }
  return { root: source.root, source, files, ignored, stray, summary, findings: sortFindings(findings), parquet: parquetReader }
}

/**
 * `empty-folder` warnings: the outermost non-ignored folders below the root that hold no parquet file anywhere
 * beneath them (empty, or only ignored or stray files). pyarrow finds no fragment there, so a partition the layout
 * promises (e.g. `split=dev/language=en/`) contributes no data; the finding says what the folder does hold.
 */
export function emptyFolderFindings(folders: string[], listed: SourceFile[]): Finding[] {
  const holdsData = new Set<string>()
  const contents = new Map<string, { ignored: number; other: number }>()
  const ancestors = (path: string) => {
    const parts = path.split('/')
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))
  }
  for (const file of listed) {
    const data = !isIgnoredPath(file.path) && isParquetName(file.path)
    for (const folder of ancestors(file.path)) {
      if (data) holdsData.add(folder)
      else {
        const c = contents.get(folder) ?? { ignored: 0, other: 0 }
        if (isIgnoredPath(file.path)) c.ignored++
        else c.other++
        contents.set(folder, c)
      }
    }
  }
  const out: Finding[] = []
  for (const folder of [...folders].sort(compareUtf8)) {
    if (isIgnoredPath(folder) || holdsData.has(folder)) continue
    const parent = ancestors(folder).pop()
    // report only the outermost empty folder of an empty subtree
    if (parent !== undefined && !holdsData.has(parent)) continue
    const c = contents.get(folder) ?? { ignored: 0, other: 0 }
    const holds = c.ignored + c.other === 0 ? 'is empty'
      : `holds no parquet file (only ${[c.ignored ? `${c.ignored} ignored` : '', c.other ? `${c.other} non-parquet` : ''].filter(Boolean).join(' and ')} file${c.ignored + c.other > 1 ? 's' : ''})`
    const keys = Object.entries(hiveKeysOf(folder + '/x')).map(([k, v]) => `${k}=${v}`).join(', ')
    out.push(finding('warning', 'empty-folder', `${folder}/`,
      `${folder}/ ${holds}: the reference finds no data there${keys ? `, so ${keys} contributes no rows` : ''} (a partition the data prep should have written may be missing)`))
  }
  return out
}

/** Findings about hive keys: required keys missing from folders, several versions merged. */
function keyFindings(files: DatasetFile[]): Finding[] {
  const out: Finding[] = []
  for (const file of files) {
    const missing = requiredKeys.filter((k) => !(k in file.keys))
    if (missing.length === 0) continue
    const inColumns = missing.filter((k) => file.columns.some((c) => c.name === k))
    const absent = missing.filter((k) => !inColumns.includes(k))
    if (inColumns.length > 0) {
      out.push(finding('error', 'key-only-in-column', file.path,
        `${file.path} has ${inColumns.join(', ')} only as column${inColumns.length > 1 ? 's' : ''}, not as folder key${inColumns.length > 1 ? 's' : ''}: training needs them as folder keys (e.g. ${inColumns.map((k) => `${k}=…/`).join('')})`))
    }
    if (absent.length > 0) {
      out.push(finding('error', 'missing-partition-key', file.path,
        `${file.path} has no ${absent.join(', ')} key (no ${absent.map((k) => `${k}=…`).join(', ')} folder and no such column); training selects and groups on split, language and corpus`))
    }
  }
  const versions = [...new Set(files.map((f) => f.keys.version).filter((v) => v !== undefined))].sort(compareUtf8)
  if (versions.length > 1) {
    out.push(finding('warning', 'versions-merged', '',
      `${versions.length} versions under the root (version=${versions.join(', version=')}): the reference merges them into the same (language, corpus) partitions; open one version=N folder to train on one`))
  }
  return out
}
