import { describe, expect, test } from 'vitest'
import { createCountingSource } from '../../src/engine/source/counting-source.ts'
import { createDirectoryHandleSource } from '../../src/engine/source/directory-handle-source.ts'
import type { DirectoryHandleLike, FileHandleLike, HandleLike } from '../../src/engine/source/directory-handle-source.ts'
import { createFileListSource } from '../../src/engine/source/file-list-source.ts'
import { createMemorySource } from '../../src/engine/source/memory-source.ts'

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 17 + seed) & 0xff)
const tree: Record<string, Uint8Array<ArrayBuffer>> = {
  'corpus=a/split=train/language=hin_Deva/part-0.parquet': bytes(400, 1),
  'corpus=a/split=train/language=ä/part 1.parquet': bytes(30, 2),
  '_manifest.json': bytes(5, 3),
  '.DS_Store': bytes(2, 4),
}
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1)
const expectedList = Object.entries(tree).map(([path, b]) => ({ path, size: b.length })).sort(byPath)
/** Files made by the fakes below carry this modification time (ms), which the browser sources list as `mtimeMs`. */
const modified = 1_700_000_000_123
const expectedWithMtime = expectedList.map((f) => ({ ...f, mtimeMs: modified }))

/** A fake FileSystemDirectoryHandle over `files`, counting getFile() calls. */
function fakeDirectory(name: string, files: Record<string, Uint8Array<ArrayBuffer>>, calls = { getFile: 0 }): DirectoryHandleLike {
  const children = new Map<string, Record<string, Uint8Array<ArrayBuffer>>>()
  const own: HandleLike[] = []
  for (const [path, data] of Object.entries(files)) {
    const [head, ...rest] = path.split('/')
    if (rest.length === 1 && rest[0] === '') {
      if (!children.has(head)) children.set(head, {}) // "name/": an empty folder
    } else if (rest.length === 0) {
      own.push({ kind: 'file', name: head, getFile: async () => { calls.getFile++; return new File([data], head, { lastModified: modified }) } } as FileHandleLike)
    } else {
      if (!children.has(head)) children.set(head, {})
      children.get(head)![rest.join('/')] = data
    }
  }
  for (const [child, sub] of children) own.push(fakeDirectory(child, sub, calls))
  return { kind: 'directory', name, async *values() { yield* own } }
}

describe('directory-handle folders', () => {
  test('listFolders gives every folder below the root, empty ones included', async () => {
    const source = createDirectoryHandleSource(fakeDirectory('r', { 'a/b/x.bin': bytes(1, 1), 'a/empty/': bytes(0, 0), 'c/': bytes(0, 0) }))
    expect((await source.listFolders!()).sort()).toEqual(['a', 'a/b', 'a/empty', 'c'])
    expect((await source.list()).map((f) => f.path)).toEqual(['a/b/x.bin'])
  })
})

describe('memory source', () => {
  test('lists, reads copies, clamps, counts; siblings when given', async () => {
    const tsv = bytes(9, 9)
    const source = createMemorySource(tree, { rootName: 'version=0', siblings: { 'language_distribution_0.tsv': tsv } })
    expect(source.root).toBe('memory:/version=0')
    expect((await source.list()).sort(byPath)).toEqual(expectedList)
    const path = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
    const got = await source.read(path, 390, 500)
    expect(got).toEqual(tree[path].slice(390))
    got[0] ^= 0xff
    expect(await source.read(path, 390, 391)).toEqual(tree[path].slice(390, 391))
    expect(await source.readSibling!('language_distribution_0.tsv')).toEqual(tsv)
    expect(await source.readSibling!('other.tsv')).toBeNull()
    expect(await source.listSiblings!()).toEqual(['language_distribution_0.tsv'])
    expect(source.counters).toEqual({ requests: 3, bytes: 10 + 1 + 9 })
    await expect(source.read('missing', 0, 1)).rejects.toThrow('memory: no file "missing" under memory:/version=0')
    await expect(source.read(path, 5, 4)).rejects.toThrow(/asks for bytes \[5, 4\)/)
    expect(await createMemorySource({}).readSibling!('x')).toBeNull()
  })
})

describe('file-list source (webkitdirectory)', () => {
  const picked = (folder: string, files: Record<string, Uint8Array<ArrayBuffer>>) => Object.entries(files).map(([path, data]) => {
    const file = new File([data], path.split('/').at(-1)!, { lastModified: modified })
    Object.defineProperty(file, 'webkitRelativePath', { value: `${folder}/${path}` })
    return file
  })

  test('strips the picked folder name and reads File slices', async () => {
    const source = createFileListSource(picked('version=0', tree))
    expect(source.kind).toBe('file-list')
    expect(source.rootName).toBe('version=0')
    expect((await source.list()).sort(byPath)).toEqual(expectedWithMtime)
    const path = 'corpus=a/split=train/language=ä/part 1.parquet'
    expect(await source.read(path, 10, 100)).toEqual(tree[path].slice(10))
    expect(source.counters).toEqual({ requests: 1, bytes: 20 })
    await expect(source.read('version=0/' + path, 0, 1)).rejects.toThrow(/no file "version=0\/corpus=a/)
  })

  test('files from two folders, or a flat pick', async () => {
    expect(() => createFileListSource([...picked('a', { x: bytes(1, 0) }), ...picked('b', { y: bytes(1, 0) })]))
      .toThrow('file-list: picked files come from folders "a" and "b", expected one folder')
    const flat = createFileListSource([new File([bytes(3, 0)], 'one.parquet', { lastModified: 5.7 })])
    expect(flat.rootName).toBe('')
    expect(await flat.list()).toEqual([{ path: 'one.parquet', size: 3, mtimeMs: 5 }])
  })
})

describe('directory-handle source', () => {
  test('walks the handle recursively, keeps File snapshots, reads slices', async () => {
    const calls = { getFile: 0 }
    const source = createDirectoryHandleSource(fakeDirectory('version=0', tree, calls))
    expect(source.rootName).toBe('version=0')
    expect((await source.list()).sort(byPath)).toEqual(expectedWithMtime)
    expect(calls.getFile).toBe(4)
    const path = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
    expect(await source.read(path, 0, 4)).toEqual(tree[path].slice(0, 4))
    expect(await source.read(path, 396, 1000)).toEqual(tree[path].slice(396))
    await source.list()
    expect(calls.getFile).toBe(4) // walked once, Files cached
    expect(source.counters).toEqual({ requests: 2, bytes: 8 })
    expect(await source.readSibling!('language_distribution_0.tsv')).toBeNull()
    await expect(source.read('nope', 0, 1)).rejects.toThrow('directory-handle: no file "nope" under "version=0"')
  })

  test('reads before list walk first', async () => {
    const source = createDirectoryHandleSource(fakeDirectory('d', { 'a/b.bin': bytes(10, 5) }))
    expect(await source.read('a/b.bin', 2, 5)).toEqual(bytes(10, 5).slice(2, 5))
  })
})

describe('counting source', () => {
  test('logs each read and counts calls and bytes, whatever the inner source does', async () => {
    const inner = createMemorySource(tree, { siblings: { 's.tsv': bytes(4, 0) } })
    const source = createCountingSource(inner)
    const path = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
    await source.list()
    await source.read(path, 0, 8)
    await source.read(path, 395, 420)
    await source.read('_manifest.json', 0, 5)
    await source.readSibling!('s.tsv')
    expect(source.listCalls).toBe(1)
    expect(source.readsOf(path)).toEqual([{ path, start: 0, end: 8, bytes: 8 }, { path, start: 395, end: 420, bytes: 5 }])
    expect(source.counters).toEqual({ requests: 4, bytes: 8 + 5 + 5 + 4 })
    expect(await source.listSiblings!()).toEqual(['s.tsv'])
    source.reset()
    expect(source.reads).toEqual([])
    expect(source.counters).toEqual({ requests: 0, bytes: 0 })
    expect(inner.counters).toEqual({ requests: 4, bytes: 22 })
  })
})
