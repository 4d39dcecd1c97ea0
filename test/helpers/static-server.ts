/**
 * A small static file server with correct single-range support and CORS, for e2e tests and benchmarks
 * (vite/sirv mishandle `bytes=0-0` and suffix ranges: docs/browser-notes.md "HTTP range requests").
 * Run directly: `tsx test/helpers/static-server.ts <root> [port]`.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseRange } from '../../src/engine/node/serve-range.ts'

// one parser of Range headers: the one `mixscope serve` answers with (RFC 9110 §14.2; its cases: test/cli/serve-hostile.test.ts)
export { parseRange, type RangeRequest } from '../../src/engine/node/serve-range.ts'

/** CORS headers every answer carries, so a page on another origin can read ranges and their Content-Range. */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Range, If-None-Match, If-Modified-Since',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges, ETag',
  'Access-Control-Max-Age': '600',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // without it Chromium hides a cross-origin answer's `nextHopProtocol` (""), so the HTTP source cannot see HTTP/2
  'Timing-Allow-Origin': '*',
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.wasm': 'application/wasm', '.wgsl': 'text/plain; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet', '.flac': 'audio/flac', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.mp3': 'audio/mpeg',
}

/** A running server. */
export interface StaticServer {
  /** Base URL, ending in `/`, e.g. `http://127.0.0.1:41234/`. */
  url: string
  /** Number of requests served so far (benchmarks report it). */
  readonly requests: number
  /** Most requests being answered at the same time so far (a request ends when its answer does). */
  readonly maxActive: number
  close(): Promise<void>
}

/** Options of `startStaticServer`. */
export interface StaticServerOptions {
  root: string
  port?: number
  host?: string
  /** Adds COOP/COEP headers (for SharedArrayBuffer pages). */
  crossOriginIsolated?: boolean
  /** Waits this long before answering each request, as an object store's first byte does (~20–100 ms). */
  latencyMs?: number
  /** Serves HTTPS over HTTP/2 (HTTP/1.1 still accepted) with this key and certificate (`selfSignedCertificate`). */
  http2?: { key: string; cert: string }
  /** URL paths ending with one of these are answered 404, as if absent (a benchmark hides a dataset index so). */
  hide?: string[]
  /** Called as each request arrives, with its URL path (benchmarks count the requests before an event). */
  onRequest?: (path: string) => void
}

/**
 * Serves the files under `root` on `host` (default 127.0.0.1), `port` (default 0: any free port).
 * GET and HEAD, single ranges answered 206 with `Content-Range`, 416 past the end, a folder URL serves its
 * `index.html`, paths are percent-decoded per segment and cannot leave `root`.
 * `crossOriginIsolated` adds COOP/COEP headers (for SharedArrayBuffer pages).
 */
export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = resolve(options.root)
  let requests = 0
  let active = 0
  let maxActive = 0
  const handler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    requests++
    active++
    maxActive = Math.max(maxActive, active)
    res.once('close', () => active--)
    const path = (req.url ?? '/').split(/[?#]/, 1)[0]
    options.onRequest?.(path)
    const hidden = options.hide?.some((suffix) => path.endsWith(suffix))
    const answer = () => (hidden
      ? Promise.resolve(void (res as ServerResponse).writeHead(404, { ...corsHeaders, 'Content-Type': 'text/plain' }).end('hidden'))
      : serve(root, req as IncomingMessage, res as ServerResponse, options.crossOriginIsolated ?? false)).catch((error: Error) => {
      if (!res.headersSent) (res as ServerResponse).writeHead(500, corsHeaders).end(`static-server: ${error.message}`)
      else res.destroy(error)
    })
    if (options.latencyMs) setTimeout(answer, options.latencyMs)
    else void answer()
  }
  const server = options.http2
    ? createSecureServer({ key: options.http2.key, cert: options.http2.cert, allowHTTP1: true }, handler)
    : createServer(handler)
  const sockets = new Set<import('node:net').Socket>()
  server.on('connection', (socket: import('node:net').Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 0, host, () => ok())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `${options.http2 ? 'https' : 'http'}://${host}:${port}/`,
    get requests() { return requests },
    get maxActive() { return maxActive },
    close: () => new Promise<void>((ok, fail) => {
      server.close((error) => (error ? fail(error) : ok()))
      for (const socket of sockets) socket.destroy()
    }),
  }
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost (EC P-256, one day), made by `openssl` (.ci/run installs it)
 * into a temporary folder: for HTTPS/HTTP/2 test servers (Chromium then runs with `--ignore-certificate-errors`).
 */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const { execFile } = await import('node:child_process')
  const { mkdtemp, readFile, rm } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const dir = await mkdtemp(join(tmpdir(), 'mixscope-cert-'))
  try {
    await new Promise<void>((ok, fail) => execFile('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
      '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], (error) => (error ? fail(error) : ok())))
    return { key: await readFile(join(dir, 'key.pem'), 'utf8'), cert: await readFile(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function serve(root: string, req: IncomingMessage, res: ServerResponse, isolated: boolean): Promise<void> {
  const headers: Record<string, string> = { ...corsHeaders, 'Cache-Control': 'no-cache' }
  if (isolated) Object.assign(headers, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' })
  if (req.method === 'OPTIONS') return void res.writeHead(204, headers).end()
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { ...headers, Allow: 'GET, HEAD, OPTIONS' }).end()
  let file = localPath(root, req.url ?? '/')
  let info = file ? await stat(file).catch(() => null) : null
  if (file && info?.isDirectory()) {
    file = join(file, 'index.html')
    info = await stat(file).catch(() => null)
  }
  if (!file || !info?.isFile()) return void res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found')
  const size = info.size
  headers['Content-Type'] = contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream'
  headers['Accept-Ranges'] = 'bytes'
  headers['Last-Modified'] = info.mtime.toUTCString()
  const range = parseRange(req.headers.range, size)
  if (range.kind === 'unsatisfiable') {
    return void res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' }).end()
  }
  const [start, end, status] = range.kind === 'range' ? [range.start, range.end, 206] : [0, size - 1, 200]
  if (status === 206) headers['Content-Range'] = `bytes ${start}-${end}/${size}`
  headers['Content-Length'] = String(end - start + 1)
  res.writeHead(status, headers)
  if (req.method === 'HEAD' || end < start) return void res.end()
  createReadStream(file, { start, end }).on('error', (error) => res.destroy(error)).pipe(res)
}

/** Maps a request URL to a file under `root`, or null when it is malformed or would leave `root`. */
function localPath(root: string, url: string): string | null {
  const pathname = url.split(/[?#]/, 1)[0]
  let segments: string[]
  try {
    segments = pathname.split('/').filter((s) => s !== '').map(decodeURIComponent)
  } catch {
    return null
  }
  if (segments.some((s) => s === '..' || s === '.' || s.includes('/') || s.includes('\\') || s.includes('\0'))) return null
  const full = resolve(root, ...segments)
  return full === root || full.startsWith(root + sep) ? full : null
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir, port] = process.argv.slice(2)
  if (!dir) {
    console.error('usage: static-server <root> [port]')
    process.exit(2)
  }
  startStaticServer({ root: dir, port: port ? Number(port) : 0 }).then((s) => console.log(`serving ${resolve(dir)} at ${s.url}`))
}
