/**
 * Paging examples by partition from the footers (src/engine/examples/partition-pages.ts) lists what the example index
 * lists, in the same order, with the same lengths and transcripts, and neighbours agree; a page reads only the row
 * groups it shows, so a list of 10⁷ rows is usable before any full scan.
 */
import { describe, expect, test } from 'vitest'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { exampleIndex } from '../../src/engine/examples/example-index.ts'
import { neighbourExample, searchExamples, type ExampleFilter } from '../../src/engine/examples/search.ts'
import { pagesByPartition, partitionNeighbour, partitionPage } from '../../src/engine/examples/partition-pages.ts'

const open = async () => openDataset(await createFsSource('public/demo/version=0'), { facts: true })

const filters: ExampleFilter[] = [{}, { languages: ['eng_Latn'] }, { languages: ['eng_Latn', 'rus_Cyrl'], corpora: ['commonvoice'], splits: ['train'] }, { languages: ['xxx_Nope'] }]

describe('examples paged by partition', () => {
  test('a page reads only its row groups, and lists what the example index lists', async () => {
    const dataset = await open()
    const groups = dataset.files.reduce((n, f) => n + f.rowGroups.length, 0)
    const before = dataset.source.counters.requests
    const page = await partitionPage(dataset, { languages: ['rus_Cyrl'] }, 3, 5)
    expect(page.rows).toHaveLength(5)
    expect(page.rowFindings).toBe(false)
    // the rows of one or two row groups (and their footers), far from every row group of the demo
    expect(dataset.source.counters.requests - before).toBeLessThanOrEqual(6)
    expect(groups).toBeGreaterThan(20)

    const index = await exampleIndex(dataset)
    for (const filter of filters) {
      const whole = searchExamples(index, filter, null, 0, 1000)
      for (const [offset, limit] of [[0, 1000], [0, 7], [5, 13], [whole.total - 2, 10]]) {
        const want = searchExamples(index, filter, null, offset, limit)
        const got = await partitionPage(dataset, filter, offset, limit)
        expect(got.total, JSON.stringify(filter)).toBe(want.total)
        expect(got.facets).toEqual(want.facets)
        expect(got.rows.map(({ id, path, row, rowGroup, corpus, language, split, audioSize, text }) => ({ id, path, row, rowGroup, corpus, language, split, audioSize, text })))
          .toEqual(want.rows.map(({ id, path, row, rowGroup, corpus, language, split, audioSize, text }) => ({ id, path, row, rowGroup, corpus, language, split, audioSize, text })))
      }
      // neighbours of the first, a middle and the last match, both ways
      for (const at of whole.total > 0 ? [0, Math.floor(whole.total / 2), whole.total - 1] : []) {
        const id = searchExamples(index, filter, null, at, 1).rows[0].id
        for (const step of [1, -1]) expect(partitionNeighbour(dataset, filter, id, step)).toEqual(neighbourExample(index, filter, null, id, step, null))
      }
    }
  })

  test('only partition keys in dataset order are paged so; text, length, flags, sort and samples need the index', () => {
    expect(pagesByPartition({ languages: ['a'], corpora: ['b'], splits: ['c'], text: ' ' }, null, null)).toBe(true)
    expect(pagesByPartition({ text: 'x' }, null, null)).toBe(false)
    expect(pagesByPartition({ minSamples: 1 }, null, null)).toBe(false)
    expect(pagesByPartition({ flaggedOnly: true }, null, null)).toBe(false)
    expect(pagesByPartition({}, null, { key: 'length', descending: true })).toBe(false)
    expect(pagesByPartition({}, { perLanguage: 2, seed: 0 }, null)).toBe(false)
  })
})
