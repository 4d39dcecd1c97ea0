/**
 * One file answered by `mixscope serve`: opened without following a final symlink and without blocking (a FIFO is
 * never waited on), checked to be a regular file by `fstat` on the open descriptor, then streamed from it with
 * `start`/`end` (memory bounded by the stream's buffer, whatever the file's size). Single ranges as
 * `./serve-range.ts` reads them; `ETag` and `Last-Modified` from the descriptor's size and mtime, so a changed file
 * gets a new validator and a client's `Content-Range` check sees its new size.
 */
import { constants } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { parseRange } from './serve-range.ts'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.wasm': 'application/wasm', '.woff2': 'font/woff2',
  '.parquet': 'application/vnd.apache.parquet', '.flac': 'audio/flac', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.mp3': 'audio/mpeg',
}

/** The validator of a file of `size` bytes last modified at `mtimeMs` (ms since the epoch): `"<size>-<mtime>"` in hex. */
export function fileEtag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`
}

/** True when an `If-None-Match` header names `etag` (or is `*`); weak tags compare by their opaque part. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === '*' || t === etag)
}

/**
 * Answers `req` with the regular file at `path` (a real path already checked to be inside the served folder), its
 * headers added to `headers`. Returns false, having sent nothing, when `path` is not a regular file that can be
 * opened (the caller answers 404).
 */
export async function sendFile(req: IncomingMessage, res: ServerResponse, path: string, headers: Record<string, string>): Promise<boolean> {
  let file: FileHandle
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch {
    return false
  }
  let streaming = false
  try {
    const info = await file.stat()
    if (!info.isFile()) return false
    const size = info.size
    const etag = fileEtag(size, info.mtimeMs)
    const out: Record<string, string> = {
      ...headers,
      'Content-Type': contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': info.mtime.toUTCString(),
      'Cache-Control': 'no-cache',
    }
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, out).end()
      return true
    }
    // If-Range (RFC 9110 §13.1.5): a range only of the version the client holds, else the whole new file
    const ifRange = req.headers['if-range']
    const rangeHeader = ifRange && ifRange !== etag && ifRange !== out['Last-Modified'] ? undefined : req.headers.range
    const range = parseRange(rangeHeader, size)
    if (range.kind === 'unsatisfiable') {
      res.writeHead(416, { ...out, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' }).end()
      return true
    }
    const [start, end, status] = range.kind === 'range' ? [range.start, range.end, 206] : [0, size - 1, 200]
    if (status === 206) out['Content-Range'] = `bytes ${start}-${end}/${size}`
    out['Content-Length'] = String(end - start + 1)
    res.writeHead(status, out)
    if (req.method === 'HEAD' || end < start) {
      res.end()
      return true
    }
    streaming = true
    // the stream owns the descriptor from here and closes it when it ends or is destroyed (a client gone mid-body)
    await pipeline(file.createReadStream({ start, end, highWaterMark: 64 * 1024 }), res).catch(() => res.destroy())
    return true
  } finally {
    if (!streaming) await file.close().catch(() => {})
  }
}
