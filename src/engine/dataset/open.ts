/**
 * Discovery (docs/conventions.md "Discovery"; docs/reference-pipeline.md §2): list the root, drop ignored paths, sort
 * by UTF-8 bytes, parse hive keys, read every footer once, find the stats TSV. One bad file never stops the others
 * from being read. With a dataset index (docs/conventions.md "Dataset index") the footers and `audio_size` facts of
 * the files it still describes come from it, and only the others are read (each a `stale-index` warning).
 */
import { compareUtf8, finding, sortFindings, type Finding, MixscopeError } from '../core/findings.ts'
import type { Dataset, DatasetEstimate, DatasetFile, RunOptions } from './dataset.ts'
import type { DatasetSource, SourceFile } from '../source/source.ts'
import { isIgnoredPath, manifestName } from '../source/manifest.ts'
import { ChunkCache } from '../parquet/chunk-cache.ts'
import { readFooter, rowGroupsOf } from '../parquet/footer.ts'
import { ParquetReader } from '../parquet/reader.ts'
import { indexFileName, readIndex } from './index-format.ts'
import { indexEntries, type IndexEntry } from './index-entries.ts'
import { decodeIndexSummary, indexSummaryKey, summaryMatches, type IndexSummary } from './index-summary.ts'
import { statsReport } from './stats.ts'
import type { StatsReport } from './stats-types.ts'
import { readFileFacts, type FactsOptions } from './facts.ts'
import { estimateDataset } from './estimate.ts'
import { hiveKeysOf, requiredKeys } from './hive.ts'
import { describedFiles, folderKeys, isParquetName } from './index-described.ts'
import { findSummaryTsv, isSummaryName, parseSummaryTsv } from './summary-tsv.ts'
import { mapGrowing, mapLimit } from '../core/map-limit.ts'

export { requiredKeys, isParquetName }

/** A dataset plus the reader that keeps its footers and chunk cache (lives in the worker / the CLI process). */
export interface OpenDataset extends Dataset {
  parquet: ParquetReader
  /** How the files were described: `index` when every one came from a fresh dataset index, `data` when none did. */
  described: { fromIndex: number; read: number; index: string | null }
}

/** What a progressive open reports before it is done (`OpenOptions.onPartial`). */
export type OpenPartial =
  /** The listing and the stats TSV are known; no footer has been read. */
  | { stage: 'estimate'; estimate: DatasetEstimate }
  /**
   * Files described so far (from the index or read): `dataset.files` with `facts` are done. `filesDone` of
   * `filesTotal` readable-or-not parquet files; the last one comes when all are.
   */
  | { stage: 'files'; dataset: Dataset; filesDone: number; filesTotal: number }
  /**
   * The root has a readable dataset index, and nothing else is known yet (no listing, no stats TSV): `dataset.files` are
   * the parquet files it describes, with their facts. The index is checked against the listing next.
   */
  | {
    stage: 'index'; dataset: Dataset; where: string
    /**
     * When the `index-summary` stage came first: `stats` (partial) of `dataset`, and whether they hold exactly what the
     * summary said (when not, a `bad-index` warning says so and these numbers replace it).
     */
    checked?: { stats: StatsReport; summaryAgrees: boolean }
  }
  /**
   * The root has a dataset index whose footer holds the summary of its numbers (`mixscope.index.summary`), and nothing
   * else is read yet, not even its rows: the numbers of the files it describes as it recorded them. The rows are
   * decoded next (the `index` stage).
   */
  | { stage: 'index-summary'; summary: IndexSummary; where: string }

/** Options of `openDataset`. */
export interface OpenOptions extends RunOptions {
  /** A TSV the user picked (`--summary`, or a file in the UI): wins over the lookup. */
  summary?: { path: string; bytes: Uint8Array }
  /** Footers read at once (default 8, or the source's `parallelism` when higher). */
  concurrency?: number
  /** Bytes of column chunks kept for re-reads (default 64 MiB). */
  cacheBytes?: number
  /**
   * Use `_mixscope_index.parquet` when the root has one (default true). `validate` and `audit` pass false: they read
   * the data itself.
   */
  useIndex?: boolean
  /**
   * Read each file's `audio_size` facts right after its footer, while its tail is in the cache (what stats, validate,
   * index and the explorer's open need); a function also names columns to read along (validation's).
   */
  facts?: boolean | { alsoRead: NonNullable<FactsOptions['alsoRead']> }
  /**
   * Per-file work for every file whose footer is read (not the ones a fresh index describes), right after its footer
   * and facts, in the same slot of the concurrency: validation's row checks, which then find the chunks cached.
   */
  onFile?: (file: DatasetFile, parquet: ParquetReader) => Promise<void>
  /** Progressive open: the first numbers, then files as they are described (about 20 times, at least 250 ms apart). */
  onPartial?: (partial: OpenPartial) => void
  /**
   * Reads the footers only of the files this returns true for (all by default): a job that reads one split (`batches`:
   * `splitFooters`) skips the footers of the others, as the reference lists only the files it selected. A skipped file
   * is listed with its keys, no row groups and no columns, and is not `readable`; such a dataset serves that job only.
   */
  footersOf?: (file: { path: string; keys: Record<string, string> }) => boolean
}

/**
 * Lists, classifies and reads the footers of a dataset (or takes them from its index).
 * @throws MixscopeError (`empty-dataset`, exit class io) when the root holds no file at all
 */
export async function openDataset(source: DatasetSource, options: OpenOptions = {}): Promise<OpenDataset> {
  const { signal, onProgress } = options
  const progress = (phase: 'listing' | 'footers', done: number, total: number | null) =>
    onProgress?.({ phase, done, total, requests: source.counters.requests, bytes: source.counters.bytes })
  progress('listing', 0, null)
  const findings: Finding[] = []
  const index = options.useIndex === false ? null : await loadIndex(source, findings, signal, options.onPartial)
  // footers' column types need apache-arrow (their Arrow schema), loaded only when a footer is to be read: an indexed
  // root's open starts without it; without an index it loads while the root is listed
  let schema: Promise<typeof import('../parquet/schema.ts')> | null = null
  const loadSchema = () => (schema ??= import('../parquet/schema.ts'))
  if (!index) void loadSchema().catch(() => {}) // (awaited below, where a failure is reported)
  // hive keys are parsed once per folder; the files an index describes are made once, and are the dataset's own
  // files wherever the listing shows them unchanged
  const keysOf = folderKeys()
  const describedByIndex = index && describedFiles(index.entries, keysOf)
  if (index && describedByIndex && options.onPartial) {
    // the numbers of the index's rows, before its listing and TSV (at 100,000 files a second before the data's): the
    // first an open shows, or the check of the summary shown before them
    const files = [...describedByIndex.values()]
    const dataset: Dataset = { root: source.root, source, files, ignored: [], stray: [], otherFiles: [], summary: null, findings: [] }
    let checked: { stats: StatsReport; summaryAgrees: boolean } | undefined
    if (index.summary) {
      const stats = statsReport(dataset, { partial: true })
      checked = { stats, summaryAgrees: summaryMatches(index.summary, stats) }
      if (!checked.summaryAgrees) {
        findings.push(finding('warning', 'bad-index', index.where, `${index.where} ${indexSummaryKey} does not hold the numbers of its own rows (a damaged or hand-edited index); its rows are used (rewrite it with "mixscope index <root>")`))
      }
    }
    options.onPartial({ stage: 'index', where: index.where, dataset, ...(checked ? { checked } : {}) })
  }
  // a source without a listing of its own (HTTP) lists what the index lists
  const adopted = index !== null && source.adoptListing !== undefined
  if (index && source.adoptListing) source.adoptListing([...index.entries.values()].map((e) => ({ path: e.path, size: e.size })))
  const listed = await source.list({ signal })
  progress('listing', listed.length, listed.length)
  if (listed.length === 0) throw new MixscopeError(`dataset: ${source.root} holds no files`, 'empty-dataset', 'io')

  const ignored: string[] = []
  const stray: string[] = []
  const parquet: SourceFile[] = []
  const otherFiles: SourceFile[] = []
  for (const file of inPathOrder(listed)) {
    if (isIgnoredPath(file.path)) {
      ignored.push(file.path)
      if (file.path !== manifestName && file.path !== indexFileName) {
        findings.push(finding('info', 'ignored-file', file.path, `${file.path} is ignored: a path component below the root starts with "." or "_" (as pyarrow ignores it)`))
      }
    } else if (isParquetName(file.path)) {
      parquet.push(file)
    } else if (!file.path.includes('/') && isSummaryName(file.path)) {
      otherFiles.push(file) // the stats TSV at the root: read below
    } else {
      otherFiles.push(file)
      stray.push(file.path)
      findings.push(finding('error', 'stray-file', file.path,
        `${file.path} is not a parquet file; the reference reads every non-ignored file under the root as parquet and fails on it (rename it with a leading "_" or move it out)`))
    }
  }

  // the TSV first: the estimate a progressive open shows before any footer is read takes its hours from it
  let summary = null
  const picked = options.summary ?? await findSummaryTsv(source, listed, { signal })
  if (picked) {
    const parsed = parseSummaryTsv(new TextDecoder().decode(picked.bytes), picked.path)
    summary = parsed.summary
    findings.push(...parsed.findings)
  }

  const parquetReader = new ParquetReader(source, new ChunkCache(options.cacheBytes))
  const toRead: DatasetFile[] = []
  const needsFacts: DatasetFile[] = []
  let fromIndex = 0
  const files: DatasetFile[] = parquet.map((file) => {
    const entry = index?.entries.get(file.path)
    const described = entry && describedByIndex?.get(file.path)
    if (entry && described && isFresh(entry, file)) {
      fromIndex++
      if (file.mtimeMs !== undefined) described.mtimeMs = file.mtimeMs
      if (entry.error !== null) findings.push(finding('error', 'unreadable-parquet', file.path, entry.error))
      if (!described.facts && described.readable) needsFacts.push(described)
      return described
    }
    const { keys, partition } = keysOf(file.path)
    const base: DatasetFile = { path: file.path, size: file.size, keys, partition, rowGroups: [], rows: 0, columns: [], readable: false }
    if (file.mtimeMs !== undefined) base.mtimeMs = file.mtimeMs
    if (options.footersOf && !options.footersOf(base)) return base
    if (index) findings.push(staleFinding(index.where, file, entry))
    toRead.push(base)
    return base
  })
  if (index && !adopted) {
    const present = new Set(parquet.map((f) => f.path))
    for (const entry of index.entries.values()) {
      if (isParquetName(entry.path) && !isIgnoredPath(entry.path) && !present.has(entry.path)) {
        findings.push(finding('warning', 'stale-index', entry.path,
          `${index.where} lists ${entry.path} (${entry.size} bytes), which is no longer under the root; rewrite the index with "mixscope index <root>"`))
      }
    }
  }

  if (index && adopted && fromIndex > 0) {
    // over HTTP the index is the listing: nothing here can see a file removed or rewritten (same size) since it was
    // written, so its numbers are labelled, never passed off as a read of the data
    findings.push(finding('warning', 'index-unverified', index.where,
      `${fromIndex} file(s) are described by ${index.where} alone: over HTTP mixscope does not check that they still exist or are unchanged (files added, removed or rewritten since the index was written are not seen); "mixscope validate" reads the data itself`))
  }

  const partial: Dataset = { root: source.root, source, files, ignored, stray, otherFiles, summary, findings: [] }
  const total = files.length
  let described = fromIndex
  let nextPartialAt = 0
  let lastPartial = -Infinity
  const emitFiles = (force: boolean) => {
    if (!options.onPartial) return
    const now = clock()
    if (!force && (described < nextPartialAt || now - lastPartial < 250)) return
    lastPartial = now
    nextPartialAt = described + Math.max(1, Math.ceil(total / 20))
    options.onPartial({ stage: 'files', dataset: partial, filesDone: described, filesTotal: total })
  }
  if (options.onPartial && toRead.length > 0 && !describedByIndex) {
    // (after the index's exact numbers, an estimate would be a step back)
    options.onPartial({ stage: 'estimate', estimate: estimateDataset(parquet, summary) })
  }
  const wantFacts = options.facts !== undefined && options.facts !== false
  const alsoRead = typeof options.facts === 'object' ? options.facts.alsoRead : undefined
  if (wantFacts) {
    // files the index describes but whose numbers stats must read itself (keys held as columns)
    await mapLimit(needsFacts, concurrencyOf(source, options), async (file) => {
      file.facts = await readFileFacts(parquetReader, file, { signal })
    })
  }
  if (fromIndex > 0) emitFiles(toRead.length === 0)

  let done = 0
  const describeColumns = toRead.length > 0 ? (await loadSchema()).describeColumns : null
  progress('footers', 0, toRead.length)
  await mapGrowing(toRead, () => concurrencyOf(source, options), async (file) => {
    try {
      const { metadata, bytes } = await readFooter(source, file.path, file.size, parquetReader.sizer, { signal }, parquetReader.cache)
      parquetReader.setFooter(file.path, metadata, bytes)
      file.rowGroups = rowGroupsOf(metadata)
      file.rows = file.rowGroups.reduce((n, g) => n + g.rows, 0)
      file.columns = describeColumns!(metadata)
      file.readable = true
    } catch (error) {
      if (signal?.aborted) throw error
      file.error = (error as Error).message
      findings.push(finding('error', 'unreadable-parquet', file.path, file.error))
    }
    if (file.readable && wantFacts) file.facts = await readFileFacts(parquetReader, file, { signal, alsoRead })
    if (file.readable && options.onFile) await options.onFile(file, parquetReader)
    progress('footers', ++done, toRead.length)
    described++
    emitFiles(done === toRead.length)
  })

  findings.push(...keyFindings(files))
  // entries the listing could not take (a path past PATH_MAX, a FIFO, a device, a link loop) are said, never dropped
  const problems = source.listProblems?.() ?? []
  for (const p of problems) findings.push(finding(isIgnoredPath(p.path) ? 'info' : p.severity ?? 'error', 'unlistable-entry', p.path, p.message))
  if (source.listFolders) {
    // a folder holding an entry that could not be listed is not called empty: what it holds is unknown
    const unknown = problems.filter((p) => p.severity !== 'info').map((p) => ({ path: `${p.path}/unlisted.parquet`, size: 0 }))
    findings.push(...emptyFolderFindings(await source.listFolders({ signal }), [...listed, ...unknown]))
  }
  if (files.length === 0) {
    findings.push(finding('error', 'no-parquet-files', '', `no parquet files found under ${source.root} (${listed.length} files listed, ${ignored.length} ignored)`))
  }
  return {
    root: source.root, source, files, ignored, stray, otherFiles, summary, findings: sortFindings(findings), parquet: parquetReader,
    described: { fromIndex, read: toRead.length, index: index?.where ?? null },
  }
}

/** The listing in UTF-8 byte order of paths: as it is when it is in that order already (a listing from the index). */
function inPathOrder(listed: readonly SourceFile[]): readonly SourceFile[] {
  for (let i = 1; i < listed.length; i++) {
    if (compareUtf8(listed[i - 1].path, listed[i].path) > 0) return [...listed].sort((a, b) => compareUtf8(a.path, b.path))
  }
  return listed
}

const clock = (): number => globalThis.performance?.now() ?? Date.now()

function concurrencyOf(source: DatasetSource, options: OpenOptions): number {
  return options.concurrency ?? Math.max(8, source.parallelism ?? 0)
}

/**
 * The root's dataset index, when it has a readable one (a bad one is a `bad-index` warning and is not used). With
 * `onPartial`, the summary in its footer is reported before its rows are decoded (a bad summary is a `bad-index` warning
 * of its own; the rows are still used).
 */
async function loadIndex(source: DatasetSource, findings: Finding[], signal?: AbortSignal, onPartial?: OpenOptions['onPartial']): Promise<{ entries: Map<string, IndexEntry>; where: string; summary: IndexSummary | null } | null> {
  if (!source.readOptional) return null
  let bytes: Uint8Array | null
  try {
    bytes = await source.readOptional(indexFileName, { signal })
  } catch (error) {
    // a FIFO, a device or an oversized file where the index should be: a cache that cannot be used, not a failure
    if (!(error instanceof MixscopeError) || (error.kind !== 'not-a-regular-file' && error.kind !== 'file-too-large')) throw error
    findings.push(finding('warning', 'bad-index', indexFileName, `${error.message}; the files are read instead`))
    return null
  }
  if (!bytes) return null
  let summarySent: IndexSummary | null = null
  const onMetadata = onPartial && ((metadata: Record<string, string>) => {
    const text = metadata[indexSummaryKey]
    if (text === undefined) return
    let summary: IndexSummary
    try {
      summary = decodeIndexSummary(text, indexFileName)
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(finding('warning', 'bad-index', indexFileName, `${error.message}; its rows are used (rewrite it with "mixscope index <root>")`))
      return
    }
    summarySent = summary
    onPartial({ stage: 'index-summary', summary, where: indexFileName })
  })
  let entries: Map<string, IndexEntry>
  try {
    entries = indexEntries((await readIndex(bytes, indexFileName, { skipPathDerived: true, onMetadata })).rows, indexFileName)
  } catch (error) {
    if (!(error instanceof MixscopeError) || error.kind !== 'bad-index') throw error
    findings.push(finding('warning', 'bad-index', indexFileName, `${error.message}; the files are read instead (rewrite it with "mixscope index <root>")`))
    return null
  }
  return { entries, where: indexFileName, summary: summarySent }
}

/** Whether the index row still describes the listed file: same size, and same mtime where the listing has one. */
function isFresh(entry: IndexEntry, file: SourceFile): boolean {
  return entry.size === file.size && (file.mtimeMs === undefined || entry.mtimeMs === file.mtimeMs)
}

function staleFinding(where: string, file: SourceFile, entry: IndexEntry | undefined): Finding {
  if (!entry) {
    return finding('warning', 'stale-index', file.path, `${file.path} is not in ${where} (added after the index was written); it was read from the data (rewrite the index with "mixscope index <root>")`)
  }
  const was = `${entry.size} bytes${entry.mtimeMs !== null ? `, modified at ${entry.mtimeMs} ms` : ''}`
  const now = `${file.size} bytes${file.mtimeMs !== undefined ? `, modified at ${file.mtimeMs} ms` : ''}`
  return finding('warning', 'stale-index', file.path, `${where} describes ${file.path} as ${was}, but it has ${now}: it was read again from the data (rewrite the index with "mixscope index <root>")`)
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
