/**
 * `mixscope serve`: a read-only HTTP server for one dataset folder and the built explorer, for looking at data on
 * another machine (an SSH tunnel from a laptop) where a plain static server fails on CORS or `Range`
 * (docs/browser-notes.md "HTTP range requests"). The dataset is served under `/data/<folder name>/` the way the HTTP
 * source reads it (docs/conventions.md "HTTP datasets"): single ranges, CORS with `Content-Range` exposed, a
 * `_manifest.json` built from the folder, the folder's own `_mixscope_index.parquet` and `_mixscope_audit.json` as
 * they are, and the stats TSV beside a `version=N` root at `/data/language_distribution_N.tsv`. Only GET, HEAD and
 * OPTIONS; nothing outside the folder (or the app's folder) is read (`./serve-paths.ts`).
 */
import { stat, realpath } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { basename, dirname, join, resolve } from 'node:path'
import { MixscopeError } from '../core/findings.ts'
import { encodePath } from '../source/http-source.ts'
import { indexFileName } from '../source/index-file-name.ts'
import { isIgnoredPath, manifestName } from '../source/manifest.ts'
import { etagMatches, sendFile } from './serve-file.ts'
import { manifestCache, type BuiltManifest } from './serve-manifest.ts'
import { parseRequestPath, resolveInside } from './serve-paths.ts'

/** Settings of `createDatasetServer`. */
export interface DatasetServerOptions {
  /** The dataset folder to serve (read only). */
  root: string
  /** The built explorer (`dist/` of `vite build`), served under `/`; null or a missing folder serves a notice there. */
  appDir?: string | null
  /** Address to listen on. Default `127.0.0.1` (this machine only); `0.0.0.0` must be asked for. */
  host?: string
  /** TCP port; 0 picks any free one. Default 8080. */
  port?: number
  /** Longest a built `_manifest.json` is answered before the folder is walked again, in ms. Default 2000. */
  manifestMaxAgeMs?: number
}

/** A running server. */
export interface DatasetServer {
  /** The server's base URL, ending in `/` (`http://127.0.0.1:8080/`). */
  url: string
  /** The dataset's URL, what the HTTP source opens (`<url>data/version%3D0/`, `=` left as is). */
  dataUrl: string
  /** The page to open: the explorer with the dataset named (`<url>?dataset=/data/<name>/`), or null without an app. */
  openUrl: string | null
  /** The first manifest, built before listening (file count, links left out). */
  manifest: BuiltManifest
  /** Stops listening and ends every open connection. */
  close(): Promise<void>
}

/** CORS headers on every answer: any page may read the data, its ranges and their `Content-Range`. */
const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // without it Chromium hides a cross-origin answer's `nextHopProtocol` (docs/browser-notes.md)
  'Timing-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
}

/** Files of the root that start with `_` and are served as they are (the rest of `.`/`_` paths are not). */
const servedHidden = new Set([indexFileName, '_mixscope_audit.json'])

/**
 * Starts serving `root` (and `appDir`) on `host:port`. The first manifest is built before the server listens, so a
 * folder that cannot be walked fails here.
 * @throws MixscopeError `serve-root` (exit class `io`) when `root` is not a folder, `serve-listen` when the address
 *   cannot be bound (in use, not local)
 */
export async function createDatasetServer(options: DatasetServerOptions): Promise<DatasetServer> {
  const given = resolve(options.root)
  const info = await stat(given).catch((error: NodeJS.ErrnoException) => {
    throw new MixscopeError(`serve: cannot open "${options.root}" (${error.code ?? error.message})`, 'serve-root', 'io')
  })
  if (!info.isDirectory()) throw new MixscopeError(`serve: "${options.root}" is not a folder`, 'serve-root', 'io')
  const root = await realpath(given)
  const name = basename(given) || 'dataset'
  const parent = await realpath(dirname(given))
  const versionRoot = /^version=/.test(name)
  const appDir = options.appDir ? await realpath(options.appDir).catch(() => null) : null
  const app = appDir !== null && (await stat(join(appDir, 'index.html')).catch(() => null))?.isFile() === true ? appDir : null
  const manifest = manifestCache(root, options.manifestMaxAgeMs ?? 2000)
  const first = await manifest()

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const headers = { ...corsHeaders }
    const method = req.method ?? ''
    const fail = (status: number, text: string) => {
      const body = method === 'HEAD' ? undefined : `${text}\n`
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(body)
    }
    if (method === 'OPTIONS') {
      // a preflight for the `Range` header (and the validators a browser adds)
      const preflight: Record<string, string> = {
        ...headers,
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': 'Range, If-None-Match, If-Modified-Since, If-Range',
        'Access-Control-Max-Age': '600',
        'Content-Length': '0',
      }
      // Chromium's Private Network Access preflight, for an app served from another origin
      if (req.headers['access-control-request-private-network'] === 'true') preflight['Access-Control-Allow-Private-Network'] = 'true'
      return void res.writeHead(204, preflight).end()
    }
    if (method !== 'GET' && method !== 'HEAD') {
      headers.Allow = 'GET, HEAD, OPTIONS'
      return fail(405, `serve: method ${JSON.stringify(method.slice(0, 20))} not allowed (read only: GET, HEAD, OPTIONS)`)
    }
    const target = parseRequestPath(req.url ?? '')
    if (!target.ok) return fail(403, `serve: refused: ${target.reason}`)
    const { segments, folder } = target
    /** Answers the file `parts` name under `base`; a folder URL (`…/`) names no file. */
    const sendInside = async (base: string, parts: string[], isFolder = folder): Promise<void> => {
      const found = await resolveInside(base, parts)
      if (found.kind === 'outside') return fail(403, 'serve: refused: a link leading out of the served folder')
      if (found.kind === 'missing' || isFolder || !(await sendFile(req, res, found.path, headers))) return fail(404, 'serve: not found')
    }
    if (segments[0] === 'data') {
      if (segments.length === 2 && versionRoot && /^language_distribution_[^/]*\.tsv$/.test(segments[1])) {
        return sendInside(parent, [segments[1]])
      }
      if (segments[1] !== name || segments.length < 3) return fail(404, `serve: not found; the dataset is at /data/${encodePath(name)}/`)
      const rest = segments.slice(2)
      const path = rest.join('/')
      if (path === manifestName && !folder) {
        const built = await manifest()
        const out = { ...headers, 'Content-Type': 'application/json; charset=utf-8', ETag: built.etag, 'Cache-Control': 'no-cache' }
        if (etagMatches(req.headers['if-none-match'], built.etag)) return void res.writeHead(304, out).end()
        res.writeHead(200, { ...out, 'Content-Length': String(built.body.length) })
        return void res.end(method === 'HEAD' ? undefined : built.body)
      }
      if (isIgnoredPath(path) && !servedHidden.has(path)) return fail(404, 'serve: not found (paths starting with "." or "_" are not served)')
      return sendInside(root, rest)
    }
    if (app === null) {
      if (segments.length > 0) return fail(404, 'serve: not found')
      headers['Content-Type'] = 'text/plain; charset=utf-8'
      return fail(200, appMissingNotice(name))
    }
    return segments.length === 0 ? sendInside(app, ['index.html'], false) : sendInside(app, segments)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { ...corsHeaders, 'Content-Type': 'text/plain; charset=utf-8' }).end(`serve: ${error.message}\n`)
      else res.destroy()
    })
  })
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 8080
  await new Promise<void>((ok, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      fail(new MixscopeError(`serve: cannot listen on ${host}:${port} (${error.code ?? error.message})`, 'serve-listen', 'io'))
    })
    server.listen(port, host, () => ok())
  })
  const bound = (server.address() as AddressInfo).port
  const url = `http://${urlHost(host)}:${bound}/`
  const dataPath = `/data/${encodePath(name)}/`
  return {
    url,
    dataUrl: new URL(dataPath, url).href,
    openUrl: app === null ? null : `${url}?dataset=${dataPath.replaceAll('%', '%25')}`,
    manifest: first,
    close: () => new Promise<void>((ok) => {
      server.close(() => ok())
      for (const socket of sockets) socket.destroy()
    }),
  }
}

/** The host as written in a URL: an unspecified address as the loopback one, an IPv6 literal in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

function appMissingNotice(name: string): string {
  return `mixscope serve: the explorer is not built here (no dist/index.html). The dataset is served at /data/${encodePath(name)}/:\n` +
    'build the app with "npx vite build" in the mixscope checkout and restart, or open any mixscope explorer with\n' +
    `?dataset=<this server>/data/${encodePath(name)}/`
}
