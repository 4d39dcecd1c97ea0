/**
 * `createDatasetServer` (`mixscope serve`) over the demo dataset, checked with real fetches: ranges byte-identical to
 * the file's slices, 416, HEAD, validators, CORS and its preflight, the manifest it builds (against the engine's own
 * and an independent walk), a file changed under it, the app, and the engine's HTTP source opening the served URL
 * with the stats of the folder itself.
 */
import { readdirSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatasetServer, type DatasetServer } from '../../src/engine/node/dataset-server.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'
import { buildManifest, formatManifest } from '../../src/engine/source/manifest.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')
const part = 'corpus=mls/split=train/language=eng_Latn/part-0.parquet'
let server: DatasetServer
let bytes: Uint8Array

beforeAll(async () => {
  server = await createDatasetServer({ root: demo, port: 0 })
  bytes = new Uint8Array(await readFile(join(demo, part)))
})
afterAll(async () => server?.close())

const fileUrl = () => `${server.dataUrl}${part}`
const body = async (r: Response) => new Uint8Array(await r.arrayBuffer())

/** Every file under `root` not under a `.`/`_` component, with its size, in UTF-8 byte order: a walk of its own. */
function walk(root: string, prefix = ''): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = []
  for (const name of readdirSync(join(root, prefix))) {
    if (name.startsWith('.') || name.startsWith('_')) continue
    const rel = prefix ? `${prefix}/${name}` : name
    const info = statSync(join(root, rel))
    if (info.isDirectory()) out.push(...walk(root, rel))
    else if (info.isFile()) out.push({ path: rel, size: info.size })
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
}

describe('serve: ranges', () => {
  test.each([
    ['bytes=10-99', 10, 100],
    ['bytes=0-0', 0, 1],
    ['bytes=100000-', 100000, undefined],
    ['bytes=-50', -50, undefined],
    ['bytes=891000-999999999', 891000, undefined],
  ])('%s is answered 206 with exactly those bytes', async (range, start, end) => {
    const r = await fetch(fileUrl(), { headers: { Range: range } })
    expect(r.status).toBe(206)
    const want = bytes.slice(start, end)
    const first = start < 0 ? bytes.length + start : start
    expect(r.headers.get('content-range')).toBe(`bytes ${first}-${first + want.length - 1}/${bytes.length}`)
    expect(r.headers.get('content-length')).toBe(String(want.length))
    expect(Buffer.from(await body(r)).equals(Buffer.from(want))).toBe(true)
  })

  test('a range past the end is 416 with the size; no Range is the whole file', async () => {
    const past = await fetch(fileUrl(), { headers: { Range: `bytes=${bytes.length}-` } })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`)
    expect((await fetch(fileUrl(), { headers: { Range: 'bytes=-0' } })).status).toBe(416)
    const whole = await fetch(fileUrl())
    expect(whole.status).toBe(200)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(Buffer.from(await body(whole)).equals(Buffer.from(bytes))).toBe(true)
  })

  test('HEAD gives the size and validators, no body; If-None-Match gives 304', async () => {
    const head = await fetch(fileUrl(), { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(bytes.length))
    expect((await body(head)).length).toBe(0)
    const etag = head.headers.get('etag')
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect(new Date(head.headers.get('last-modified')!).getTime()).toBe(Math.floor(statSync(join(demo, part)).mtimeMs / 1000) * 1000)
    expect((await fetch(fileUrl(), { headers: { 'If-None-Match': etag! } })).status).toBe(304)
  })
})

describe('serve: large files are streamed', () => {
  test('a 512 MiB file: ranges deep into it are exact, and serving it whole adds under 128 MiB of memory (read whole it adds 512)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-serve-big-'))
    const size = 512 * 1024 * 1024
    const file = join(dir, 'big.parquet')
    const handle = await open(file, 'w')
    try {
      await handle.truncate(size) // sparse: no disk used
      await handle.write(Buffer.from('middle'), 0, 6, size / 2)
      await handle.write(Buffer.from('the end.'), 0, 8, size - 8)
    } finally {
      await handle.close()
    }
    const live = await createDatasetServer({ root: dir, port: 0 })
    try {
      const url = `${live.dataUrl}big.parquet`
      const before = process.memoryUsage().rss
      expect(await (await fetch(url, { headers: { Range: 'bytes=-8' } })).text()).toBe('the end.')
      expect(await (await fetch(url, { headers: { Range: `bytes=${size / 2}-${size / 2 + 5}` } })).text()).toBe('middle')
      let peak = process.memoryUsage().rss
      let received = 0
      const reader = (await fetch(url)).body!.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        received += value.length
        if ((received & 0x3ffffff) < value.length) peak = Math.max(peak, process.memoryUsage().rss) // every 64 MiB
      }
      expect(received).toBe(size)
      expect(peak - before).toBeLessThan(128 * 1024 * 1024) // a file read whole would add 512 MiB
    } finally {
      await live.close()
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('serve: CORS', () => {
  test('every answer allows any origin and exposes Content-Range, Content-Length, Accept-Ranges', async () => {
    const r = await fetch(fileUrl(), { headers: { Range: 'bytes=0-3', Origin: 'http://laptop.example' } })
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = r.headers.get('access-control-expose-headers')!.split(',').map((h) => h.trim().toLowerCase())
    expect(exposed).toEqual(expect.arrayContaining(['content-range', 'content-length', 'accept-ranges', 'etag']))
    await r.body?.cancel()
    const missing = await fetch(`${server.dataUrl}nothing.parquet`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('a preflight for Range is answered 204 allowing GET, HEAD and the Range header', async () => {
    const r = await fetch(fileUrl(), {
      method: 'OPTIONS',
      headers: { Origin: 'http://laptop.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range' },
    })
    expect(r.status).toBe(204)
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(r.headers.get('access-control-allow-methods')!.split(',').map((m) => m.trim())).toEqual(expect.arrayContaining(['GET', 'HEAD']))
    expect(r.headers.get('access-control-allow-headers')!.toLowerCase().split(',').map((h) => h.trim())).toContain('range')
  })
})

describe('serve: the manifest', () => {
  test('lists exactly the folder\'s files: the engine\'s own manifest, and an independent walk', async () => {
    const r = await fetch(`${server.dataUrl}_manifest.json`)
    expect(r.status).toBe(200)
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
    const text = await r.text()
    const source = await createFsSource(demo)
    expect(text).toBe(formatManifest(buildManifest(await source.list())))
    const files = (JSON.parse(text) as { files: { path: string; size: number }[] }).files
    expect(files).toEqual(walk(demo))
    expect(files.length).toBeGreaterThan(40)
    expect(files.every((f) => f.path.endsWith('.parquet'))).toBe(true)
    expect(server.manifest.files).toBe(files.length)
  })

  test('a file added or changed shows within the cache\'s age, with new validators', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-serve-'))
    const root = join(dir, 'version=0')
    await mkdir(join(root, 'corpus=a'), { recursive: true })
    await writeFile(join(root, 'corpus=a/x.parquet'), new Uint8Array(100).fill(1))
    const live = await createDatasetServer({ root, port: 0, manifestMaxAgeMs: 0 })
    try {
      const list = async () => (await (await fetch(`${live.dataUrl}_manifest.json`)).json() as { files: unknown[] }).files
      expect(await list()).toEqual([{ path: 'corpus=a/x.parquet', size: 100 }])
      const before = await fetch(`${live.dataUrl}corpus=a/x.parquet`, { method: 'HEAD' })
      await new Promise((ok) => setTimeout(ok, 20))
      await writeFile(join(root, 'corpus=a/x.parquet'), new Uint8Array(150).fill(2))
      await writeFile(join(root, 'corpus=a/y.parquet'), new Uint8Array(7))
      await new Promise((ok) => setTimeout(ok, 5))
      expect(await list()).toEqual([{ path: 'corpus=a/x.parquet', size: 150 }, { path: 'corpus=a/y.parquet', size: 7 }])
      const after = await fetch(`${live.dataUrl}corpus=a/x.parquet`, { headers: { Range: 'bytes=0-9', 'If-None-Match': before.headers.get('etag')! } })
      expect(after.status).toBe(206)
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
      expect(after.headers.get('content-range')).toBe('bytes 0-9/150')
      expect([...await body(after)]).toEqual(Array(10).fill(2))
    } finally {
      await live.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('the folder\'s dataset index is served as it is; other "_" and "." paths are not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-serve-'))
    await writeFile(join(dir, 'a.parquet'), 'data')
    await writeFile(join(dir, '_mixscope_index.parquet'), 'the index')
    await writeFile(join(dir, '_secret.txt'), 'nope')
    await writeFile(join(dir, '.env'), 'TOKEN=1')
    const live = await createDatasetServer({ root: dir, port: 0 })
    try {
      expect(await (await fetch(`${live.dataUrl}_mixscope_index.parquet`)).text()).toBe('the index')
      for (const hidden of ['_secret.txt', '.env']) expect((await fetch(`${live.dataUrl}${hidden}`)).status).toBe(404)
      expect((await (await fetch(`${live.dataUrl}_manifest.json`)).json() as { files: unknown[] }).files).toEqual([{ path: 'a.parquet', size: 4 }])
    } finally {
      await live.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('serve: the engine reads it', () => {
  test('openDataset over the served URL gives the stats of the folder itself (stats TSV beside version=0 included)', async () => {
    const local = await computeStats(await openDataset(await createFsSource(demo), { facts: true }))
    const source = createHttpSource(server.dataUrl)
    const served = await computeStats(await openDataset(source, { facts: true }))
    expect(served).toEqual({ ...local, root: source.root })
    expect(JSON.stringify(local)).toContain('language_distribution_0.tsv')
  })
})

describe('serve: the app', () => {
  test('serves the built app under / and names the dataset in the URL to open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-serve-app-'))
    await mkdir(join(dir, 'assets'))
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>mixscope</title>')
    await writeFile(join(dir, 'assets', 'main.js'), 'export {}')
    const live = await createDatasetServer({ root: demo, appDir: dir, port: 0 })
    try {
      expect(live.openUrl).toBe(`${live.url}?dataset=/data/version=0/`)
      expect(new URL(new URL(live.openUrl!).searchParams.get('dataset')!, live.url).href).toBe(live.dataUrl)
      const page = await fetch(live.url)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await page.text()).toContain('<title>mixscope</title>')
      const js = await fetch(`${live.url}assets/main.js`)
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
      expect((await fetch(`${live.url}assets/none.js`)).status).toBe(404)
    } finally {
      await live.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('without a built app the data is still served and / says how to build it', async () => {
    expect(server.openUrl).toBeNull()
    const page = await fetch(server.url)
    expect(await page.text()).toMatch(/npx vite build/)
    expect((await fetch(`${server.url}assets/x.js`)).status).toBe(404)
    expect((await fetch(fileUrl(), { method: 'HEAD' })).status).toBe(200)
  })
})
