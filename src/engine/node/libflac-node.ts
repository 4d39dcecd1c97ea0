/**
 * Loads libflacjs's WASM build in Node (CLI, tests, benchmarks). Its emscripten loader fetches the `.wasm` by path
 * when a global `fetch` exists (Node ≥ 18 has one, and it cannot fetch a path), so `fetch` is hidden while the
 * module starts; the wasm is then read from disk. The library is loaded once per thread.
 */
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { Flac } from '../prepare/encode/flac.ts'

let loading: Promise<Flac> | null = null

/** The ready libflacjs module (libFLAC 1.3.4, WASM). */
export function loadLibFlacNode(): Promise<Flac> {
  loading ??= new Promise<Flac>((resolve, reject) => {
    const require = createRequire(import.meta.url)
    const script = require.resolve('libflacjs/dist/libflac.wasm.js')
    const env = process.env as Record<string, string | undefined>
    const previousLocation = env.FLAC_SCRIPT_LOCATION
    env.FLAC_SCRIPT_LOCATION = dirname(script) + '/'
    const g = globalThis as { fetch?: typeof fetch }
    const savedFetch = g.fetch
    let flac: Flac
    try {
      delete g.fetch
      flac = require(script) as Flac
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)))
      return
    } finally {
      g.fetch = savedFetch
      if (previousLocation === undefined) delete env.FLAC_SCRIPT_LOCATION
      else env.FLAC_SCRIPT_LOCATION = previousLocation
    }
    if (flac.isReady()) resolve(flac)
    else flac.on('ready', () => resolve(flac))
  })
  return loading
}
