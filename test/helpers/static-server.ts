/**
 * A small static file server with correct single-range support and CORS, for e2e tests and benchmarks
 * (vite/sirv mishandle `bytes=0-0` and suffix ranges: docs/browser-notes.md "HTTP range requests").
 * Run directly: `tsx test/helpers/static-server.ts <root> [port]`.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'

/** What a `Range` header asks of a file of known size (RFC 9110 §14.2). */
export type RangeRequest =
  | { kind: 'whole' } // no Range, or one to ignore (multi-range, malformed): answer 200
  | { kind: 'range'; start: number; end: number } // inclusive byte positions: answer 206
  | { kind: 'unsatisfiable' } // answer 416 with `Content-Range: bytes */size`

/** Reads a `Range` header against a file of `size` bytes: one range only (`a-b`, `a-`, `-n`). */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  const m = header?.trim().match(/^bytes=(\d*)-(\d*)$/)
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' }
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Number(m[2])
  if (end < start) return { kind: 'whole' }
  if (start >= size) return { kind: 'unsatisfiable' }
  return { kind: 'range', start, end: Math.min(end, size - 1) }
}

/** CORS headers every answer carries, so a page on another origin can read ranges and their Content-Range. */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Range, If-None-Match, If-Modified-Since',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges, ETag',
  'Access-Control-Max-Age': '600',
  'Cross-Origin-Resource-Policy': 'cross-origin',
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
  close(): Promise<void>
}

/**
 * Serves the files under `root` on `host` (default 127.0.0.1), `port` (default 0: any free port).
 * GET and HEAD, single ranges answered 206 with `Content-Range`, 416 past the end, a folder URL serves its
 * `index.html`, paths are percent-decoded per segment and cannot leave `root`.
 * `crossOriginIsolated` adds COOP/COEP headers (for SharedArrayBuffer pages).
 */
export async function startStaticServer(options: { root: string; port?: number; host?: string; crossOriginIsolated?: boolean }): Promise<StaticServer> {
  const root = resolve(options.root)
  let requests = 0
  const server = createServer((req, res) => {
    requests++
    serve(root, req, res, options.crossOriginIsolated ?? false).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, corsHeaders).end(`static-server: ${error.message}`)
      else res.destroy(error)
    })
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 0, host, () => ok())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/`,
    get requests() { return requests },
    close: () => new Promise<void>((ok, fail) => {
      server.close((error) => (error ? fail(error) : ok()))
      server.closeAllConnections()
    }),
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
