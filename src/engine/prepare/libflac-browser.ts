/**
 * Loads libflacjs's WASM build in a browser Worker. Its emscripten loader finds the `.wasm` through the global
 * `FLAC_SCRIPT_LOCATION` (a file name → URL map), set here to the URL Vite gives the bundled asset. Browser only
 * (Node: src/engine/node/libflac-node.ts).
 */
import wasmUrl from 'libflacjs/dist/libflac.wasm.wasm?url'
import type { Flac } from './encode/flac.ts'

let loading: Promise<Flac> | null = null

/** The ready libflacjs module. */
export function loadLibFlacBrowser(): Promise<Flac> {
  loading ??= (async () => {
    (globalThis as { FLAC_SCRIPT_LOCATION?: Record<string, string> }).FLAC_SCRIPT_LOCATION = { 'libflac.wasm.wasm': new URL(wasmUrl, globalThis.location.href).href }
    const module = (await import('libflacjs/dist/libflac.wasm.js')) as { default?: Flac } & Flac
    const flac = module.default ?? module
    if (!flac.isReady()) await new Promise<void>((resolve) => flac.on('ready', () => resolve()))
    return flac
  })()
  return loading
}
