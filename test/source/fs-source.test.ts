import { statSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { compareUtf8 } from '../../src/engine/core/findings.ts'
import { createFsSource, FileCache } from '../../src/engine/node/fs-source.ts'
import { isIgnoredPath } from '../../src/engine/source/manifest.ts'

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)

/** `top/language_distribution_0.tsv` beside `top/version=0/`, which holds data, ignored files and a symlink loop. */
const layout: Record<string, Uint8Array> = {
  'corpus=a/split=train/language=hin_Deva/part-0.parquet': bytes(700, 1),
  'corpus=a b/split=dev/language=ä/100%.parquet': bytes(50, 2),
  '_manifest.json': bytes(10, 3),
  '.cache/x.parquet': bytes(5, 4),
  'corpus=a/_SUCCESS': new Uint8Array(0),
}
let top: string
let root: string

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'mixscope-fs-'))
  root = join(top, 'version=0')
  for (const [path, data] of Object.entries(layout)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), data)
  }
  await writeFile(join(top, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
  await mkdir(join(top, 'elsewhere'))
  await symlink(root, join(root, 'corpus=a', 'loop')) // a link back up must not recurse forever
})
afterAll(async () => rm(top, { recursive: true, force: true }))

describe('fs source', () => {
  test('walks every file below the root, ignored ones included, with / paths and raw names', async () => {
    const source = await createFsSource(root)
    expect(source.kind).toBe('fs')
    expect(source.root).toBe(root)
    expect(source.rootName).toBe('version=0')
    const listed = (await source.list()).sort((a, b) => compareUtf8(a.path, b.path))
    // mtimes as stat gives them, floored to whole ms (the index compares them)
    const mtime = (path: string) => Math.floor(statSync(join(root, path)).mtimeMs)
    const expected = Object.entries(layout).map(([path, data]) => ({ path, size: data.length, mtimeMs: mtime(path) })).sort((a, b) => compareUtf8(a.path, b.path))
    expect(listed).toEqual(expected)
    expect(listed.filter((f) => isIgnoredPath(f.path)).map((f) => f.path).sort()).toEqual(['.cache/x.parquet', '_manifest.json', 'corpus=a/_SUCCESS'])
    expect(source.counters).toEqual({ requests: 0, bytes: 0 })
  })

  test('reads [start, end) with end clamped, and counts requests and bytes', async () => {
    const source = await createFsSource(root)
    const path = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
    expect(await source.read(path, 100, 164)).toEqual(layout[path].slice(100, 164))
    expect(await source.read(path, 690, 10_000)).toEqual(layout[path].slice(690))
    expect(await source.read(path, 800, 900)).toEqual(new Uint8Array(0))
    expect(await source.read('corpus=a b/split=dev/language=ä/100%.parquet', 0, Infinity)).toEqual(layout['corpus=a b/split=dev/language=ä/100%.parquet'])
    expect(source.counters).toEqual({ requests: 4, bytes: 64 + 10 + 0 + 50 })
  })

  test('missing files, escaping paths and bad ranges are errors', async () => {
    const source = await createFsSource(root)
    await expect(source.read('nope.parquet', 0, 1)).rejects.toThrow(/^fs: cannot open "nope.parquet" \(ENOENT\)$/)
    await expect(source.read('../language_distribution_0.tsv', 0, 1)).rejects.toThrow(/is not a plain relative path/)
    await expect(source.read('_manifest.json', -1, 1)).rejects.toThrow(/asks for bytes \[-1, 1\)/)
    await expect(createFsSource(join(top, 'missing'))).rejects.toThrow(/^fs: cannot open dataset root ".*missing" \(ENOENT\)$/)
  })

  test('siblings are the files in the root\'s parent', async () => {
    const source = await createFsSource(root)
    expect(await source.listSiblings!()).toEqual(['language_distribution_0.tsv'])
    expect(new TextDecoder().decode((await source.readSibling!('language_distribution_0.tsv'))!)).toBe('corpus\tlanguage\thours\n')
    expect(await source.readSibling!('language_distribution_9.tsv')).toBeNull()
    expect(await source.readSibling!('elsewhere')).toBeNull()
    expect(await source.readSibling!('../etc')).toBeNull()
    expect(source.counters).toEqual({ requests: 1, bytes: 22 })
  })

  test('a single .parquet file is a one-file dataset named by its base name', async () => {
    const file = join(root, 'corpus=a b/split=dev/language=ä/100%.parquet')
    const source = await createFsSource(file)
    expect(source.rootName).toBe('100%.parquet')
    expect(await source.list()).toEqual([{ path: '100%.parquet', size: 50, mtimeMs: Math.floor(statSync(file).mtimeMs) }])
    expect(await source.read('100%.parquet', 10, 20)).toEqual(layout['corpus=a b/split=dev/language=ä/100%.parquet'].slice(10, 20))
    await expect(source.read('other.parquet', 0, 1)).rejects.toThrow(/no file "other.parquet" in one-file dataset/)
  })

  test('an aborted signal stops list and read', async () => {
    const source = await createFsSource(root)
    const signal = AbortSignal.abort()
    await expect(source.list({ signal })).rejects.toThrow(/abort/i)
    await expect(source.read('_manifest.json', 0, 1, { signal })).rejects.toThrow(/abort/i)
  })
})

describe('fs source descriptor cache', () => {
  test('reads many files concurrently and repeatedly past the open-file limit, bytes intact', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-fds-'))
    try {
      const n = 150
      await Promise.all(Array.from({ length: n }, (_, i) => writeFile(join(dir, `f${i}.bin`), Uint8Array.from({ length: 64 }, (_, j) => (i + j) & 0xff))))
      const source = await createFsSource(dir)
      for (let round = 0; round < 3; round++) {
        const reads = await Promise.all(Array.from({ length: n }, (_, i) => source.read(`f${(i * 7 + round) % n}.bin`, 3, 9)))
        reads.forEach((bytes, i) => {
          const file = (i * 7 + round) % n
          expect(Array.from(bytes)).toEqual([3, 4, 5, 6, 7, 8].map((j) => (file + j) & 0xff))
        })
      }
      expect(source.counters.requests).toBe(3 * n)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('holds at most its limit of descriptors once reads end, whatever the number of files; close releases them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mixscope-fds-'))
    try {
      const n = 300
      await Promise.all(Array.from({ length: n }, (_, i) => writeFile(join(dir, `f${i}.bin`), new Uint8Array(8))))
      const cache = new FileCache(16)
      // synchronous reads back to back (the event loop never turns): the case that once piled up descriptors
      for (let i = 0; i < n; i++) {
        await cache.readRange(join(dir, `f${i}.bin`), `f${i}.bin`, 0, 8)
        expect(cache.openCount).toBeLessThanOrEqual(16)
      }
      // reads in flight keep their descriptor past eviction, and close it when they end
      await Promise.all(Array.from({ length: 40 }, (_, i) => cache.readRange(join(dir, `f${i}.bin`), `f${i}.bin`, 0, 8)))
      expect(cache.openCount).toBeLessThanOrEqual(16)
      const open = (await readdir('/proc/self/fd')).length
      cache.closeAll()
      expect(cache.openCount).toBe(0)
      expect((await readdir('/proc/self/fd')).length).toBeLessThanOrEqual(open - 16)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

test('isIgnoredPath: a component (not a file-name inner char) starting with "." or "_", as the split rule says', () => {
  const bySplit = (path: string) => path.split('/').some((part) => part.startsWith('.') || part.startsWith('_'))
  const parts = ['a', '_a', '.a', 'a_b', 'a.b', 'corpus=x', 'x=_y', '', '_', '.']
  for (const a of parts) for (const b of parts) for (const c of ['p.parquet', '_SUCCESS', '.hidden', 'x_y.parquet']) {
    const path = [a, b, c].filter((s, i) => s !== '' || i === 1).join('/')
    expect(isIgnoredPath(path), path).toBe(bySplit(path))
  }
})
