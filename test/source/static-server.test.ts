import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { startStaticServer } from '../helpers/static-server.ts'
import type { StaticServer } from '../helpers/static-server.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'
import { buildManifest, formatManifest, manifestName } from '../../src/engine/source/manifest.ts'

const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 13 + 5) & 0xff)
const tricky = 'corpus=a b/language=ä/100%.parquet'
let top: string
let server: StaticServer

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'mixscope-static-'))
  await mkdir(join(top, 'version=0', 'corpus=a b', 'language=ä'), { recursive: true })
  await writeFile(join(top, 'version=0', tricky), data)
  await writeFile(join(top, 'version=0', 'tiny.parquet'), new Uint8Array([42]))
  await writeFile(join(top, 'index.html'), '<p>hi</p>')
  await writeFile(join(top, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
  const fs = await createFsSource(join(top, 'version=0'))
  await writeFile(join(top, 'version=0', manifestName), formatManifest(buildManifest(await fs.list())))
  server = await startStaticServer({ root: top })
})
afterAll(async () => {
  await server?.close()
  await rm(top, { recursive: true, force: true })
})

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(server.url + path, { headers, method })
const encoded = 'version=0/corpus=a%20b/language=%C3%A4/100%25.parquet'

describe('static server', () => {
  test('answers single ranges exactly, bytes=0-0 and suffixes included', async () => {
    const one = await get(encoded, { Range: 'bytes=0-0' })
    expect(one.status).toBe(206)
    expect(one.headers.get('content-range')).toBe('bytes 0-0/1000')
    expect(new Uint8Array(await one.arrayBuffer())).toEqual(data.slice(0, 1))
    const suffix = await get(encoded, { Range: 'bytes=-3' })
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(data.slice(997))
    const open = await get(encoded, { Range: 'bytes=998-' })
    expect(open.headers.get('content-range')).toBe('bytes 998-999/1000')
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(data.slice(998))
    const past = await get(encoded, { Range: 'bytes=1000-1005' })
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */1000'])
    const whole = await get(encoded)
    expect([whole.status, whole.headers.get('accept-ranges'), whole.headers.get('content-length')]).toEqual([200, 'bytes', '1000'])
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(data)
  })

  test('HEAD, OPTIONS and CORS headers', async () => {
    const head = await get(encoded, {}, 'HEAD')
    expect([head.status, head.headers.get('content-length'), head.headers.get('content-type')]).toEqual([200, '1000', 'application/vnd.apache.parquet'])
    expect(head.headers.get('access-control-allow-origin')).toBe('*')
    expect(head.headers.get('access-control-expose-headers')).toMatch(/Content-Range, Content-Length/)
    const preflight = await get(encoded, { 'Access-Control-Request-Headers': 'range' }, 'OPTIONS')
    expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([204, 'Range, If-None-Match, If-Modified-Since'])
    expect((await get(encoded, {}, 'POST')).status).toBe(405)
  })

  test('serves folders\' index.html, refuses paths outside the root', async () => {
    const index = await get('')
    expect([index.status, await index.text()]).toEqual([200, '<p>hi</p>'])
    expect((await get('nope.parquet')).status).toBe(404)
    expect((await get('version=0/..%2F..%2Fetc%2Fpasswd')).status).toBe(404)
    expect((await get('version=0/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404)
    expect((await get('%E0%A4%A')).status).toBe(404)
  })

  test('the HTTP source reads through it what the fs source reads from disk', async () => {
    const http = createHttpSource(server.url + 'version=0/', { retryDelayMs: 1 })
    const fs = await createFsSource(join(top, 'version=0'))
    expect(await http.list()).toEqual(buildManifest(await fs.list()).files)
    for (const [start, end] of [[0, 1], [999, 1000], [0, 8], [100, 600], [992, 5000]]) {
      expect(await http.read(tricky, start, end)).toEqual(await fs.read(tricky, start, end))
    }
    expect(await http.read('tiny.parquet', 0, 1)).toEqual(new Uint8Array([42]))
    expect(await http.readSibling!('language_distribution_0.tsv')).toEqual(await fs.readSibling!('language_distribution_0.tsv'))
    const manifestBytes = (await fs.read(manifestName, 0, Infinity)).length
    expect(http.counters).toEqual({ requests: 1 + 5 + 1 + 1, bytes: manifestBytes + 2 + 2 + 8 + 500 + 8 + 1 + 22 })
  })
})
