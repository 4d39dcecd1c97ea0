/**
 * Drives the benchmark Worker in Debian's Chromium through Playwright. Builds the project's own vite config (app +
 * harness pages; the harness picks up e2e/harness/bench.harness.ts) into `bench/.cache/web` with base `/web/`, serves
 * `bench/.cache` (so `/speech/...` holds the corpus) with `startStaticServer`, and opens the harness page.
 *
 * Environment: `MIXSCOPE_CHROMIUM` (default `/usr/bin/chromium`); `MIXSCOPE_CHROMIUM_ARGS` extra flags, space
 * separated, for machines whose GPU needs them (e.g. `--use-angle=vulkan`); WebGPU is enabled either way.
 */
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromiumArgs } from '../../test/helpers/chromium-args.ts'
import { join } from 'node:path'
import { startStaticServer, type StaticServer } from '../../test/helpers/static-server.ts'
import type { BenchReply, BenchRequest } from './protocol.ts'
import { benchCacheDir } from './speech-corpus.ts'

const repoRoot = join(import.meta.dirname, '..', '..')
const webDir = join(benchCacheDir, 'web')
let built: Promise<void> | null = null

/** Builds the pages once per process. */
function buildPages(): Promise<void> {
  built ??= (async () => {
    process.stderr.write('bench: vite build of the harness page into bench/.cache/web...\n')
    const { build } = await import('vite')
    await build({
      root: repoRoot, configFile: join(repoRoot, 'vite.config.ts'), base: '/web/', logLevel: 'error',
      build: { outDir: webDir, emptyOutDir: true, reportCompressedSize: false },
    })
  })()
  return built
}

/** A harness page in Chromium with its benchmark Worker. */
export interface BenchBrowser {
  /** Chromium's version, e.g. `156.0.7514.0`. */
  version: string
  /** Sends one request to the Worker; rejects with the Worker's error message. */
  call<R extends BenchReply>(request: BenchRequest): Promise<R>
  close(): Promise<void>
}

/** Builds (once), serves and opens the harness page; `args` are more Chromium flags (e.g. `--ignore-certificate-errors`). */
export async function startBenchBrowser(args: string[] = []): Promise<BenchBrowser> {
  await buildPages()
  const server: StaticServer = await startStaticServer({ root: benchCacheDir })
  let browser: Browser | null = null
  try {
    const extra = (process.env.MIXSCOPE_CHROMIUM_ARGS ?? '').split(/\s+/).filter((a) => a !== '')
    browser = await chromium.launch({
      executablePath: process.env.MIXSCOPE_CHROMIUM ?? '/usr/bin/chromium',
      args: chromiumArgs(['--enable-unsafe-webgpu', ...extra, ...args]),
    })
    const page: Page = await browser.newPage()
    page.on('pageerror', (error) => process.stderr.write(`bench page error: ${error.message}\n`))
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) process.stderr.write(`bench page console: ${m.text()}\n`) })
    page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) process.stderr.write(`bench page: ${r.status()} for ${r.url()}\n`) })
    await page.goto(`${server.url}web/e2e/harness/index.html`)
    await page.waitForFunction(() => (window as unknown as { mixscopeHarnessReady?: boolean }).mixscopeHarnessReady === true)
    const open = browser
    return {
      version: open.version(),
      async call<R extends BenchReply>(request: BenchRequest): Promise<R> {
        const reply = await page.evaluate((r) => (window as unknown as { mixscopeHarness: { bench: (r: BenchRequest) => Promise<BenchReply> } })
          .mixscopeHarness.bench(r), request)
        if (reply.kind === 'error') throw new Error(reply.message)
        if (reply.kind !== request.kind) throw new Error(`bench: asked ${request.kind}, Worker answered ${reply.kind}`)
        return reply as R
      },
      async close() {
        await open.close()
        await server.close()
      },
    }
  } catch (e) {
    await browser?.close()
    await server.close()
    throw e
  }
}
