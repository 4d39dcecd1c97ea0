/**
 * Scale benchmark, `npm run bench -- scale`: datasets of 2,000, 20,000 and 100,000 files (bench/make-scale.ts:
 * 1,600 languages, 4 corpora, 3 splits, tiny payloads, every 20th file with 3 row groups; built once into
 * bench/.cache), measured
 * - in Node, each run in its own process under `ulimit -n 1024` and `--max-old-space-size=500` (a run that needs more
 *   descriptors or heap fails, and says so): `stats` locally and over HTTP from a server in another process (plain,
 *   50 ms before every answer over HTTP/1.1, and over HTTP/2), without and with the dataset index; `index`; DuckDB
 *   (one thread) on the same files as the reference. Time, requests, bytes, peak heap and RSS, and per file, with
 *   the per-file time as a multiple of the same run's at 2,000 files;
 * - in Chromium (the built app): open → first chart with the index over HTTP with 50 ms latency (HTTP/1.1 and HTTP/2),
 *   and the requests before it; without the index (progressive), the first (estimated) chart, the exact numbers and
 *   the longest main-thread task; and in a Worker, stats over HTTP with the fetch cache mode `no-store` against the
 *   default.
 * `MIXSCOPE_SCALE_SIZES=2000,20000` picks sizes; `MIXSCOPE_SCALE_BROWSER=0` skips Chromium, `MIXSCOPE_SCALE_NODE=0` Node,
 * `MIXSCOPE_SCALE_CACHE_MODES=0` the Worker `stats` without the index (cache modes: 18 min a run at 100,000 files).
 */
import { execFile } from 'node:child_process'
import { chromiumArgs } from '../test/helpers/chromium-args.ts'
import { fork, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { chromium, type Browser, type Page } from 'playwright-core'
import { indexFileName } from '../src/engine/node.ts'
import { selfSignedCertificate, startStaticServer, type StaticServer } from '../test/helpers/static-server.ts'
import { hasCurrentIndex, markIndexCurrent } from './index-stamp.ts'
import { ensureScaleDataset, scaleSizes, type ScaleDataset } from './make-scale.ts'
import type { RunJob, RunResult, ServerJob } from './scale-child.ts'
import type { BenchRow } from './table.ts'

const repo = resolve(import.meta.dirname, '..')
const child = join(import.meta.dirname, 'scale-child.ts')
const certDir = join(import.meta.dirname, '.cache', 'scale-cert')
const distDir = join(import.meta.dirname, '.cache', 'scale-dist')

/** Runs one measurement in its own process under the descriptor and heap limits. */
function measure(job: RunJob): Promise<RunResult | { error: string }> {
  const command = `ulimit -n 1024 && exec node --max-old-space-size=500 --import tsx '${child}' run '${JSON.stringify(job).replaceAll("'", "'\\''")}'`
  return new Promise((resolvePromise) => {
    execFile('bash', ['-c', command], { cwd: repo, maxBuffer: 16 * 1024 * 1024, timeout: 1_800_000 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? ''
      if (error || !line.startsWith('{')) resolvePromise({ error: (stderr.match(/(EMFILE[^\n]*|heap out of memory[^\n]*|Error[^\n]*)/)?.[0] ?? error?.message ?? 'no result').slice(0, 160) })
      else resolvePromise(JSON.parse(line) as RunResult)
    })
  })
}

/** A static server in its own process. */
async function server(job: ServerJob): Promise<{ url: string; count(): Promise<{ requests: number; maxActive: number }>; close(): Promise<void> }> {
  const proc: ChildProcess = fork(child, ['server', JSON.stringify(job)], { execArgv: ['--import', 'tsx'], cwd: repo, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const url = await new Promise<string>((ok, fail) => {
    proc.once('message', (m: { type: string; url: string }) => (m.type === 'ready' ? ok(m.url) : fail(new Error('server did not start'))))
    proc.once('exit', (code) => fail(new Error(`server exited ${code}`)))
  })
  return {
    url,
    count: () => new Promise((ok) => {
      proc.once('message', (m: { requests: number; maxActive: number }) => ok(m))
      proc.send({ type: 'count' })
    }),
    close: () => new Promise<void>((ok) => {
      proc.once('exit', () => ok())
      proc.send({ type: 'close' })
    }),
  }
}

/** The best of `times` runs (by time); the first error stops. */
async function best(job: RunJob, times: number): Promise<RunResult | { error: string }> {
  let out: RunResult | null = null
  for (let i = 0; i < times; i++) {
    const r = await measure(job)
    if ('error' in r) return r
    if (!out || r.ms < out.ms) out = r
  }
  return out!
}

interface Measured { label: string; files: number; result: RunResult | { error: string } }

function row(m: Measured, perFileAt2000: Map<string, number>, duckMs: number | null): BenchRow {
  if ('error' in m.result) return { benchmark: `scale: ${m.label}`, files: m.files, error: m.result.error }
  const r = m.result
  const perFile = r.ms / m.files
  if (m.files === 2000) perFileAt2000.set(m.label, perFile)
  const base = perFileAt2000.get(m.label)
  return {
    benchmark: `scale: ${m.label}`, files: m.files, ms: Math.round(r.ms), 'ms/file': perFile, 'x per-file @2,000': base ? perFile / base : '',
    ...(duckMs !== null ? { 'x DuckDB': r.ms / duckMs } : {}),
    requests: r.requests, 'requests/file': r.requests / m.files, 'bytes/file': Math.round(r.bytes / m.files),
    'heap peak MB': Math.round(r.heapPeakMB), 'heap KB/file': (r.heapPeakMB * 1000) / m.files, 'RSS peak MB': Math.round(r.rssPeakMB),
    ...(r.indexBytes !== undefined ? { 'index bytes': r.indexBytes } : {}),
  }
}

async function certificate(): Promise<{ keyFile: string; certFile: string; key: string; cert: string }> {
  mkdirSync(certDir, { recursive: true })
  const cert = await selfSignedCertificate()
  const keyFile = join(certDir, 'key.pem')
  const certFile = join(certDir, 'cert.pem')
  writeFileSync(keyFile, cert.key)
  writeFileSync(certFile, cert.cert)
  return { keyFile, certFile, ...cert }
}

/**
 * Writes the dataset index into the root (what `mixscope index` writes), so the index runs find it: once, and again
 * when the index code changed since (index-stamp.ts).
 */
async function ensureIndex(d: ScaleDataset): Promise<void> {
  if (hasCurrentIndex(d.root)) return
  const code = await new Promise<number>((ok) => execFile('node', ['bin/mixscope.js', 'index', d.root], { cwd: repo, timeout: 1_800_000 }, (e) => ok(e ? 1 : 0)))
  if (code !== 0) throw new Error(`bench scale: mixscope index ${d.root} failed`)
  markIndexCurrent(d.root)
}

async function nodeRows(datasets: ScaleDataset[], cert: { keyFile: string; certFile: string }): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const perFile = new Map<string, number>()
  for (const d of datasets) {
    const n = d.files
    const repeats = n <= 20_000 ? 2 : 1
    process.stderr.write(`bench scale: ${n} files (${d.partitions} partition folders, ${d.rowGroups} row groups)\n`)
    const duck = await best({ kind: 'duckdb', root: d.root }, repeats)
    const duckMs = 'error' in duck ? null : duck.ms
    const measured: Measured[] = [{ label: 'DuckDB read_parquet, 1 thread (local)', files: n, result: duck }]
    measured.push({ label: 'stats, local', files: n, result: await best({ kind: 'stats', root: d.root }, repeats) })
    measured.push({ label: 'index, local (build)', files: n, result: await measure({ kind: 'index', root: d.root }) })
    await ensureIndex(d)
    measured.push({ label: 'stats, local, with index', files: n, result: await best({ kind: 'stats', root: d.root, useIndex: true }, repeats) })
    const variants: { label: string; job: Omit<ServerJob, 'root'>; h2?: boolean; index: boolean; upTo?: number }[] = [
      { label: 'stats, HTTP/1.1 localhost', job: { hide: [indexFileName] }, index: false },
      { label: 'stats, HTTP/1.1 localhost, with index', job: {}, index: true },
      { label: 'stats, HTTP/1.1 50 ms, with index', job: { latencyMs: 50 }, index: true },
      { label: 'stats, HTTP/1.1 50 ms', job: { latencyMs: 50, hide: [indexFileName] }, index: false, upTo: 20_000 },
      { label: 'stats, HTTP/2 50 ms', job: { latencyMs: 50, http2: cert, hide: [indexFileName] }, h2: true, index: false },
      { label: 'stats, HTTP/2 50 ms, with index', job: { latencyMs: 50, http2: cert }, h2: true, index: true },
    ]
    for (const v of variants) {
      if (v.upTo !== undefined && n > v.upTo) continue
      const s = await server({ root: resolve(d.root, '..'), ...v.job })
      try {
        process.stderr.write(`bench scale:   ${v.label}\n`)
        measured.push({ label: v.label, files: n, result: await measure({ kind: 'stats', root: `${s.url}version=0/`, useIndex: v.index, h2: v.h2 }) })
      } finally {
        await s.close()
      }
    }
    for (const m of measured) {
      const r = row(m, perFile, m.label.startsWith('stats, local') ? duckMs : null)
      process.stderr.write(`bench scale: ${JSON.stringify(r)}\n`)
      rows.push(r)
    }
  }
  return rows
}

/** Installed before any page script: long tasks, and the wall-clock time the first chart bar and the exact numbers appear. */
function instrument(): void {
  const w = window as unknown as { longTasks: { start: number; duration: number }[]; chartAt?: number; exactAt?: number }
  w.longTasks = []
  new PerformanceObserver((list) => { for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration }) })
    .observe({ type: 'longtask', buffered: true })
  const observer = new MutationObserver(() => {
    const bar = document.querySelector('.chart-bar')
    if (bar && w.chartAt === undefined) w.chartAt = performance.timeOrigin + performance.now()
    if (bar && w.exactAt === undefined && !document.querySelector('[data-provisional]') && !document.querySelector('[aria-busy="true"]')) {
      w.exactAt = performance.timeOrigin + performance.now()
      observer.disconnect()
    }
  })
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true, attributes: true }))
}

async function browserRows(datasets: ScaleDataset[], cert: { key: string; cert: string }): Promise<BenchRow[]> {
  await build({ root: repo, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } })
  const app = await startStaticServer({ root: distDir })
  const browser: Browser = await chromium.launch({
    executablePath: process.env.MIXSCOPE_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs(['--ignore-certificate-errors']),
  })
  const rows: BenchRow[] = []
  try {
    for (const d of datasets) {
      await ensureIndex(d) // the Node part writes it too; with MIXSCOPE_SCALE_NODE=0 only this does
      const cases: { label: string; http2: boolean; index: boolean }[] = [
        { label: 'Chromium open → first chart, HTTP/1.1 50 ms, with index', http2: false, index: true },
        { label: 'Chromium open → first chart, HTTP/2 50 ms, with index', http2: true, index: true },
        ...(d.files <= 20_000 ? [{ label: 'Chromium progressive open, HTTP/2 50 ms, no index', http2: true, index: false }] : []),
      ]
      for (const c of cases) {
        const arrivals: { at: number; path: string }[] = []
        const data: StaticServer = await startStaticServer({
          root: resolve(d.root, '..'), latencyMs: 50, ...(c.http2 ? { http2: cert } : {}), ...(c.index ? {} : { hide: [indexFileName] }),
          onRequest: (path) => arrivals.push({ at: Date.now(), path }),
        })
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true })
        try {
          const page: Page = await context.newPage()
          await page.addInitScript(instrument)
          page.on('pageerror', (error) => process.stderr.write(`bench scale: page error ${error.message}\n`))
          const start = Date.now()
          await page.goto(`${app.url}?view=overview&dataset=${encodeURIComponent(`${data.url}version=0/`)}`)
          // with an index the numbers are exact from the first chart on, and the row checks that follow read every
          // file (hours at 100,000 files over HTTP/1.1 with 50 ms): measured up to the chart and 2 s after it
          if (c.index) {
            await page.waitForFunction(() => (window as unknown as { chartAt?: number }).chartAt !== undefined, undefined, { timeout: 600_000 })
            await page.waitForTimeout(2_000)
          } else {
            await page.waitForFunction(() => (window as unknown as { exactAt?: number }).exactAt !== undefined, undefined, { timeout: 1_200_000 })
          }
          const t = await page.evaluate(() => {
            const w = window as unknown as { longTasks: { duration: number }[]; chartAt: number; exactAt?: number }
            return { chartAt: w.chartAt, exactAt: w.exactAt, longest: Math.max(0, ...w.longTasks.map((x) => x.duration)), longTasks: w.longTasks.length }
          })
          // the open's own requests (index, manifest, TSV, footers) and the row checks' (data files read after the
          // final numbers were sent, while the page draws them: a data file is read by both without an index)
          const before = arrivals.filter((a) => a.at <= t.chartAt)
          const own = c.index ? before.filter((a) => !a.path.endsWith('.parquet') || a.path.endsWith(indexFileName)).length : before.length
          const r: BenchRow = {
            benchmark: `scale: ${c.label}`, files: d.files, 'first chart ms': t.chartAt - start,
            'requests before first chart': own, ...(c.index ? { 'row-check requests before it': before.length - own } : {}),
            'exact numbers ms': t.exactAt !== undefined ? t.exactAt - start : c.index ? 'at first chart' : '', requests: data.requests,
            'longest task ms': Math.round(t.longest), 'long tasks': t.longTasks, 'most in flight': data.maxActive,
          }
          process.stderr.write(`bench scale: ${JSON.stringify(r)}\n`)
          rows.push(r)
        } finally {
          await context.close()
          await data.close()
        }
      }
    }
  } finally {
    await browser.close()
    await app.close()
  }
  if (process.env.MIXSCOPE_SCALE_CACHE_MODES !== '0') rows.push(...await cacheModeRows(datasets[0], cert))
  return rows
}

/** Stats in a Chromium Worker over HTTP with 50 ms latency: fetch `cache: 'no-store'` against the default. */
async function cacheModeRows(d: ScaleDataset, cert: { key: string; cert: string }): Promise<BenchRow[]> {
  const { startBenchBrowser } = await import('./browser/runner.ts')
  const bench = await startBenchBrowser(['--ignore-certificate-errors'])
  const rows: BenchRow[] = []
  try {
    for (const http2 of [false, true]) {
      for (const cache of [undefined, 'no-store'] as const) {
        const data = await startStaticServer({ root: resolve(d.root, '..'), latencyMs: 50, hide: [indexFileName], ...(http2 ? { http2: cert } : {}) })
        try {
          const r = await bench.call<import('./browser/protocol.ts').StatsReply>({ kind: 'stats', url: `${data.url}version=0/`, ...(cache ? { cache } : {}) })
          const out: BenchRow = {
            benchmark: `scale: Chromium Worker stats, ${http2 ? 'HTTP/2' : 'HTTP/1.1'} 50 ms, cache ${cache ?? 'default'}`, files: r.files,
            ms: Math.round(r.ms), 'ms/file': r.ms / r.files, requests: r.requests, 'most in flight': data.maxActive, cap: r.parallelism,
          }
          process.stderr.write(`bench scale: ${JSON.stringify(out)}\n`)
          rows.push(out)
        } finally {
          await data.close()
        }
      }
    }
  } finally {
    await bench.close()
  }
  return rows
}

export async function runScaleBench(): Promise<BenchRow[]> {
  const sizes = (process.env.MIXSCOPE_SCALE_SIZES?.split(',').map(Number) ?? [...scaleSizes])
  const datasets: ScaleDataset[] = []
  for (const n of sizes) datasets.push(await ensureScaleDataset(n))
  const cert = await certificate()
  const rows = process.env.MIXSCOPE_SCALE_NODE === '0' ? [] : await nodeRows(datasets, cert)
  if (process.env.MIXSCOPE_SCALE_BROWSER !== '0') rows.push(...await browserRows(datasets, cert))
  return rows
}

if (import.meta.filename === process.argv[1]) {
  const { formatTable } = await import('./table.ts')
  console.log(formatTable(await runScaleBench()))
}
