import { describe, expect, test } from 'vitest'
import { createSelectionStore, selectionFromSearch, withSelectionParams } from './selection-store.ts'

describe('selection store', () => {
  test('select sets the example and batch; omitting the batch clears it', () => {
    const store = createSelectionStore()
    store.getState().select('eng_Latn/a.parquet#3', 7)
    expect(store.getState()).toMatchObject({ exampleId: 'eng_Latn/a.parquet#3', batchIndex: 7 })
    store.getState().select('x')
    expect(store.getState()).toMatchObject({ exampleId: 'x', batchIndex: null })
  })

  test('URL round trip keeps other parameters and drops empty values', () => {
    const href = withSelectionParams('http://h/?view=inspector', { exampleId: 'a b/c#1', batchIndex: 2 })
    const url = new URL(href)
    expect(url.searchParams.get('view')).toBe('inspector')
    expect(selectionFromSearch(url.search)).toEqual({ exampleId: 'a b/c#1', batchIndex: 2 })
    const cleared = new URL(withSelectionParams(href, { exampleId: null, batchIndex: null }))
    expect(cleared.searchParams.has('example')).toBe(false)
    expect(cleared.searchParams.has('batch')).toBe(false)
    expect(selectionFromSearch('?batch=-1&example=')).toEqual({ exampleId: null, batchIndex: null })
  })
})
