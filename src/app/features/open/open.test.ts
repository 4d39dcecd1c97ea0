import { expect, test } from 'vitest'
import { normalizeDatasetUrl } from './open-url-form.tsx'
import { pickedFolderName } from '../../lib/pick-directory.ts'

test('dataset URLs: relative ones resolve against the page, folder roots get their trailing slash', () => {
  const page = 'http://127.0.0.1:4173/app/?x=1'
  expect(normalizeDatasetUrl('/demo/version=0', page)).toBe('http://127.0.0.1:4173/demo/version=0/')
  expect(normalizeDatasetUrl(' https://h/d/version=0/ ', page)).toBe('https://h/d/version=0/')
  expect(normalizeDatasetUrl('https://h/d/part-0.parquet', page)).toBe('https://h/d/part-0.parquet')
  expect(normalizeDatasetUrl('data/', page)).toBe('http://127.0.0.1:4173/app/data/')
  expect(() => normalizeDatasetUrl('http://', page)).toThrow()
})

test('the picked folder is named by the first segment of webkitRelativePath', () => {
  const file = (path: string) => Object.assign(new File([], path.split('/').at(-1)!), { webkitRelativePath: path })
  expect(pickedFolderName([file('version=0/corpus=a/split=train/language=x/part-0.parquet')])).toBe('version=0')
  expect(pickedFolderName([])).toBe('folder')
})
