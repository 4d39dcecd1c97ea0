/**
 * The implementation behind prepare-handlers.ts (loaded on the first prepare request, so that the language data,
 * libFLAC and the writers stay out of the engine worker's start). The Prepare view's kinds: `prepare-scan` (read the input folder, plan: what will be written and what
 * skipped), `prepare-run` (convert into a picked folder or OPFS, resumable), `prepare-control` (pause, resume),
 * `prepare-zip` (an OPFS result as one zip for download). Thin glue over src/engine/prepare.
 */
import { Zip, ZipPassThrough } from 'fflate'
import type { RunOptions } from '../dataset/dataset.ts'
import { MixscopeError } from '../core/findings.ts'
import { createClipProcessor, createStreamedClipConverter } from '../prepare/clip.ts'
import { scanInput } from '../prepare/inputs/scan.ts'
import type { InputFiles } from '../prepare/inputs/input-files.ts'
import { loadLibFlacBrowser } from '../prepare/libflac-browser.ts'
import { planPrepare } from '../prepare/plan.ts'
import { browserPlanBudget } from './browser-spill.ts'
import { runPrepare, type PrepareProgress } from '../prepare/run.ts'
import type { PrepareOptions, PreparePlan, PrepareReport } from '../prepare/types.ts'
import { preparePlanSummary } from '../prepare/summary.ts'
import { createDirectoryHandleSink } from '../prepare/write/directory-handle-sink.ts'
import { createDirectoryHandleSource, type DirectoryHandleLike } from '../source/directory-handle-source.ts'
import type { HandlerContext } from './handler-types.ts'
import type { PrepareOutput, PrepareScanResult } from './protocol/prepare.ts'
import { createClipWorkerPool } from './prepare-pool.ts'
import type { SourceDescription } from './protocol/dataset.ts'

interface Job { input: InputFiles; plan: PreparePlan; paused: boolean; resume: (() => void)[]; progress: PrepareProgress | null }

/** Skipped rows the Prepare view lists (all are counted; the run writes every one to `_prepare_skipped.jsonl`). */
const skippedRowsShown = 200

const jobsOf = new WeakMap<HandlerContext, Map<number, Job>>()
let nextJob = 1

function jobs(context: HandlerContext): Map<number, Job> {
  let map = jobsOf.get(context)
  if (!map) jobsOf.set(context, map = new Map())
  return map
}

function jobOf(context: HandlerContext, id: number): Job {
  const job = jobs(context).get(id)
  if (!job) throw new MixscopeError(`prepare: no scanned input with handle ${id}; scan it again`, 'unknown-job', 'usage')
  return job
}

async function scan(message: { source: SourceDescription; options: PrepareOptions }, options: RunOptions, context: HandlerContext): Promise<PrepareScanResult> {
  const source = context.makeSource(message.source)
  let result
  let plan: PreparePlan
  try {
    // the scanned rows and the plan's records past 256 MiB each wait in OPFS (browser-spill.ts), as in Node
    result = await scanInput(source, { inputFormat: message.options.inputFormat, textColumn: message.options.textColumn, signal: options.signal, budget: browserPlanBudget() })
    // a manifest is read while it is planned; the scanned rows are not needed after (the plan holds its own records)
    try {
      plan = await planPrepare(result.scan, result.input, message.options, { signal: options.signal, budget: browserPlanBudget() })
    } finally {
      await result.scan.close()
    }
  } catch (error) {
    if (error instanceof MixscopeError || (error as Error).name === 'AbortError') throw error
    throw new MixscopeError((error as Error).message, 'prepare-input', 'usage')
  }
  const id = nextJob++
  jobs(context).set(id, { input: result.input, plan, paused: false, resume: [], progress: null })
  return { job: id, ...await preparePlanSummary(plan, skippedRowsShown) }
}

async function outputRoot(output: PrepareOutput): Promise<FileSystemDirectoryHandle> {
  if (output.type === 'directory') return output.handle
  const opfs = await navigator.storage.getDirectory()
  return opfs.getDirectoryHandle(output.name, { create: true })
}

async function run(message: { job: number; output: PrepareOutput; fresh?: boolean }, options: RunOptions, context: HandlerContext): Promise<PrepareReport> {
  const job = jobOf(context, message.job)
  const ambiguous = job.plan.languages.filter((l) => l.output === null && l.candidates.length)
  if (ambiguous.length) throw new MixscopeError(`prepare: decide the language of ${ambiguous.map((l) => `"${l.input}" (${l.candidates.join(' or ')})`).join(', ')} first`, 'ambiguous-language', 'usage')
  const sink = createDirectoryHandleSink(await outputRoot(message.output))
  const pool = createClipWorkerPool()
  const processClip = pool?.process ?? createClipProcessor(loadLibFlacBrowser)
  const total = job.plan.partitions.reduce((n, p) => n + p.rows.length, 0)
  job.paused = false
  // a cancel while paused releases the run held at its gate (it then stops on the aborted signal)
  const release = () => { for (const r of job.resume.splice(0)) r() }
  options.signal?.addEventListener('abort', release, { once: true })
  try {
    return await runPrepare({
      plan: job.plan, input: job.input, sink, processClip, streamClip: createStreamedClipConverter(loadLibFlacBrowser), concurrency: (pool?.size ?? 1) * 2, signal: options.signal, fresh: message.fresh,
      createdBy: 'mixscope prepare (browser, hyparquet-writer)',
      gate: () => (job.paused ? new Promise<void>((resolve) => job.resume.push(resolve)) : Promise.resolve()),
      onProgress: (p) => {
        job.progress = p
        options.onProgress?.({ phase: 'prepare', done: p.rowsDone, total, requests: p.filesWritten, bytes: p.samplesWritten })
      },
    })
  } finally {
    options.signal?.removeEventListener('abort', release)
    pool?.close()
    job.paused = false
    for (const r of job.resume.splice(0)) r()
  }
}

/** Pauses or resumes a running `prepare-run` (a paused run holds before its next clip); returns the latest progress. */
function control(message: { job: number; action: 'pause' | 'resume' | 'status' }, _options: RunOptions, context: HandlerContext): PrepareProgress | null {
  const job = jobOf(context, message.job)
  if (message.action === 'pause') job.paused = true
  if (message.action === 'resume') {
    job.paused = false
    for (const r of job.resume.splice(0)) r()
  }
  return job.progress
}

/** The OPFS folder `name` as one zip (stored, not compressed: FLAC and Ogg do not compress). */
async function zip(message: { name: string }, options: RunOptions): Promise<Blob> {
  const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(message.name)
  const source = createDirectoryHandleSource(root as unknown as DirectoryHandleLike)
  const files = (await source.list(options)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const parts: Uint8Array[] = []
  let failure: Error | null = null
  const archive = new Zip((error, chunk) => {
    if (error) failure = error
    else parts.push(chunk)
  })
  for (const f of files) {
    options.signal?.throwIfAborted()
    const entry = new ZipPassThrough(`${message.name}/${f.path}`)
    archive.add(entry)
    entry.push(await source.read(f.path, 0, f.size, options), true)
  }
  archive.end()
  if (failure) throw failure
  return new Blob(parts as BlobPart[], { type: 'application/zip' })
}

export { scan, run, control, zip }
