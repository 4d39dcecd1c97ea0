/**
 * Turns a `<folder|url>` argument into a source and an opened dataset (Node side of the CLI).
 */
import { constants as fsConstants } from 'node:fs'
import { open as openFile, stat } from 'node:fs/promises'
import {
  createFsSource,
  createHttpSource,
  fetchDocument,
  MixscopeError,
  openDataset,
  type OpenDataset,
  type OpenOptions,
} from '../../engine/node.ts'
import type { DatasetSource } from '../../engine/source/source.ts'
import type { Progress } from '../../engine/dataset/dataset.ts'

/** True for an http(s) URL argument. */
export function isUrl(arg: string): boolean {
  return /^https?:\/\//i.test(arg)
}

/**
 * Requests in flight over HTTP from the CLI. Node's fetch opens a connection per request in flight (HTTP/1.1, no
 * per-host cap as in browsers), and an object store answers each after its own latency: 16 at once hide most of it.
 */
export const cliHttpConcurrency = 16

/**
 * Origins a redirect may lead to besides the dataset's own: `MIXSCOPE_REDIRECT_ORIGINS`, comma-separated
 * (`https://cdn.example.org,https://other.org`, or `*` for any). Default none (docs/hostile-input.md "HTTP").
 */
export function redirectOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.MIXSCOPE_REDIRECT_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean)
}

/**
 * Milliseconds each HTTP request may take, body included: `MIXSCOPE_HTTP_TIMEOUT` in seconds (default 30, the
 * engine's; a slow object store or a far-away mirror may need more). A value that is not a positive number of
 * seconds is a usage error naming it.
 */
export function httpTimeoutMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.MIXSCOPE_HTTP_TIMEOUT
  if (raw === undefined || raw.trim() === '') return undefined
  const seconds = Number(raw)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    throw new MixscopeError(`http: MIXSCOPE_HTTP_TIMEOUT must be a number of seconds between 0 and 86400, got ${JSON.stringify(raw)}`, 'bad-option', 'usage')
  }
  return Math.max(1, Math.round(seconds * 1000))
}

/** The source for a dataset argument: an HTTP source for URLs, the fs source otherwise. */
async function sourceFor(arg: string): Promise<DatasetSource> {
  if (isUrl(arg)) return createHttpSource(arg, { concurrency: cliHttpConcurrency, redirectOrigins: redirectOrigins(), timeoutMs: httpTimeoutMs() })
  try {
    await stat(arg)
  } catch {
    throw new MixscopeError(`dataset: ${arg} does not exist (expected a dataset folder, a .parquet file or an http(s) URL)`, 'not-found', 'io')
  }
  return createFsSource(arg)
}

/** Most bytes of a stats TSV (it has one line per mixture partition). */
const summaryLimit = 64 * 1024 * 1024

/** Reads a local TSV only when it is a regular file (a FIFO or `/dev/zero` would hang or never end), at most `summaryLimit`. */
async function readSummaryFile(path: string): Promise<Uint8Array> {
  const fail = (why: string) => new MixscopeError(`summary: cannot read ${path} (${why})`, 'not-found', 'io')
  const handle = await openFile(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK).catch((error: Error) => { throw fail(error.message) })
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw fail('not a regular file')
    if (info.size > summaryLimit) throw fail(`${info.size} bytes, more than ${summaryLimit}`)
    const bytes = new Uint8Array(info.size)
    let at = 0
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return bytes.subarray(0, at)
  } finally {
    await handle.close()
  }
}

/**
 * Opens the dataset named by `arg`, with an optional `--summary` TSV (local path or URL); `open` passes options to
 * `openDataset` (facts to read along, whether to use the dataset index).
 */
export async function openDatasetArg(arg: string, options: { summary?: string; onProgress?: (p: Progress) => void; open?: Omit<OpenOptions, 'summary' | 'onProgress'> } = {}): Promise<OpenDataset> {
  const source = await sourceFor(arg)
  let summary: { path: string; bytes: Uint8Array } | undefined
  if (options.summary) {
    if (isUrl(options.summary)) {
      // a timeout and a size cap: a server that never answers or never stops is an error, not a hang
      const bytes = await fetchDocument(options.summary, { maxBytes: summaryLimit, redirectOrigins: redirectOrigins(), timeoutMs: httpTimeoutMs() }).catch((error: unknown) => {
        throw new MixscopeError(`summary: ${(error as Error).message}`, 'not-found', 'io')
      })
      summary = { path: options.summary, bytes }
    } else {
      summary = { path: options.summary, bytes: await readSummaryFile(options.summary) }
    }
  }
  return openDataset(source, { ...options.open, summary, onProgress: options.onProgress })
}
