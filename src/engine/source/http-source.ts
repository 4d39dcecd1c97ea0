/**
 * HTTP source: a dataset on a static web server (docs/conventions.md "HTTP datasets").
 * The file list is `<root>_manifest.json`; bytes come from explicit `Range: bytes=a-b` requests, checked
 * against what was asked, with bounded retries, a per-request timeout and a cap on requests in flight.
 */
import { MixscopeError } from '../core/findings.ts'
import { manifestName, parseManifest } from './manifest.ts'
import { indexFileName } from './index-file-name.ts'
import { checkReadRange } from './memory-source.ts'
import { newCounters, throwIfAborted } from './source.ts'
import type { DatasetSource, ReadOptions, SourceFile } from './source.ts'
import { mulberry32 } from '../random/mulberry32.ts'
import { abortReason, createLimiter, globalTimers, sleep, timeoutScope, type Timers } from './request-control.ts'

/** Settings for `createHttpSource`. */
export interface HttpSourceOptions {
  /** The fetch to use (tests pass their own); default `globalThis.fetch`. */
  fetch?: typeof fetch
  /** Resolves a relative `url`; default `globalThis.location.href` (the page or worker). */
  baseUrl?: string
  /**
   * Most bytes of a document read whole (`_manifest.json`, the dataset index, a stats TSV); a longer or endless body
   * is cut off there with an `http-body-too-large` error. Range reads are held to the bytes asked. Default 256 MiB.
   */
  maxDocumentBytes?: number
  /** Per-request limit in ms, covering the response and its body; timeouts are not retried. Default 30 000. */
  timeoutMs?: number
  /** Extra attempts after a network error or a 5xx/429 answer. Default 3. */
  retries?: number
  /** First backoff in ms; attempt k waits `retryDelayMs · 2^k · (0.5…1)` (deterministic jitter). Default 100. */
  retryDelayMs?: number
  /** Requests in flight at most (others queue). Default 6 (what a browser opens per host over HTTP/1.1). */
  concurrency?: number
  /**
   * Requests in flight at most once the server is seen answering over HTTP/2 or HTTP/3 (one connection carries many
   * streams). Default 64; set it to `concurrency` to keep the cap fixed.
   */
  http2Concurrency?: number
  /**
   * The protocol a URL was fetched over (`h2`, `http/1.1`, …), or null when unknown. Default: the Resource Timing
   * entry's `nextHopProtocol` (browsers, Node); tests pass their own.
   */
  protocolOf?: (url: string) => string | null
  /** The fetch `cache` mode of range reads (`no-store` keeps the browser's HTTP cache out of the way). Default unset. */
  cache?: RequestCache
  /**
   * When the server ignores `Range` (answers 200 with the whole file), download each file once and serve
   * slices from memory instead of failing. The UI asks the user first: files can be large. Default false.
   */
  allowWholeFileReads?: boolean
  /** Called once, the first time the server is seen ignoring `Range` (before the error, or before whole-file mode). */
  onRangeIgnored?: (info: { url: string; path: string; size: number }) => void
  /**
   * Origins (`https://cdn.example.org`) a redirect may lead to besides the dataset's own; `['*']` allows any. A redirect
   * to any other origin is refused (`http-redirect-other-origin`): the data is read from where the user pointed, not
   * wherever a server sends it (docs/hostile-input.md). Default none.
   */
  redirectOrigins?: readonly string[]
  /** Seed of the backoff jitter. Default 1. */
  jitterSeed?: number
  /** Timers for the request timeout and the retry backoff (tests pass manual ones). Default the runtime's. */
  timers?: Timers
}

/** Where the source points: a folder URL, or one `.parquet` file. */
interface Target {
  /** Root URL without query, ending in `/` for a folder. */
  root: string
  rootName: string
  /** The root URL's query (`?…` or `''`), repeated on every request. */
  search: string
  /** One-file dataset: its path (decoded base name). */
  singlePath: string | null
  /** The folder beside which `readSibling` looks, or null at the host root. */
  parent: string | null
}

const defaults = { timeoutMs: 30_000, retries: 3, retryDelayMs: 100, concurrency: 6, http2Concurrency: 64, maxDocumentBytes: 256 * 1024 * 1024 }

/**
 * Creates a source for the dataset at `url`: a folder (a missing trailing `/` is added) with `_manifest.json`,
 * or a URL ending in `.parquet` (a one-file dataset; its size from HEAD's Content-Length or a first range read).
 * Nothing is fetched until `list`/`read`. `counters.requests` counts every HTTP request sent (retries, HEAD and
 * the manifest included); `counters.bytes` counts body bytes received in successful answers.
 * Errors are MixscopeError with exit class `io` (`usage` for a bad URL); a caller's abort rejects with its reason
 * (an `AbortError`) and stops retries.
 */
export function createHttpSource(url: string, options: HttpSourceOptions = {}): DatasetSource {
  const target = parseTarget(url, options.baseUrl)
  const settings = { ...defaults, ...definedOnly(options) }
  const timers = options.timers ?? globalTimers
  checkSettings(settings)
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const counters = newCounters()
  const limit = createLimiter(settings.concurrency)
  const random = mulberry32(options.jitterSeed ?? 1)
  const protocolOf = options.protocolOf ?? resourceTimingProtocol
  let protocol: string | null = null
  let protocolLooks = 0
  /**
   * After the first answers: over HTTP/2 or 3, many requests share a connection, so more may be in flight. The
   * Resource Timing entry appears once a body is read; a few answers are looked at before giving up.
   */
  const learnProtocol = (requestUrl: string) => {
    if (protocol !== null || protocolLooks++ >= 8) return
    protocol = protocolOf(requestUrl)
    if (protocol && /^h[23]/i.test(protocol) && settings.http2Concurrency > limit.max) limit.setMax(settings.http2Concurrency)
  }
  const fileUrl = (path: string): string =>
    target.singlePath !== null ? target.root + target.search : target.root + encodePath(path) + target.search

  /** Sends one request with retries; `consume` reads a 2xx answer. 404 (or an HTML page) gives null when `allowNotFound`. */
  async function send<T>(requestUrl: string, init: RequestInit, signal: AbortSignal | undefined,
    consume: (response: Response) => Promise<T>, allowNotFound = false, background = false,
    onUnsatisfiable?: (response: Response) => MixscopeError): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const release = await limit(signal, background)
      const scope = timeoutScope(signal, settings.timeoutMs, timers)
      let retryReason: string
      try {
        counters.requests++
        const response = await doFetch(requestUrl, { ...init, ...(options.cache ? { cache: options.cache } : {}), signal: scope.signal })
        await refuseOtherOrigin(requestUrl, response, options.redirectOrigins)
        if (response.ok && allowNotFound && /^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
          // a single-page-app host answers missing files with its index.html: a manifest or TSV is never HTML
          await response.body?.cancel().catch(() => {})
          return null
        }
        if (response.ok) {
          const result = await consume(response)
          learnProtocol(requestUrl)
          return result
        }
        await response.body?.cancel().catch(() => {})
        if (response.status === 404 && allowNotFound) return null
        if (response.status === 416 && onUnsatisfiable) throw onUnsatisfiable(response)
        if (response.status < 500 && response.status !== 429) throw statusError(requestUrl, response, init)
        retryReason = `${response.status} ${response.statusText}`.trim()
        if (attempt >= settings.retries) {
          throw new MixscopeError(`http: ${requestUrl} failed with ${retryReason} after ${attempt + 1} attempts`, 'http-server-error', 'io')
        }
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal)
        if (scope.timedOut()) {
          throw new MixscopeError(`http: ${requestUrl} timed out after ${settings.timeoutMs} ms`, 'http-timeout', 'io')
        }
        if (error instanceof MixscopeError) throw error
        retryReason = (error as Error).message
        if (attempt >= settings.retries) {
          throw new MixscopeError(`http: cannot reach ${requestUrl}: network error or CORS blocked (the server must send ` +
            `Access-Control-Allow-Origin and expose Content-Range) after ${attempt + 1} attempts: ${retryReason}`, 'http-unreachable', 'io')
        }
      } finally {
        scope.dispose()
        release()
      }
      await sleep(settings.retryDelayMs * 2 ** attempt * (0.5 + 0.5 * random()), signal, timers)
    }
  }

  /** The body, streamed and cut off past `limit` bytes (a range's length, a file's size, or the document cap). */
  const readBody = async (response: Response, limit: number = settings.maxDocumentBytes): Promise<Uint8Array> => {
    const bytes = await readLimitedBody(response, limit)
    counters.bytes += bytes.length
    return bytes
  }

  let listing: Promise<Map<string, number>> | null = null
  /** Where the sizes came from: the manifest, the dataset index (`adoptListing`), or HEAD for one file. */
  let listedBy: 'manifest' | 'index' | 'head' = target.singlePath !== null ? 'head' : 'manifest'
  /**
   * A file whose size on the server is not the listed one: the listing is stale (the data changed after it was
   * written; docs/conventions.md "HTTP datasets"). The message says which file and what to rerun.
   */
  const staleListing = (what: string, path: string, actual: number | null, listed: number): MixscopeError => {
    const server = actual === null ? 'of another size on the server' : `${actual} bytes on the server`
    const fix = listedBy === 'index'
      ? 'the dataset index is stale: rerun `mixscope index <folder>`'
      : listedBy === 'manifest'
        ? 'the manifest is stale: rerun `mixscope manifest <folder>` (or serve the folder with `mixscope serve <folder>`, which writes none)'
        : 'the file changed while it was read'
    const list = listedBy === 'index' ? indexFileName : listedBy === 'manifest' ? manifestName : 'HEAD'
    return new MixscopeError(`http: ${what}: "${path}" is ${server}, but ${list} gives ${listed} bytes; ${fix}`, 'http-stale-listing', 'io')
  }
  const sizes = (signal?: AbortSignal): Promise<Map<string, number>> => {
    if (!listing) {
      listing = target.singlePath !== null ? singleFileSize(signal) : fetchManifest(signal)
      listing.catch(() => { listing = null })
    }
    return listing
  }

  async function fetchManifest(signal?: AbortSignal): Promise<Map<string, number>> {
    const manifestUrl = target.root + manifestName + target.search
    const text = await send(manifestUrl, {}, signal, async (r) => new TextDecoder().decode(await readBody(r)), true)
    if (text === null) {
      throw new MixscopeError(`http: neither ${target.root}${indexFileName} nor ${manifestName} found (404): an HTTP dataset needs its ` +
        `index or its manifest in its root (write the index with "mixscope index <folder>", or the file list alone with ` +
        '"mixscope manifest <folder>", then serve them with the folder; or serve the folder with "mixscope serve <folder>", ' +
        'which needs neither)', 'http-no-manifest', 'io')
    }
    const manifest = parseManifest(text, manifestUrl)
    const bad = manifest.files.find((f) => f.path.startsWith('/') || f.path.split('/').some((s) => s === '' || s === '.' || s === '..'))
    if (bad) throw new MixscopeError(`manifest: ${manifestUrl} lists path "${bad.path}", expected a plain relative path`, 'bad-manifest', 'io')
    return new Map(manifest.files.map((f) => [f.path, f.size]))
  }

  async function singleFileSize(signal?: AbortSignal): Promise<Map<string, number>> {
    const path = target.singlePath as string
    const requestUrl = fileUrl(path)
    const headSize = await send(requestUrl, { method: 'HEAD' }, signal, async (r) => integerHeader(r, 'content-length'))
      .catch((error: unknown) => {
        if (error instanceof MixscopeError && error.kind === 'http-status') return null // HEAD refused (405, 501)
        throw error
      })
    const size = headSize ?? await send(requestUrl, { headers: { Range: 'bytes=0-1' } }, signal, async (r) => {
      const range = parseContentRange(r.headers.get('content-range'))
      await r.body?.cancel().catch(() => {})
      return r.status === 206 ? range?.total ?? null : integerHeader(r, 'content-length')
    })
    if (size === null || size === undefined) {
      throw new MixscopeError(`http: cannot learn the size of ${requestUrl}: no Content-Length on HEAD and no readable ` +
        'Content-Range (the server must expose Content-Range)', 'http-no-size', 'io')
    }
    return new Map([[path, size]])
  }

  let rangeIgnored = false
  const wholeFiles = new Map<string, Promise<Uint8Array>>()

  function noteRangeIgnored(requestUrl: string, path: string, size: number): void {
    if (!rangeIgnored) options.onRangeIgnored?.({ url: requestUrl, path, size })
    rangeIgnored = true
    if (!options.allowWholeFileReads) {
      throw new MixscopeError(`http: the server ignores Range requests (${requestUrl} answered 200 with the whole file ` +
        `of ${size} bytes); reading would download whole files`, 'http-range-ignored', 'io')
    }
  }

  function wholeFile(path: string, size: number, signal?: AbortSignal): Promise<Uint8Array> {
    let pending = wholeFiles.get(path)
    if (!pending) {
      const requestUrl = fileUrl(path)
      pending = send(requestUrl, {}, signal, async (r) => checkLength(requestUrl, await readBody(r, size), size, 'the whole file'))
        .then((bytes) => bytes as Uint8Array)
      pending.catch(() => wholeFiles.delete(path))
      wholeFiles.set(path, pending)
    }
    return pending
  }

  /** One range request for `[a, b)` (b − a ≥ 2; b may pass the end of a 1-byte file), checked against the answer. */
  async function fetchRange(path: string, a: number, b: number, size: number, signal?: AbortSignal, background = false): Promise<Uint8Array> {
    const requestUrl = fileUrl(path)
    const asked = `bytes=${a}-${b - 1}`
    const stop = Math.min(b, size)
    const bytes = await send(requestUrl, { headers: { Range: asked } }, signal, async (r) => {
      if (r.status === 206) {
        const range = parseContentRange(r.headers.get('content-range'))
        if (range && range.total !== null && range.total !== size) {
          await r.body?.cancel().catch(() => {})
          throw staleListing(`${requestUrl} answered Content-Range "${r.headers.get('content-range')}" to Range ${asked}`, path, range.total, size)
        }
        if (range && (range.first !== a || range.last !== stop - 1)) {
          await r.body?.cancel().catch(() => {})
          throw new MixscopeError(`http: ${requestUrl} answered Content-Range "${r.headers.get('content-range')}" to Range ` +
            `${asked} (file of ${size} bytes)`, 'http-range-mismatch', 'io')
        }
        return checkLength(requestUrl, await readBody(r, stop - a), stop - a, asked)
      }
      if (r.status === 200 && a === 0 && b >= size) return checkLength(requestUrl, await readBody(r, size), size, 'the whole file')
      if (r.status !== 200) throw statusError(requestUrl, r, { headers: { Range: asked } })
      if (!options.allowWholeFileReads) await r.body?.cancel().catch(() => {})
      noteRangeIgnored(requestUrl, path, size)
      const whole = checkLength(requestUrl, await readBody(r, size), size, 'the whole file')
      if (!wholeFiles.has(path)) wholeFiles.set(path, Promise.resolve(whole))
      return whole.slice(a, stop)
    }, false, background, (r) => {
      // 416: the server's file ends before the range the listing allows
      const total = /^bytes \*\/(\d+)$/i.exec(r.headers.get('content-range')?.trim() ?? '')
      return staleListing(`${requestUrl} answered 416 (range not satisfiable) to Range ${asked}`, path, total ? Number(total[1]) : null, size)
    })
    return bytes as Uint8Array
  }

  return {
    kind: 'http',
    root: target.root + target.search,
    rootName: target.rootName,
    counters,
    get parallelism() { return limit.max },
    async list(opts?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(opts?.signal)
      return [...await sizes(opts?.signal)].map(([path, size]) => ({ path, size }))
    },
    async read(path: string, start: number, end: number, opts?: ReadOptions): Promise<Uint8Array> {
      const signal = opts?.signal
      const background = opts?.background ?? false
      throwIfAborted(signal)
      checkReadRange(path, start, end)
      const size = (await sizes(signal)).get(path)
      if (size === undefined) {
        throw new MixscopeError(`http: "${path}" is not listed in ${target.singlePath !== null ? target.root : target.root + manifestName}`, 'file-not-found', 'io')
      }
      const stop = Math.min(end, size)
      if (stop <= start) return new Uint8Array(0)
      if (rangeIgnored && options.allowWholeFileReads) return (await wholeFile(path, size, signal)).slice(start, stop)
      if (stop - start >= 2) return fetchRange(path, start, stop, size, signal, background)
      // never `bytes=a-a` (vite/sirv answer `bytes=0-0` with the whole file): ask for 2 bytes, keep the one wanted
      if (start > 0) return (await fetchRange(path, start - 1, start + 1, size, signal, background)).slice(1)
      return (await fetchRange(path, 0, 2, size, signal, background)).slice(0, 1)
    },
    async readSibling(name: string, opts?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(opts?.signal)
      if (target.parent === null || name.includes('/') || name === '.' || name === '..') return null
      return send(target.parent + encodeSegment(name) + target.search, {}, opts?.signal, (r) => readBody(r), true)
    },
    async readOptional(path: string, opts?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(opts?.signal)
      if (target.singlePath !== null) return null
      // one plain GET for the whole file: the index is read whole, and its size is not known before. A 403 counts as
      // absent too: object stores without list permission answer a missing key so
      return send(fileUrl(path), {}, opts?.signal, (r) => readBody(r), true).catch((error: unknown) => {
        if (error instanceof MixscopeError && error.kind === 'http-forbidden') return null
        throw error
      })
    },
    adoptListing(files: SourceFile[]): void {
      if (target.singlePath !== null) return
      listing = Promise.resolve(new Map(files.map((f) => [f.path, f.size])))
      listedBy = 'index'
    },
  }
}

/** `nextHopProtocol` of the Resource Timing entry of `url` (the last one), or null where the runtime has none. */
function resourceTimingProtocol(url: string): string | null {
  const perf = (globalThis as { performance?: { getEntriesByName?: (name: string) => { nextHopProtocol?: string }[] } }).performance
  const entries = perf?.getEntriesByName?.(url)
  return entries && entries.length > 0 ? entries[entries.length - 1].nextHopProtocol || null : null
}

/** Percent-encodes each `/`-separated segment of a relative path (`=` stays, `%` becomes `%25`, UTF-8 for the rest). */
export function encodePath(path: string): string {
  return path.split('/').map(encodeSegment).join('/')
}

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replaceAll('%3D', '=')
}

function parseTarget(url: string, baseUrl?: string): Target {
  let parsed: URL
  try {
    parsed = new URL(url, baseUrl ?? (globalThis as { location?: { href: string } }).location?.href)
  } catch {
    throw new MixscopeError(`http: "${url}" is not an absolute URL`, 'http-bad-url', 'usage')
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new MixscopeError(`http: "${url}" is not an http(s) URL`, 'http-bad-url', 'usage')
  }
  const search = parsed.search
  parsed.search = ''
  parsed.hash = ''
  const single = parsed.pathname.toLowerCase().endsWith('.parquet')
  if (!single && !parsed.pathname.endsWith('/')) parsed.pathname += '/'
  const segments = parsed.pathname.split('/').filter((s) => s !== '')
  const last = segments.at(-1)
  const name = last === undefined ? parsed.host : safeDecode(last)
  const parentUrl = single ? new URL('./', parsed).href : segments.length > 0 ? new URL('../', parsed).href : null
  return { root: parsed.href, rootName: name, search, singlePath: single ? name : null, parent: parentUrl }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

function statusError(url: string, response: Response, init: RequestInit): MixscopeError {
  const status = response.status
  if (status === 404) return new MixscopeError(`http: ${url} not found (404)`, 'http-not-found', 'io')
  if (status === 403) return new MixscopeError(`http: ${url} forbidden (403): the server refuses to serve it`, 'http-forbidden', 'io')
  if (status === 401) return new MixscopeError(`http: ${url} needs authorization (401)`, 'http-forbidden', 'io')
  const range = new Headers(init.headers).get('range')
  const asked = range ? ` to Range ${range}` : ''
  return new MixscopeError(`http: ${url} answered ${status} ${response.statusText}${asked}`.trim(), 'http-status', 'io')
}

/**
 * Reads a response body as a stream and stops (cancelling the rest) once it passes `limit` bytes, so an endless or
 * oversized body costs at most `limit` bytes of memory; a `Content-Length` above `limit` is refused before reading.
 * @throws MixscopeError `http-body-too-large` naming the URL and the limit
 */
export async function readLimitedBody(response: Response, limit: number): Promise<Uint8Array> {
  const tooLarge = (what: string) => new MixscopeError(`http: ${response.url || 'the server'} ${what}, more than the ${limit} bytes expected`, 'http-body-too-large', 'io')
  const declared = integerHeader(response, 'content-length')
  if (declared !== null && declared > limit && !response.headers.get('content-encoding')) {
    await response.body?.cancel().catch(() => {})
    throw tooLarge(`declares a body of ${declared} bytes`)
  }
  if (!response.body) {
    const bytes = new Uint8Array(await response.arrayBuffer())
    if (bytes.length > limit) throw tooLarge(`sent ${bytes.length} bytes`)
    return bytes
  }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(`sent at least ${total} bytes`)
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/**
 * GETs one small document (a stats TSV named by `--summary` or a recipe) with a timeout and a size cap: a server that
 * never answers, drips or streams without end is an error within `timeoutMs`, in at most `maxBytes` of memory.
 * @throws MixscopeError `http-timeout`, `http-body-too-large`, `http-not-found`/`http-status`, `http-unreachable`
 */
export async function fetchDocument(url: string, options: { timeoutMs?: number; maxBytes?: number; signal?: AbortSignal; fetch?: typeof fetch; redirectOrigins?: readonly string[] } = {}): Promise<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs
  const scope = timeoutScope(options.signal, timeoutMs)
  try {
    const response = await (options.fetch ?? fetch)(url, { signal: scope.signal, redirect: 'follow' })
    await refuseOtherOrigin(url, response, options.redirectOrigins)
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      throw statusError(url, response, {})
    }
    return await readLimitedBody(response, options.maxBytes ?? 64 * 1024 * 1024)
  } catch (error) {
    if (scope.timedOut()) throw new MixscopeError(`http: ${url} timed out after ${timeoutMs} ms`, 'http-timeout', 'io')
    if (options.signal?.aborted) throw abortReason(options.signal)
    if (error instanceof MixscopeError) throw error
    throw new MixscopeError(`http: cannot reach ${url}: ${(error as Error).message}`, 'http-unreachable', 'io')
  } finally {
    scope.dispose()
  }
}

/**
 * Refuses an answer that a redirect brought from another origin than the request's, unless `allowed` lists that
 * origin (or `*`); its body is not read.
 * @throws MixscopeError `http-redirect-other-origin` naming both URLs and how to allow the origin
 */
async function refuseOtherOrigin(requestUrl: string, response: Response, allowed: readonly string[] = []): Promise<void> {
  if (!response.redirected || !response.url) return
  const from = new URL(requestUrl).origin
  const to = new URL(response.url).origin
  if (to === from || allowed.includes('*') || allowed.some((o) => originOf(o) === to)) return
  await response.body?.cancel().catch(() => {})
  throw new MixscopeError(`http: ${requestUrl} redirected to ${response.url}, another origin than the dataset's (${from}); ` +
    `mixscope reads only from the origin it was given. To allow ${to}: MIXSCOPE_REDIRECT_ORIGINS=${to} (CLI), ` +
    `?redirect_origins=${encodeURIComponent(to)} (explorer)`, 'http-redirect-other-origin', 'io')
}

/** The origin of `value` (`https://a.org/x` → `https://a.org`), or `value` when it is not a URL. */
function originOf(value: string): string {
  try {
    return new URL(value).origin
  } catch {
    return value
  }
}

function checkLength(url: string, bytes: Uint8Array, expected: number, what: string): Uint8Array {
  if (bytes.length !== expected) {
    throw new MixscopeError(`http: ${url} sent ${bytes.length} bytes for ${what}, expected ${expected}`, 'http-range-mismatch', 'io')
  }
  return bytes
}

/** `Content-Range: bytes a-b/total` (total may be `*`); null when absent or unreadable. */
export function parseContentRange(header: string | null): { first: number; last: number; total: number | null } | null {
  const m = header?.trim().match(/^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i)
  if (!m) return null
  return { first: Number(m[1]), last: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) }
}

function integerHeader(response: Response, name: string): number | null {
  const value = response.headers.get(name)
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null
}

function checkSettings(s: typeof defaults): void {
  const bad = (name: string, value: number, expected: string) =>
    new MixscopeError(`http: option ${name} is ${value}, expected ${expected}`, 'http-bad-option', 'usage')
  if (!(s.timeoutMs > 0)) throw bad('timeoutMs', s.timeoutMs, 'a positive number of ms')
  if (!Number.isInteger(s.retries) || s.retries < 0) throw bad('retries', s.retries, 'an integer ≥ 0')
  if (!(s.retryDelayMs >= 0)) throw bad('retryDelayMs', s.retryDelayMs, 'a number of ms ≥ 0')
  if (!Number.isInteger(s.concurrency) || s.concurrency < 1) throw bad('concurrency', s.concurrency, 'an integer ≥ 1')
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
