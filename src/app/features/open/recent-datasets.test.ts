import { expect, test } from 'vitest'
import { loadRecent, parseRecent, recentEntry, recentKey, recentLimit, rememberRecent } from './recent-datasets.ts'

function memoryStorage() {
  const data = new Map<string, string>()
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => { data.set(k, v) } }
}

test('recent list: URL datasets keep their URL, folders only their name, newest first, no duplicates, capped', () => {
  const storage = memoryStorage()
  rememberRecent(storage, recentEntry({ description: { type: 'url', url: 'https://h/d/' }, label: 'https://h/d/' }, 1))
  rememberRecent(storage, recentEntry({ description: { type: 'files', files: [] }, label: 'version=0' }, 2))
  const list = rememberRecent(storage, recentEntry({ description: { type: 'url', url: 'https://h/d/' }, label: 'https://h/d/' }, 3))
  expect(list).toEqual([{ kind: 'url', name: 'https://h/d/', url: 'https://h/d/', at: 3 }, { kind: 'folder', name: 'version=0', at: 2 }])
  expect(storage.data.get(recentKey)).not.toContain('files')
  for (let i = 0; i < 20; i++) rememberRecent(storage, { kind: 'url', name: `u${i}`, url: `https://h/${i}/`, at: i })
  expect(loadRecent(storage)).toHaveLength(recentLimit)
  expect(parseRecent('{bad json')).toEqual([])
  expect(parseRecent(JSON.stringify([{ kind: 'url', name: 'no url', at: 1 }, { kind: 'demo', name: 'Demo', at: 2 }]))).toEqual([{ kind: 'demo', name: 'Demo', at: 2 }])
})

test('recent list: a dataset in browser storage keeps its folder name (reopenable), not its handle', () => {
  const storage = memoryStorage()
  const handle = {} as FileSystemDirectoryHandle
  const list = rememberRecent(storage, recentEntry({ description: { type: 'directory', handle }, label: 'prepared-x (browser storage)', browserStorage: 'prepared-x' }, 5))
  expect(list).toEqual([{ kind: 'browser', name: 'prepared-x (browser storage)', storage: 'prepared-x', at: 5 }])
  expect(loadRecent(storage)).toEqual(list)
  expect(parseRecent(JSON.stringify([{ kind: 'browser', name: 'no folder', at: 1 }]))).toEqual([])
})
