/**
 * A `_manifest.json` (or dataset index) written before a file changed: the server's `Content-Range` total, or its
 * 416, shows the file's size is not the listed one, and the HTTP source says the listing is stale and what to rerun.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'
import { buildManifest, formatManifest } from '../../src/engine/source/manifest.ts'
import { startFaultServer, type FaultServer } from '../fault-server.ts'

const path = 'corpus=a/split=train/language=eng_Latn/part-0.parquet'
const data = Uint8Array.from({ length: 600 }, (_, i) => (i * 7 + 3) & 0xff)
let server: FaultServer
afterEach(async () => server?.close())

/** Serves `data` under `version=0/` with a hand-edited manifest that lists it as `listed` bytes. */
async function serveWithManifest(listed: number): Promise<string> {
  const manifest = formatManifest(buildManifest([{ path, size: listed }]))
  server = await startFaultServer({ 'version=0/_manifest.json': new TextEncoder().encode(manifest), [`version=0/${path}`]: data })
  return `${server.url}version=0/`
}

async function failure(promise: Promise<unknown>): Promise<MixscopeError> {
  const error = await promise.then(() => null, (e: unknown) => e)
  expect(error).toBeInstanceOf(MixscopeError)
  return error as MixscopeError
}

const manifestAdvice = 'the manifest is stale: rerun `mixscope manifest <folder>` (or serve the folder with `mixscope serve <folder>`, which writes none)'

describe('http source: a stale listing', () => {
  test('a file grown since the manifest: Content-Range names its size, the error says the manifest is stale', async () => {
    const source = createHttpSource(await serveWithManifest(500), { retryDelayMs: 1 })
    const error = await failure(source.read(path, 10, 20))
    expect(error.kind).toBe('http-stale-listing')
    expect(error.exitClass).toBe('io')
    expect(error.message).toContain(`"${path}" is 600 bytes on the server, but _manifest.json gives 500 bytes`)
    expect(error.message.endsWith(manifestAdvice)).toBe(true)
  })

  test('a file shrunk below the range read: the 416 says the manifest is stale, without retries', async () => {
    const source = createHttpSource(await serveWithManifest(900), { retryDelayMs: 1 })
    const error = await failure(source.read(path, 700, 800))
    expect(error.kind).toBe('http-stale-listing')
    expect(error.message).toContain('answered 416 (range not satisfiable) to Range bytes=700-799')
    expect(error.message).toContain(`"${path}" is 600 bytes on the server, but _manifest.json gives 900 bytes`)
    expect(error.message.endsWith(manifestAdvice)).toBe(true)
    expect(server.requests.filter((r) => r.range !== null)).toHaveLength(1)
  })

  test('a listing taken from the dataset index names the index to rerun instead', async () => {
    const source = createHttpSource(await serveWithManifest(600), { retryDelayMs: 1 })
    source.adoptListing?.([{ path, size: 550 }])
    const error = await failure(source.read(path, 0, 100))
    expect(error.message).toContain('but _mixscope_index.parquet gives 550 bytes; the dataset index is stale: rerun `mixscope index <folder>`')
  })

  test('a fresh manifest reads the bytes', async () => {
    const source = createHttpSource(await serveWithManifest(600), { retryDelayMs: 1 })
    expect(await source.read(path, 590, 600)).toEqual(data.slice(590))
  })
})
