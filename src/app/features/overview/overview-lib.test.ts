import { expect, test } from 'vitest'
import type { PartitionStats } from '../../../engine/dataset/stats-types.ts'
import { hoursBy, tsvCoverageOf } from '../../../engine/index.ts'
import { filterPartitions, sortPartitions } from './partition-filter.ts'

const p = (corpus: string, language: string, split: string, rows: number, hours: number): PartitionStats => ({ corpus, language, split, files: 1, row_groups: 1, rows, samples: hours * 16000 * 3600, hours })
const parts = [p('mls', 'eng_Latn', 'train', 10, 2), p('mls', 'eng_Latn', 'dev', 2, 0.5), p('fleurs', 'swh_Latn', 'train', 5, 3), p('cv', 'deu_Latn', 'test', 1, 0.1)]

test('hours per corpus / split, most hours first', () => {
  expect(hoursBy(parts, 'corpus')).toEqual([{ key: 'fleurs', hours: 3, rows: 5 }, { key: 'mls', hours: 2.5, rows: 12 }, { key: 'cv', hours: 0.1, rows: 1 }])
  expect(hoursBy(parts, 'split').map((g) => g.key)).toEqual(['train', 'dev', 'test'])
})

test('partition filter: key=value tokens (a folder path) match exactly, other tokens as substrings', () => {
  expect(filterPartitions(parts, 'corpus=mls/split=train/language=eng_Latn')).toEqual([parts[0]])
  expect(filterPartitions(parts, 'eng')).toEqual([parts[0], parts[1]])
  expect(filterPartitions(parts, 'split=train swh')).toEqual([parts[2]])
  expect(filterPartitions(parts, '  ')).toEqual(parts)
  expect(sortPartitions(parts, 'hours', true).map((x) => x.hours)).toEqual([3, 2, 0.5, 0.1])
  expect(sortPartitions(parts, 'corpus', false).map((x) => x.corpus)).toEqual(['cv', 'fleurs', 'mls', 'mls'])
})

// its speed per keystroke is a benchmark row (`npm run bench -- explorer`), not a timed unit test
test('10,000 partitions filter and sort: every match, in order', () => {
  const many = Array.from({ length: 10_000 }, (_, i) => p(`c${i % 37}`, `l${i % 997}_Latn`, i % 3 ? 'train' : 'dev', i, i / 7))
  const shown = sortPartitions(filterPartitions(many, 'split=train l1'), 'hours', true)
  expect(shown.length).toBe(many.filter((x) => x.split === 'train' && x.language!.includes('l1')).length)
  expect(shown.every((x, i) => i === 0 || shown[i - 1].hours >= x.hours)).toBe(true)
  expect(shown.every((x) => x.split === 'train' && x.language!.includes('l1'))).toBe(true)
})

/** The plain comparator sort (the definition sortPartitions must equal): UTF-8 bytes, numbers, missing after every value ascending. */
function referenceSort(partitions: readonly PartitionStats[], key: 'corpus' | 'language' | 'hours', descending: boolean): PartitionStats[] {
  const missing = (v: unknown) => v === null || v === undefined
  const bytes = (v: unknown) => new TextEncoder().encode(String(v))
  return partitions.map((p, i) => [p, i] as const).sort(([a, i], [b, j]) => {
    const x = a[key], y = b[key]
    let c: number
    if (missing(x) || missing(y)) c = missing(x) ? (missing(y) ? 0 : 1) : -1
    else if (typeof x === 'number' && typeof y === 'number') c = x - y
    else {
      const ex = bytes(x), ey = bytes(y)
      c = 0
      for (let k = 0; k < Math.min(ex.length, ey.length) && c === 0; k++) c = ex[k] - ey[k]
      if (c === 0) c = ex.length - ey.length
    }
    return (descending ? -c : c) || i - j
  }).map(([p]) => p)
}

test('sorting equals the plain comparator: text by UTF-8 bytes (astral and BMP above U+D800), numbers, missing values, ties in order', () => {
  const words = ['eng_Latn', 'eng', 'éwé', '\u{1F600}x', '\uFB01a', 'Zulu', 'zulu', '']
  let seed = 7
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const rows = Array.from({ length: 400 }, (_, i): PartitionStats => ({
    corpus: random() < 0.1 ? null : words[Math.floor(random() * words.length)],
    language: words[i % words.length], split: 'train', files: 1, row_groups: 1, rows: i, samples: 0,
    hours: random() < 0.05 ? (null as unknown as number) : Math.floor(random() * 20) / 4,
  }))
  for (const key of ['corpus', 'language', 'hours'] as const) {
    for (const descending of [false, true]) expect(sortPartitions(rows, key, descending)).toEqual(referenceSort(rows, key, descending))
  }
})

test('the filter on a list it has seen: the same matches, case-insensitive, never across two values', () => {
  const rows = [p('mls', 'eng_Latn', 'train', 1, 1), p('MLS2', 'deu_Latn', 'dev', 1, 1)]
  expect(filterPartitions(rows, 'mls')).toEqual(rows)
  expect(filterPartitions(rows, 'ENG')).toEqual([rows[0]])
  // "mls" then "eng_Latn": no needle made of the end of one value and the start of the next
  expect(filterPartitions(rows, 'lseng')).toEqual([])
  expect(filterPartitions(rows, 'split=dev mls')).toEqual([rows[1]])
})

test('TSV vs data: both directions, train hours, which splits the TSV counts', () => {
  const rows = tsvCoverageOf({ partitions: parts, summary: { path: 't.tsv', rows: [{ corpus: 'mls', language: 'eng_Latn', hours: 2 }, { corpus: 'x', language: 'y', hours: 1 }] } })
  expect(rows.find((r) => r.corpus === 'mls')).toMatchObject({ tsvHours: 2, dataHours: 2.5, trainHours: 2, kind: 'train-only', splits: ['train'] })
  expect(rows.find((r) => r.corpus === 'x')).toMatchObject({ dataHours: 0, kind: 'no-data' })
  expect(rows.find((r) => r.corpus === 'fleurs')).toMatchObject({ tsvHours: null, dataHours: 3, kind: 'no-tsv-row' })
})
