/**
 * HTTP with an object store's latency (50 ms before every answer) over HTTP/1.1 and HTTP/2 (self-signed certificate
 * from openssl): the requests in flight stay under the cap over HTTP/1.1, and rise past what a browser opens per host
 * once the answers are seen coming over HTTP/2; the stats are those of a local read either way. Counts, not times:
 * speed lives in `npm run bench -- scale`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'
import { buildManifest, formatManifest, manifestName } from '../../src/engine/source/manifest.ts'
import { createLimiter } from '../../src/engine/source/request-control.ts'
import type { StatsReport } from '../../src/engine/dataset/stats-types.ts'
import { writeParquet } from '../helpers/duckdb.ts'
import { createH2Fetch } from '../helpers/h2-fetch.ts'
import { selfSignedCertificate, startStaticServer } from '../helpers/static-server.ts'

const files = 160
let dir: string
let root: string
let local: StatsReport
let certificate: { key: string; cert: string }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mixscope-latency-'))
  root = join(dir, 'version=0')
  const one = join(dir, 'one.parquet')
  await writeParquet(one, `SELECT 't' || i AS text, [1, 2]::TINYINT[] AS audio_bytes, (16000 + i)::BIGINT AS audio_size FROM range(3) r(i)`)
  for (let i = 0; i < files; i++) {
    await mkdir(join(root, `corpus=c/split=train/language=l${i % 40}_Latn`), { recursive: true })
    await copyFile(one, join(root, `corpus=c/split=train/language=l${i % 40}_Latn/part-${i}.parquet`))
  }
  await rm(one)
  await writeFile(join(dir, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
  const fs = await createFsSource(root)
  await writeFile(join(root, manifestName), formatManifest(buildManifest(await fs.list())))
  local = await computeStats(await openDataset(await createFsSource(root), { facts: true }))
  certificate = await selfSignedCertificate()
}, 60_000)
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('HTTP with 50 ms per request', () => {
  it('HTTP/1.1: never more requests in flight than the cap; stats as a local read', async () => {
    const server = await startStaticServer({ root: dir, latencyMs: 50 })
    try {
      const source = createHttpSource(`${server.url}version=0/`)
      const stats = await computeStats(await openDataset(source, { facts: true }))
      expect(stats).toEqual({ ...local, root: source.root })
      expect(source.parallelism).toBe(6)
      expect(server.maxActive).toBeLessThanOrEqual(6)
      expect(server.maxActive).toBeGreaterThanOrEqual(5) // the cap is used, not one request after another
    } finally {
      await server.close()
    }
  })

  it('HTTP/2: the cap rises to 64 once an answer is seen over h2; stats as a local read', async () => {
    const server = await startStaticServer({ root: dir, latencyMs: 50, http2: certificate })
    const h2 = createH2Fetch()
    try {
      const source = createHttpSource(`${server.url}version=0/`, { fetch: h2.fetch, protocolOf: h2.protocolOf })
      const stats = await computeStats(await openDataset(source, { facts: true }))
      expect(stats).toEqual({ ...local, root: source.root })
      expect(source.parallelism).toBe(64)
      expect(server.maxActive).toBeGreaterThan(6)
      expect(server.maxActive).toBeLessThanOrEqual(64)
    } finally {
      h2.close()
      await server.close()
    }
  })

  it('HTTP/2 the source cannot see (no protocol known) keeps the HTTP/1.1 cap', async () => {
    const server = await startStaticServer({ root: dir, latencyMs: 50, http2: certificate })
    const h2 = createH2Fetch()
    try {
      const source = createHttpSource(`${server.url}version=0/`, { fetch: h2.fetch, protocolOf: () => null })
      await computeStats(await openDataset(source, { facts: true }))
      expect(source.parallelism).toBe(6)
      expect(server.maxActive).toBeLessThanOrEqual(6)
    } finally {
      h2.close()
      await server.close()
    }
  })
})

describe('limiter', () => {
  it('a freed slot goes to a foreground waiter before any background one, each queue in order', async () => {
    const limit = createLimiter(1)
    const order: string[] = []
    const held = await limit()
    const take = (name: string, background: boolean) => limit(undefined, background).then((release) => { order.push(name); release() })
    const all = [take('b1', true), take('b2', true), take('f1', false), take('f2', false)]
    held()
    await Promise.all(all)
    expect(order).toEqual(['f1', 'f2', 'b1', 'b2'])
    // a background caller never passes a waiting foreground one
    const a = await limit(undefined, true)
    const f = limit().then((release) => { order.push('f3'); return release })
    const b = limit(undefined, true).then((release) => { order.push('b3'); return release })
    a()
    const releaseF = await f
    expect(order.at(-1)).toBe('f3')
    // nor takes a free slot while a foreground caller holds one
    limit.setMax(3)
    await new Promise((r) => setTimeout(r, 0))
    expect(order.at(-1)).toBe('f3')
    releaseF()
    ;(await b)()
    expect(order.at(-1)).toBe('b3')
  })

  it('setMax wakes waiters when raised and takes effect as holders release when lowered', async () => {
    const limit = createLimiter(2)
    const order: string[] = []
    const a = await limit()
    const b = await limit()
    const waiting = [1, 2, 3].map((n) => limit().then((release) => { order.push(`got ${n}`); return release }))
    await Promise.resolve()
    expect(order).toEqual([])
    limit.setMax(4)
    const [r1, r2] = await Promise.all(waiting.slice(0, 2))
    expect(order).toEqual(['got 1', 'got 2'])
    limit.setMax(1)
    a(); b(); r1() // 4 held → 1 held: no slot for the third waiter yet
    await Promise.resolve()
    expect(order).toEqual(['got 1', 'got 2'])
    r2() // the last holder leaves: the third waiter gets the one slot
    const r3 = await waiting[2]
    expect(order).toEqual(['got 1', 'got 2', 'got 3'])
    expect(limit.max).toBe(1)
    r3()
  })
})
