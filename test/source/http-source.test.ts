import { afterEach, describe, expect, test, vi } from 'vitest'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { createHttpSource, encodePath } from '../../src/engine/source/http-source.ts'
import type { HttpSourceOptions } from '../../src/engine/source/http-source.ts'
import { buildManifest, formatManifest } from '../../src/engine/source/manifest.ts'
import type { Timers } from '../../src/engine/source/request-control.ts'
import { faultSequence, faultWhen, startFaultServer } from '../fault-server.ts'
import type { FaultPlan, FaultServer, LoggedRequest } from '../fault-server.ts'

/** Deterministic, position-dependent bytes (no two neighbours equal, so off-by-one reads show). */
function pattern(size: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed * 13 + (i >> 8)) & 0xff)
}

const hindi = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
const tricky = 'corpus=a b/split=train/language=ä/100%.parquet'
const files: Record<string, Uint8Array> = { [hindi]: pattern(1000, 1), [tricky]: pattern(300, 2) }
const manifestText = formatManifest(buildManifest(Object.entries(files).map(([path, b]) => ({ path, size: b.length }))))
const manifestBytes = new TextEncoder().encode(manifestText).length
const tsv = new TextEncoder().encode('corpus\tlanguage\thours\na\thin_Deva\t1.5\n')

let server: FaultServer
afterEach(async () => server?.close())

/** Serves the dataset under `version=0/` with its manifest and the stats TSV beside it. */
async function serveDataset(plan?: FaultPlan, extra: Record<string, Uint8Array> = {}): Promise<FaultServer> {
  const served: Record<string, Uint8Array> = {
    'version=0/_manifest.json': new TextEncoder().encode(manifestText),
    'language_distribution_0.tsv': tsv,
    ...extra,
  }
  for (const [path, bytes] of Object.entries(files)) served[`version=0/${path}`] = bytes
  server = await startFaultServer(served, plan)
  return server
}

const fast: HttpSourceOptions = { retryDelayMs: 1, timeoutMs: 5000 }
const isRangeRead = (r: LoggedRequest) => r.range !== null
const fileRequests = () => server.requests.filter((r) => !r.path.endsWith('_manifest.json'))

/** Timers that fire only when the test says: time is an input here, never a wall-clock measurement. */
function manualTimers(): Timers & { pending: () => { ms: number; fire: () => void }[] } {
  let next = 1
  const live = new Map<number, { ms: number; callback: () => void }>()
  return {
    setTimeout: (callback, ms) => { live.set(next, { ms, callback }); return next++ },
    clearTimeout: (handle) => { live.delete(handle as number) },
    pending: () => [...live].map(([handle, t]) => ({ ms: t.ms, fire: () => { live.delete(handle); t.callback() } })),
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(() => null, (error: Error) => error)
  if (!outcome) throw new Error('expected a rejection')
  return outcome
}

describe('http source: listing and reads', () => {
  test('lists the manifest and reads exact ranges with exact counters', async () => {
    await serveDataset()
    const source = createHttpSource(server.url + 'version=0', fast)
    expect(source.root).toBe(server.url + 'version=0/')
    expect(source.rootName).toBe('version=0')
    const listed = await source.list()
    expect(listed).toEqual(buildManifest(listed).files)
    expect(listed.map((f) => f.path).sort()).toEqual(Object.keys(files).sort())
    expect(source.counters).toEqual({ requests: 1, bytes: manifestBytes })

    expect(await source.read(hindi, 10, 110)).toEqual(files[hindi].slice(10, 110))
    expect(await source.read(hindi, 900, 5000)).toEqual(files[hindi].slice(900)) // end clamped to the size
    expect(await source.read(hindi, 1000, 1200)).toEqual(new Uint8Array(0)) // past the end: no request
    expect(source.counters).toEqual({ requests: 3, bytes: manifestBytes + 100 + 100 })
    expect(fileRequests().map((r) => r.range)).toEqual(['bytes=10-109', 'bytes=900-999'])
  })

  test('percent-encodes each segment: spaces, %, non-ASCII; = stays', async () => {
    await serveDataset()
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect(await source.read(tricky, 0, 300)).toEqual(files[tricky])
    expect(fileRequests()[0].rawPath).toBe('/version=0/corpus=a%20b/split=train/language=%C3%A4/100%25.parquet')
    expect(fileRequests()[0].path).toBe(`version=0/${tricky}`)
    expect(encodePath('a=b c/é/#?%')).toBe('a=b%20c/%C3%A9/%23%3F%25')
  })

  test('1-byte reads ask for 2 bytes, never bytes=a-a', async () => {
    await serveDataset()
    const source = createHttpSource(server.url + 'version=0/', fast)
    await source.list()
    expect(await source.read(hindi, 0, 1)).toEqual(files[hindi].slice(0, 1))
    expect(await source.read(hindi, 500, 501)).toEqual(files[hindi].slice(500, 501))
    expect(await source.read(hindi, 999, 1000)).toEqual(files[hindi].slice(999))
    expect(fileRequests().map((r) => r.range)).toEqual(['bytes=0-1', 'bytes=499-500', 'bytes=998-999'])
    expect(source.counters).toEqual({ requests: 4, bytes: manifestBytes + 6 })
  })

  test('a path missing from the manifest and a bad range are refused without a file request', async () => {
    await serveDataset()
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect((await rejection(source.read('nope.parquet', 0, 10))).message).toBe(`http: "nope.parquet" is not listed in ${server.url}version=0/_manifest.json`)
    await expect(source.read(hindi, 10, 5)).rejects.toThrow(/asks for bytes \[10, 5\)/)
    expect(fileRequests()).toEqual([])
  })

  test('caps the requests in flight', async () => {
    await serveDataset(faultWhen(isRangeRead, { delayMs: 30 }))
    const source = createHttpSource(server.url + 'version=0/', { ...fast, concurrency: 3 })
    await source.list()
    const reads = Array.from({ length: 12 }, (_, i) => source.read(hindi, i * 50, i * 50 + 40))
    const got = await Promise.all(reads)
    got.forEach((bytes, i) => expect(bytes).toEqual(files[hindi].slice(i * 50, i * 50 + 40)))
    expect(server.maxActive).toBe(3)
    expect(source.counters.requests).toBe(13)
  })

  test('readSibling fetches beside the root; a missing one is null', async () => {
    await serveDataset()
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect(await source.readSibling!('language_distribution_0.tsv')).toEqual(tsv)
    expect(await source.readSibling!('language_distribution_1.tsv')).toBeNull()
    expect(server.requests.map((r) => r.rawPath)).toEqual(['/language_distribution_0.tsv', '/language_distribution_1.tsv'])
    expect(source.counters).toEqual({ requests: 2, bytes: tsv.length })
    expect('listSiblings' in source).toBe(false)
  })
})

describe('http source: failures', () => {
  test('503 then success: retried, every attempt counted', async () => {
    let failures = 0
    await serveDataset((r) => (isRangeRead(r) && failures++ < 2 ? { status: 503 } : undefined))
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect(await source.read(hindi, 0, 100)).toEqual(files[hindi].slice(0, 100))
    expect(fileRequests().length).toBe(3)
    expect(source.counters).toEqual({ requests: 4, bytes: manifestBytes + 100 })
  })

  test('permanent 500 gives up after retries + 1 attempts with a clear error', async () => {
    await serveDataset(faultWhen(isRangeRead, { status: 500 }))
    const source = createHttpSource(server.url + 'version=0/', { ...fast, retries: 2 })
    const error = await rejection(source.read(hindi, 0, 100))
    expect(error).toBeInstanceOf(MixscopeError)
    expect((error as MixscopeError).exitClass).toBe('io')
    expect(error.message).toBe(`http: ${server.url}version=0/${encodePath(hindi)} failed with 500 Internal Server Error after 3 attempts`)
    expect(fileRequests().length).toBe(3)
  })

  test('a reset connection is retried; an unreachable server is a network/CORS error', async () => {
    await serveDataset(faultSequence({ reset: true }))
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect(await source.list()).toHaveLength(2)
    expect(server.requests.length).toBe(2)
    const url = server.url
    await server.close()
    const gone = createHttpSource(url + 'version=0/', { ...fast, retries: 1 })
    expect((await rejection(gone.list())).message).toMatch(new RegExp(`^http: cannot reach ${url}version=0/_manifest.json: network error or CORS blocked ` +
      '\\(the server must send Access-Control-Allow-Origin and expose Content-Range\\) after 2 attempts'))
    expect(gone.counters.requests).toBe(2)
  })

  test('a hanging server times out at the limit, without retries', async () => {
    await serveDataset(faultWhen(isRangeRead, { hang: true }))
    const timers = manualTimers()
    const source = createHttpSource(server.url + 'version=0/', { ...fast, timeoutMs: 200, timers })
    await source.list()
    const read = rejection(source.read(hindi, 0, 100))
    await vi.waitFor(() => expect(fileRequests()).toHaveLength(1))
    // the only timer is the request's 200 ms limit; when it fires, the read fails at once, not retried
    expect(timers.pending().map((t) => t.ms)).toEqual([200])
    timers.pending()[0].fire()
    expect((await read).message).toBe(`http: ${server.url}version=0/${encodePath(hindi)} timed out after 200 ms`)
    expect(timers.pending()).toEqual([])
    expect(fileRequests().length).toBe(1)
  })

  test('404 and 403 name the URL', async () => {
    await serveDataset(faultWhen((r) => r.path.includes('language=ä'), { status: 403 }))
    delete server.files[`version=0/${hindi}`]
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect((await rejection(source.read(hindi, 0, 10))).message).toBe(`http: ${server.url}version=0/${encodePath(hindi)} not found (404)`)
    expect((await rejection(source.read(tricky, 0, 10))).message).toMatch(/^http: .*100%25\.parquet forbidden \(403\)/)
    expect(fileRequests().length).toBe(2) // 4xx is not retried
  })

  test('a server ignoring Range is an error, unless whole-file reads are allowed (then each file is read once)', async () => {
    await serveDataset(faultWhen(isRangeRead, { ignoreRange: true }))
    const seen: unknown[] = []
    const strict = createHttpSource(server.url + 'version=0/', { ...fast, onRangeIgnored: (info) => seen.push(info) })
    const error = await rejection(strict.read(hindi, 10, 20))
    expect(error.message).toMatch(/^http: the server ignores Range requests \(.* answered 200 with the whole file of 1000 bytes\)/)
    expect((error as MixscopeError).kind).toBe('http-range-ignored')
    await rejection(strict.read(hindi, 30, 40))
    expect(seen).toEqual([{ url: `${server.url}version=0/${encodePath(hindi)}`, path: hindi, size: 1000 }])

    server.requests.length = 0
    const lenient = createHttpSource(server.url + 'version=0/', { ...fast, allowWholeFileReads: true })
    expect(await lenient.read(hindi, 10, 20)).toEqual(files[hindi].slice(10, 20))
    expect(await lenient.read(hindi, 500, 600)).toEqual(files[hindi].slice(500, 600))
    expect(await lenient.read(hindi, 999, 1000)).toEqual(files[hindi].slice(999))
    expect(fileRequests().length).toBe(1)
    expect(lenient.counters).toEqual({ requests: 2, bytes: manifestBytes + 1000 })
    expect(await lenient.read(tricky, 5, 6)).toEqual(files[tricky].slice(5, 6)) // next file: plain GET, whole
    expect(fileRequests().map((r) => r.range)).toEqual(['bytes=10-19', null])
  })

  test('a Content-Range that differs from the request, or a short body, is detected', async () => {
    await serveDataset(faultSequence(undefined, { contentRange: 'bytes 0-99/1000' }, { contentRange: 'bytes 9-109/1000' }, { contentRange: 'bytes 10-109/999' }, { hideContentRange: true }, { hideContentRange: true, truncate: 1 }))
    const source = createHttpSource(server.url + 'version=0/', fast)
    await source.list()
    expect((await rejection(source.read(hindi, 10, 110))).message).toMatch(/answered Content-Range "bytes 0-99\/1000" to Range bytes=10-109 \(file of 1000 bytes\)$/)
    expect((await rejection(source.read(hindi, 10, 110))).message).toMatch(/answered Content-Range "bytes 9-109\/1000"/)
    expect((await rejection(source.read(hindi, 10, 110))).message).toMatch(/answered Content-Range "bytes 10-109\/999"/)
    expect(await source.read(hindi, 10, 110)).toEqual(files[hindi].slice(10, 110)) // unreadable Content-Range: length checked
    expect((await rejection(source.read(hindi, 10, 110))).message).toMatch(/sent 99 bytes for bytes=10-109, expected 100$/)
  })

  test('abort mid-request rejects with AbortError without any timer firing, and stops retries', async () => {
    await serveDataset(faultWhen(isRangeRead, { hang: true }))
    const timers = manualTimers()
    const source = createHttpSource(server.url + 'version=0/', { ...fast, timers })
    await source.list()
    const controller = new AbortController()
    const read = rejection(source.read(hindi, 0, 100, { signal: controller.signal }))
    await vi.waitFor(() => expect(fileRequests()).toHaveLength(1))
    controller.abort()
    // the server never answers and no timer fires: only the abort can settle the read
    expect((await read).name).toBe('AbortError')
    expect(timers.pending()).toEqual([]) // the timeout is cleared and no retry backoff is scheduled
    expect(fileRequests().length).toBe(1)
  })

  test('abort during the retry backoff stops at once', async () => {
    await serveDataset(faultWhen(isRangeRead, { status: 503 }))
    const timers = manualTimers()
    const source = createHttpSource(server.url + 'version=0/', { retryDelayMs: 10_000, timers })
    await source.list()
    const controller = new AbortController()
    const read = rejection(source.read(hindi, 0, 100, { signal: controller.signal }))
    // after the 503 the source sleeps 10 000 · (0.5…1) ms before its retry
    await vi.waitFor(() => expect(timers.pending().some((t) => t.ms >= 5000 && t.ms <= 10_000)).toBe(true))
    controller.abort()
    expect((await read).name).toBe('AbortError')
    expect(timers.pending()).toEqual([])
    expect(fileRequests().length).toBe(1)
  })
})

describe('http source: the dataset index', () => {
  test('readOptional is one plain GET (no Range); missing and 403 answers are absent; adoptListing replaces the manifest', async () => {
    const index = pattern(700, 9)
    await serveDataset(undefined, { 'version=0/_mixscope_index.parquet': index })
    const source = createHttpSource(server.url + 'version=0/', fast)
    expect(await source.readOptional!('_mixscope_index.parquet')).toEqual(index)
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: 'version=0/_mixscope_index.parquet', range: null })
    expect(await source.readOptional!('_other.parquet')).toBeNull()
    server.plan = faultWhen((r) => r.path.endsWith('forbidden.parquet'), { status: 403 })
    expect(await source.readOptional!('forbidden.parquet')).toBeNull()
    source.adoptListing!([{ path: hindi, size: 1000 }])
    expect(await source.list()).toEqual([{ path: hindi, size: 1000 }])
    expect(server.requests.filter((r) => r.path.endsWith(manifestNameForTest))).toEqual([])
    expect(await source.read(hindi, 0, 10)).toEqual(files[hindi].slice(0, 10))
    await expect(source.read(tricky, 0, 10)).rejects.toThrow(/is not listed/)
    expect(source.counters.requests).toBe(server.requests.length)
    // a one-file dataset has no root folder to hold an index: no request
    const before = server.requests.length
    expect(await createHttpSource(server.url + 'version=0/part.parquet', fast).readOptional!('_mixscope_index.parquet')).toBeNull()
    expect(server.requests.length).toBe(before)
  })
})

const manifestNameForTest = '_manifest.json'
