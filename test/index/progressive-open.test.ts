/**
 * The worker's progressive `open` (docs/interpretations.md "Progressive open"): an estimate from the listing and the
 * stats TSV before any footer is read, exact numbers of the files read so far, the final stats with a usable handle
 * while rows are still checked, cancellation at any point; with a dataset index, the final stats after one or two
 * requests. And `index-write`: the index from what the open read, into a writable folder or as bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cp, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { createDirectoryHandleSource, type DirectoryHandleLike, type HandleLike } from '../../src/engine/source/directory-handle-source.ts'
import type { DatasetSource } from '../../src/engine/source/source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { indexFileName, readIndex, type IndexRow } from '../../src/engine/dataset/index-format.ts'
import { writeIndex } from '../../src/engine/dataset-index/write.ts'
import { encodeIndexSummary, indexSummaryKey, summarizeIndexRows } from '../../src/engine/dataset/index-summary.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import { createEngineClient, type WorkerLike } from '../../src/engine/worker/client.ts'
import type { ClientMessage, WorkerMessage } from '../../src/engine/worker/protocol.ts'
import { overviewTables } from '../../src/engine/dataset/groupings.ts'
import type { IndexWriteResult, OpenResult } from '../../src/engine/worker/protocol/dataset.ts'
import { main } from '../../src/cli/main.ts'
import { provisionalLabel } from '../../src/app/lib/provisional-label.ts'

let dir: string
let root: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-progressive-'))
  await cp(join(import.meta.dirname, '../fixtures/parquet/dataprep'), dir, { recursive: true })
  root = join(dir, 'version=0')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Opens `source` through the worker's handler, collecting the partial results. */
async function openThrough(source: DatasetSource, signal?: AbortSignal, onPartial?: (p: OpenResult) => void) {
  const handle = createRequestHandler({ makeSource: () => source })
  const partials: OpenResult[] = []
  const result = handle({ kind: 'open', id: 1, source: { type: 'url', url: 'unused:/' } }, {
    signal, onPartial: (p) => { partials.push(p as OpenResult); onPartial?.(p as OpenResult) },
  }) as Promise<OpenResult>
  return { handle, partials, result }
}

/** Parquet files under `root` per `corpus/split/language` folder, from the file system itself. */
async function listing(): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const entry of await readdir(root, { recursive: true })) {
    if (!entry.endsWith('.parquet') || entry.split('/').some((s) => s.startsWith('_'))) continue
    const folder = entry.split('/').slice(0, -1).join('/')
    out.set(folder, (out.get(folder) ?? 0) + 1)
  }
  return out
}

describe('progressive open', () => {
  it('an estimate before any footer, then exact numbers of the files read so far, then the final result', async () => {
    // 60 ms a read, as a remote store: the open lasts long enough for snapshots (at least 250 ms apart)
    const fs = await createFsSource(root)
    const slow: DatasetSource = { ...fs, read: async (...args) => { await new Promise((r) => setTimeout(r, 60)); return fs.read(...args) } }
    const source = createCountingSource(slow)
    const { partials, result } = await openThrough(source)
    const final = await result
    const [estimate, ...rest] = partials
    expect(estimate.provisional?.stage).toBe('estimate')
    expect(estimate.counters.requests).toBe(2) // the look for an index, the TSV beside the root: no parquet byte
    // files per folder as the listing has them; hours per (corpus, language) summed over splits as the TSV has them
    const folders = await listing()
    expect(new Map(estimate.stats.partitions.map((p) => [`corpus=${p.corpus}/split=${p.split}/language=${p.language}`, p.files]))).toEqual(folders)
    const tsv = (await readFile(join(dir, 'language_distribution_0.tsv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split('\t'))
    const byPair = new Map<string, number>()
    for (const p of estimate.stats.partitions) byPair.set(`${p.corpus}\t${p.language}`, (byPair.get(`${p.corpus}\t${p.language}`) ?? 0) + p.hours)
    expect(byPair.size).toBe(tsv.length)
    for (const [corpus, language, hours] of tsv) expect(byPair.get(`${corpus}\t${language}`)).toBeCloseTo(Number(hours), 12)
    expect(provisionalLabel(estimate.provisional!)).toMatch(/^Estimate from the file listing and \.\.\/language_distribution_0\.tsv/)

    const stages = rest.map((p) => p.provisional?.stage)
    expect(stages.every((s) => s === 'stats')).toBe(true)
    const done = rest.map((p) => p.provisional!.filesDone)
    expect(done.length).toBeGreaterThan(0)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(done.at(-1)).toBeLessThan(final.files.parquet) // the last snapshot would be the final numbers: not sent twice
    // each snapshot: exact for the files it has, never more than the final numbers
    // every language of the listing is in a snapshot's numbers or among its languages not read yet, never in both
    const listed = new Set([...folders.keys()].map((f) => /language=([^/]+)/.exec(f)![1]))
    expect(listed.size).toBeGreaterThan(1)
    expect(rest.some((p) => (p.provisional!.unreadLanguages ?? []).length > 0)).toBe(true)
    for (const p of rest) {
      const unread = p.provisional!.unreadLanguages!
      expect(unread).toEqual([...unread].sort())
      const numbered = new Set(p.stats.partitions.filter((x) => x.files > 0).map((x) => x.language))
      expect(unread.filter((l) => numbered.has(l))).toEqual([])
      expect(new Set([...numbered, ...unread])).toEqual(listed)
    }
    for (const p of rest) {
      expect(p.stats.totals.rows).toBeLessThanOrEqual(final.stats.totals.rows)
      expect(p.stats.totals.files).toBe(p.provisional!.filesDone) // every file of the fixture is readable
    }
    expect(final.provisional).toBeUndefined()
    const plain = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
    expect(final.stats).toEqual(plain)
  })

  it('cancels: the open rejects with the abort', async () => {
    const controller = new AbortController()
    const source = await createFsSource(root)
    const { result } = await openThrough(source, controller.signal, (p) => { if (p.provisional?.stage === 'estimate') controller.abort() })
    await expect(result).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('with a dataset index: final stats after the index and the TSV, a usable handle while rows are checked', async () => {
    expect(await main(['index', root], { stdout: () => {}, stderr: () => {} })).toBe(0)
    try {
      const controller = new AbortController()
      const source = createCountingSource(await createFsSource(root))
      const { handle, partials, result } = await openThrough(source, controller.signal, (p) => {
        if (p.provisional?.stage === 'validating') controller.abort()
      })
      await expect(result).rejects.toMatchObject({ name: 'AbortError' })
      expect(partials.map((p) => p.provisional?.stage)).toEqual(['stats', 'validating'])
      const [indexed, validating] = partials
      expect(validating.provisional).toMatchObject({ filesDone: validating.files.parquet, fromIndex: validating.files.parquet })
      expect(validating.counters.requests).toBe(2) // the index and the TSV
      const plain = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
      // the same partitions as the index's numbers: posted without them (the client puts them back)
      expect(validating.samePartitions).toBe(true)
      expect({ ...validating.stats, partitions: indexed.stats.partitions }).toEqual(plain)
      // first, the numbers of the index's summary alone (one request, before its rows, the listing and the TSV): the same
      // partitions and totals; its rows agree, so they are not posted again
      expect(indexed.counters.requests).toBe(1)
      expect(indexed.provisional).toMatchObject({ stage: 'stats', filesDone: validating.files.parquet, filesTotal: validating.files.parquet, fromIndex: validating.files.parquet })
      expect(provisionalLabel(indexed.provisional!)).toMatch(/^Numbers of the \d+ files the dataset index describes, as its summary recorded them/)
      expect(indexed.files).toEqual({ ...validating.files, ignored: 0, stray: 0 })
      expect(indexed.stats.partitions).toEqual(plain.partitions)
      expect(indexed.stats.totals).toEqual(plain.totals)
      expect(indexed.stats.summary).toBeNull()
      expect(indexed.overview.languages).toEqual(overviewTables(plain).languages)
      expect(indexed.dataset).toBe(-1)
      // the dataset stays usable after the cancel: the handle the validating stage gave still answers
      const written = await handle({ kind: 'index-write', id: 2, dataset: validating.dataset }, {}) as IndexWriteResult
      expect(written.written).toBeNull()
      expect(written.reason).toMatch(/cannot write into its folder/)
      expect(written.bytes).toEqual(new Uint8Array(await readFile(join(root, indexFileName))))
    } finally {
      await rm(join(root, indexFileName))
    }
  })
})

/** Runs `check` on an indexed copy of the dataprep fixture (its root, and the path of its first parquet file), then removes it. */
async function withIndexedCopy(check: (root: string, firstFile: string) => Promise<void>): Promise<void> {
  const top = await mkdtemp(join(tmpdir(), 'mixscope-indexed-'))
  try {
    await cp(join(import.meta.dirname, '../fixtures/parquet/dataprep'), top, { recursive: true })
    const copyRoot = join(top, 'version=0')
    expect(await main(['index', copyRoot], { stdout: () => {}, stderr: () => {} })).toBe(0)
    await check(copyRoot, (await readdir(copyRoot, { recursive: true })).find((p) => p.endsWith('.parquet') && !p.startsWith('_'))!)
  } finally {
    await rm(top, { recursive: true, force: true })
  }
}

describe('progressive open with a stale index', () => {
  it('the index\'s numbers first, labelled as the index\'s; then those of the data, with the stale-index warning', async () => {
    await withIndexedCopy(async (staleRoot, gone) => {
      await rm(join(staleRoot, gone))
      const { partials, result } = await openThrough(await createFsSource(staleRoot))
      await result
      expect(partials.map((p) => p.provisional?.stage)).toEqual(['stats', 'validating'])
      const [indexed, validating] = partials
      expect(provisionalLabel(indexed.provisional!)).toMatch(/dataset index describes, as its summary recorded them when it was written; its rows are being read, then checked against the listing/)
      expect(indexed.stats.totals.files).toBe(validating.stats.totals.files + 1)
      const plain = await computeStats(await openDataset(await createFsSource(staleRoot), { useIndex: false }))
      expect(validating.samePartitions).toBeUndefined()
      expect(validating.stats.partitions).toEqual(plain.partitions)
      expect(validating.stats.totals).toEqual(plain.totals)
      expect(validating.stats.findings.some((f) => f.kind === 'stale-index' && f.path === gone)).toBe(true)
    })
  })
})

describe('progressive open and the index summary', () => {
  /** Rewrites the copy's index from its own rows, with `metadata` in place of the summary `mixscope index` wrote. */
  async function rewriteIndex(indexRoot: string, metadata: (rows: IndexRow[]) => Record<string, string>) {
    const path = join(indexRoot, indexFileName)
    const { rows } = await readIndex(new Uint8Array(await readFile(path)), 'index')
    await writeFile(path, writeIndex(rows, { metadata: metadata(rows) }))
  }

  it('a summary that does not hold its rows\' numbers is shown for that moment only: the rows\' numbers follow, with a bad-index warning', async () => {
    await withIndexedCopy(async (copyRoot) => {
      await rewriteIndex(copyRoot, (rows) => {
        const summary = summarizeIndexRows(rows)
        summary.partitions[0] = { ...summary.partitions[0], rows: summary.partitions[0].rows + 1000 }
        return { [indexSummaryKey]: encodeIndexSummary(summary) }
      })
      const { partials, result } = await openThrough(await createFsSource(copyRoot))
      const final = await result
      expect(partials.map((p) => p.provisional?.stage)).toEqual(['stats', 'stats', 'validating'])
      const [summarized, fromRows] = partials
      const plain = await computeStats(await openDataset(await createFsSource(copyRoot), { useIndex: false }))
      expect(provisionalLabel(summarized.provisional!)).toMatch(/as its summary recorded them/)
      expect(summarized.stats.partitions[0].rows).toBe(plain.partitions[0].rows + 1000)
      expect(provisionalLabel(fromRows.provisional!)).toMatch(/^Exact numbers of the \d+ files the dataset index describes/)
      expect(fromRows.stats.partitions).toEqual(plain.partitions)
      expect(final.validation.findings).toContainEqual(expect.objectContaining({
        kind: 'bad-index', severity: 'warning', path: indexFileName,
        message: expect.stringMatching(/mixscope\.index\.summary does not hold the numbers of its own rows/),
      }))
    })
  })

  it('without a summary (an index an older mixscope wrote) the rows\' numbers come first; a summary that does not parse is a warning and the rows are used', async () => {
    for (const metadata of [{}, { [indexSummaryKey]: '{"version":1' }] as Record<string, string>[]) {
      await withIndexedCopy(async (copyRoot) => {
        await rewriteIndex(copyRoot, () => metadata)
        const { partials, result } = await openThrough(await createFsSource(copyRoot))
        const final = await result
        expect(partials.map((p) => p.provisional?.stage)).toEqual(['stats', 'validating'])
        expect(provisionalLabel(partials[0].provisional!)).toMatch(/^Exact numbers of the \d+ files the dataset index describes, before/)
        const plain = await computeStats(await openDataset(await createFsSource(copyRoot), { useIndex: false }))
        expect(partials[0].stats.partitions).toEqual(plain.partitions)
        expect(final.described.fromIndex).toBe(plain.totals.files)
        const warned = final.validation.findings.filter((f) => f.kind === 'bad-index').map((f) => f.message)
        expect(warned).toEqual(Object.keys(metadata).length === 0 ? [] : [expect.stringMatching(/mixscope\.index\.summary is not JSON .*; its rows are used/)])
      })
    }
  })
})

/** A worker stand-in running the real handler in-process, recording what it posts. */
function inProcessWorker(source: DatasetSource | Promise<DatasetSource>) {
  let ready: DatasetSource | null = null
  const handle = createRequestHandler({ makeSource: () => ready! })
  const posted: WorkerMessage[] = []
  const worker: WorkerLike = {
    onmessage: null, onerror: null, terminate: () => {},
    postMessage: (message: ClientMessage) => {
      if (message.kind === 'abort') return
      const send = (m: WorkerMessage) => { posted.push(m); worker.onmessage?.({ data: structuredClone(m) } as MessageEvent<WorkerMessage>) }
      void Promise.resolve(source)
        .then((s) => {
          ready = s
          return handle(message as never, { onPartial: (partial) => send({ kind: 'partial', id: message.id, partial } as WorkerMessage) }) as Promise<unknown>
        })
        .then((result) => send({ kind: 'result', id: message.id, result } as WorkerMessage))
    },
  }
  return { worker, posted }
}

describe('progressive open with a file touched after indexing', () => {
  it('the validating partial is whole when a partial between it and the index\'s numbers had other partitions', async () => {
    await withIndexedCopy(async (touchedRoot, touched) => {
      await utimes(join(touchedRoot, touched), new Date(), new Date(Date.now() + 5_000)) // same bytes, another mtime: read again
      const client = createEngineClient(() => inProcessWorker(createFsSource(touchedRoot)).worker)
      const seen: OpenResult[] = []
      const opened = await client.openDataset({ type: 'url', url: 'unused:/' }, { onPartial: (p) => seen.push(p) })
      expect(seen.map((p) => p.provisional?.stage)).toEqual(['stats', 'stats', 'validating'])
      // the index's numbers equal the data's here, but the partial between them lacked the touched file's
      expect(seen[1].stats.totals.files).toBe(seen[0].stats.totals.files - 1)
      const plain = await computeStats(await openDataset(await createFsSource(touchedRoot), { useIndex: false }))
      expect(seen[2].stats.partitions).toEqual(plain.partitions)
      expect(opened.stats.partitions).toEqual(plain.partitions)
      expect(opened.stats.totals).toEqual(plain.totals)
    })
  })
})

describe('the final result after a validating partial', () => {

  it('leaves out the stats the partial carried; the client puts them back, equal to a full read', async () => {
    expect(await main(['index', root], { stdout: () => {}, stderr: () => {} })).toBe(0)
    try {
      const { worker, posted } = inProcessWorker(await createFsSource(root))
      const client = createEngineClient(() => worker)
      const stages: (string | undefined)[] = []
      const seen: OpenResult[] = []
      const opened = await client.openDataset({ type: 'url', url: 'unused:/' }, { onPartial: (p) => { stages.push(p.provisional?.stage); seen.push(p) } })
      expect(stages).toEqual(['stats', 'validating'])
      // the validating partial went without the partitions the index's numbers had carried: the client put back the same objects
      const postedPartials = posted.flatMap((m) => (m.kind === 'partial' ? [m.partial as OpenResult] : []))
      expect(postedPartials[1]).toMatchObject({ samePartitions: true, stats: { partitions: [] }, overview: { languages: [] } })
      expect(seen[1].stats.partitions).toBe(seen[0].stats.partitions)
      expect(seen[1].overview.languages).toBe(seen[0].overview.languages)
      expect(seen[1].overview.splitPivot).toBe(seen[0].overview.splitPivot)
      expect(seen[1]).not.toHaveProperty('samePartitions')
      expect(seen[0].overview.tsvCoverage).toBeNull()
      expect(seen[1].overview.tsvCoverage).not.toBeNull()
      const final = posted.find((m) => m.kind === 'result')
      expect(final && 'result' in final && (final.result as { stats: unknown }).stats).toBeNull()
      const plain = await computeStats(await openDataset(await createFsSource(root), { useIndex: false }))
      expect(opened.stats).toEqual(plain)
      expect(opened.overview).toEqual(overviewTables(plain))
      expect(opened.provisional).toBeUndefined()
      expect(opened.validation.files_checked).toBe(opened.files.parquet)
    } finally {
      await rm(join(root, indexFileName))
    }
  })

  it('without an index (rows checked while reading) no validating partial comes, and the result is whole', async () => {
    const { worker, posted } = inProcessWorker(await createFsSource(root))
    const opened = await createEngineClient(() => worker).openDataset({ type: 'url', url: 'unused:/' }, { onPartial: () => {} })
    const final = posted.find((m) => m.kind === 'result')
    expect(final && 'result' in final && (final.result as { stats: unknown }).stats).not.toBeNull()
    expect(opened.overview.languages.length).toBeGreaterThan(0)
  })
})

/** A FileSystemDirectoryHandle fake over real files that records writes (createWritable). */
function folderHandle(name: string, files: Map<string, Uint8Array>, written: Map<string, Uint8Array>): DirectoryHandleLike {
  const children = new Map<string, Map<string, Uint8Array>>()
  const own: HandleLike[] = []
  for (const [path, data] of files) {
    const [head, ...rest] = path.split('/')
    if (rest.length === 0) own.push({ kind: 'file', name: head, getFile: async () => new File([data as Uint8Array<ArrayBuffer>], head, { lastModified: 1234 }) } as HandleLike)
    else {
      if (!children.has(head)) children.set(head, new Map())
      children.get(head)!.set(rest.join('/'), data)
    }
  }
  for (const [child, sub] of children) own.push(folderHandle(child, sub, new Map()))
  return {
    kind: 'directory', name, async *values() { yield* own },
    async getFileHandle(file: string) {
      return {
        async createWritable() {
          const parts: Uint8Array[] = []
          return { write: async (d: Uint8Array) => { parts.push(d.slice()) }, close: async () => { written.set(file, Buffer.concat(parts)) } }
        },
        getFile: async () => new File([written.get(file)! as Uint8Array<ArrayBuffer>], file, { lastModified: 1234 }),
      }
    },
  }
}

describe('index-write', () => {
  it('writes the index into a writable folder handle; the next open describes every file from it', async () => {
    const files = new Map<string, Uint8Array>()
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const path = join(entry.parentPath, entry.name).slice(root.length + 1)
      files.set(path, new Uint8Array(await readFile(join(root, path))))
    }
    const written = new Map<string, Uint8Array>()
    const source = createDirectoryHandleSource(folderHandle('version=0', files, written))
    const { handle, result } = await openThrough(source)
    const opened = await result
    const out = await handle({ kind: 'index-write', id: 2, dataset: opened.dataset }, {}) as IndexWriteResult
    expect(out).toMatchObject({ written: indexFileName, reason: null, bytes: null, files: opened.files.parquet })
    const rows = (await readIndex(written.get(indexFileName)!, 'written')).rows
    expect(rows.every((r) => r.mtime_ms === 1234)).toBe(true)
    expect(new Set(rows.map((r) => r.path))).toEqual(new Set([...files.keys()].filter((p) => !p.startsWith('_'))))
    files.set(indexFileName, written.get(indexFileName)!)
    const again = await openDataset(createDirectoryHandleSource(folderHandle('version=0', files, new Map())), { facts: true })
    expect(again.described).toMatchObject({ fromIndex: opened.files.parquet, read: 0 })
    expect((await computeStats(again)).partitions).toEqual(opened.stats.partitions)
  })
})
