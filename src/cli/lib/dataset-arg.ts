/**
 * Turns a `<folder|url>` argument into a source and an opened dataset (Node side of the CLI).
 */
import { readFile, stat } from 'node:fs/promises'
import {
  createFsSource,
  createHttpSource,
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

/** The source for a dataset argument: an HTTP source for URLs, the fs source otherwise. */
async function sourceFor(arg: string): Promise<DatasetSource> {
  if (isUrl(arg)) return createHttpSource(arg, { concurrency: cliHttpConcurrency })
  try {
    await stat(arg)
  } catch {
    throw new MixscopeError(`dataset: ${arg} does not exist (expected a dataset folder, a .parquet file or an http(s) URL)`, 'not-found', 'io')
  }
  return createFsSource(arg)
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
      const response = await fetch(options.summary)
      if (!response.ok) throw new MixscopeError(`summary: ${options.summary} answered ${response.status}`, 'not-found', 'io')
      summary = { path: options.summary, bytes: new Uint8Array(await response.arrayBuffer()) }
    } else {
      try {
        summary = { path: options.summary, bytes: new Uint8Array(await readFile(options.summary)) }
      } catch (error) {
        throw new MixscopeError(`summary: cannot read ${options.summary} (${(error as Error).message})`, 'not-found', 'io')
      }
    }
  }
  return openDataset(source, { ...options.open, summary, onProgress: options.onProgress })
}
