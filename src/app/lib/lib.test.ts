import { describe, expect, test } from 'vitest'
import { finding, hoursByLanguage, hoursBySplit } from '../../engine/index.ts'
import type { PartitionStats } from '../../engine/dataset/stats-types.ts'
import { exactText, formatBytes, formatCount, formatDifference, formatHours, formatProbability, formatSamples, formatShare } from './format.ts'
import { clampRange, countBelow, coverageCurve, itemsForShare, logHistogram, panRange, rankItems, zoomRange } from './distribution.ts'
import { bcp47Tag, languageLabel, languageName } from './language-names.ts'
import { countBySeverity, mergeFindings } from './merge-findings.ts'
import { datasetParam, withDatasetParam, withRedirectOrigins } from './url-state.ts'
import { findingsInFocus, languageOf } from './finding-language.ts'

function partition(corpus: string, language: string, split: string, hours: number, rows = 10): PartitionStats {
  return { corpus, language, split, files: 1, row_groups: 1, rows, samples: hours * 16000 * 3600, hours }
}

describe('language names', () => {
  test('Omnilingual codes get English names with their script', () => {
    expect(languageName('fra_Latn')).toBe('French (Latin)')
    expect(languageName('rus_Cyrl')).toBe('Russian (Cyrillic)')
    expect(languageLabel('hin_Deva')).toMatch(/^Hindi \(Devanagari\)$/)
  })
  test('unknown or malformed codes fall back to the code', () => {
    expect(languageName('qqx_Zzzz')).toBeNull()
    expect(languageLabel('not a code!')).toBe('not a code!')
  })
  test('lang attributes are valid BCP 47: the shortest ISO 639 code, macrolanguages as the IANA registry prefers', () => {
    expect(bcp47Tag('deu_Latn')).toBe('de-Latn')
    expect(bcp47Tag('swh_Latn')).toBe('sw-Latn')
    expect(bcp47Tag('cmn_Hans')).toBe('zh-Hans')
    expect(bcp47Tag('yue_Hant')).toBe('yue-Hant')
    expect(bcp47Tag('hin_Deva')).toBe('hi-Deva')
    expect(bcp47Tag('not a code')).toBeUndefined()
    expect(bcp47Tag(undefined)).toBeUndefined()
  })
})

describe('aggregations', () => {
  const parts = [
    partition('c1', 'fra_Latn', 'train', 2, 20),
    partition('c1', 'fra_Latn', 'dev', 0.5, 5),
    partition('c2', 'fra_Latn', 'train', 1, 10),
    partition('c1', 'eng_Latn', 'test', 4, 40),
  ]
  test('hours by language: summed over corpora and splits, most hours first, shares sum to 1', () => {
    const byLanguage = hoursByLanguage(parts)
    expect(byLanguage.map((l) => [l.language, l.hours, l.rows])).toEqual([['eng_Latn', 4, 40], ['fra_Latn', 3.5, 35]])
    expect(byLanguage[0].share + byLanguage[1].share).toBeCloseTo(1, 12)
  })
  test('hours by split: one row per (corpus, language), splits in train/dev/test order', () => {
    const pivot = hoursBySplit(parts)
    expect(pivot.splits).toEqual(['train', 'dev', 'test'])
    expect(pivot.rows).toEqual([
      { corpus: 'c1', language: 'eng_Latn', hours: { test: 4 }, total: 4 },
      { corpus: 'c1', language: 'fra_Latn', hours: { train: 2, dev: 0.5 }, total: 2.5 },
      { corpus: 'c2', language: 'fra_Latn', hours: { train: 1 }, total: 1 },
    ])
  })
})

describe('findings and formats', () => {
  test('merge drops exact duplicates and sorts by path', () => {
    const a = finding('error', 'bad-footer', 'b.parquet', 'no PAR1')
    const b = finding('warning', 'tsv-mismatch', '', 'hours differ')
    const merged = mergeFindings([a, b], [a])
    expect(merged).toEqual([b, a])
    expect(countBySeverity(merged)).toEqual({ error: 1, warning: 1, info: 0 })
  })
  test('one formatting layer: adaptive duration units, 3 significant digits, separators, no signed zero', () => {
    // the raw floats, as the page now shows them
    expect(formatHours(1543.669 / 57600)).toBe('1.61 min')
    expect(formatHours(0.004360364583333333)).toBe('15.7 s')
    expect(formatHours(0.016306302083333335)).toBe('58.7 s')
    expect(formatHours(12.3456)).toBe('12.3 h')
    expect(formatHours(1234.5)).toBe('1,235 h')
    expect(formatHours(0)).toBe('0 h')
    expect(formatSamples(16000 * 90)).toBe('1.5 min')
    expect(formatCount(1600)).toBe('1,600')
    expect(formatShare(0.4213)).toBe('42.1%')
    expect(formatShare(0.00004)).toBe('< 0.01%')
    expect(formatShare(0)).toBe('0%')
    expect(formatDifference(0)).toBe('same')
    expect(formatDifference(0.0000001)).toBe('+< 0.01%')
    expect(formatDifference(-0.0000001)).toBe('−< 0.01%')
    expect(formatDifference(-0.125)).toBe('−12.5%')
    expect(formatProbability(0.11312)).toBe('0.113')
    expect(formatProbability(0.0000123)).toBe('1.23e−5')
    // the exact value reads back as the same float64
    expect(Number(exactText(1543.669 / 57600, 'h').replace(' h', ''))).toBe(1543.669 / 57600)
    expect(exactText(1543.669 / 57600, 'h')).toMatch(/^0\.0267998\d+ h$/)
    expect(formatBytes(999)).toBe('999 B')
    expect(formatBytes(1_234_567)).toBe('1.23 MB')
  })
})

describe('page URL state', () => {
  test('?redirect_origins= lists the origins a URL dataset may be redirected to; other sources are untouched', () => {
    const url = { type: 'url', url: 'https://h/d/' } as const
    expect(withRedirectOrigins(url, '?redirect_origins=https%3A%2F%2Fcdn.example, https://b.example')).toEqual({ ...url, redirectOrigins: ['https://cdn.example', 'https://b.example'] })
    expect(withRedirectOrigins(url, '?view=overview')).toBe(url)
    expect(withRedirectOrigins(url, '?redirect_origins=')).toBe(url)
    const demo = { type: 'demo', url: 'http://x/demo/version=0/' } as const
    expect(withRedirectOrigins(demo, '?redirect_origins=*')).toBe(demo)
  })

  test('URL datasets are named in ?dataset=, the demo and folders are not; other parameters stay', () => {
    expect(datasetParam({ type: 'url', url: 'https://h/d/version=0/' })).toBe('https://h/d/version=0/')
    expect(datasetParam({ type: 'demo', url: 'http://x/demo/version=0/' })).toBeNull()
    const set = withDatasetParam('http://x/?view=overview', 'https://h/d/version=0/')
    expect(new URL(set).searchParams.get('dataset')).toBe('https://h/d/version=0/')
    expect(new URL(set).searchParams.get('view')).toBe('overview')
    expect(withDatasetParam(set, null)).toBe('http://x/?view=overview')
  })
})

describe('distributions at 1,600 items', () => {
  test('log histogram, coverage curve, threshold counts', () => {
    const values = Array.from({ length: 1600 }, (_, i) => 10 ** (-2 + (4 * i) / 1599))
    const { bins, nonPositive } = logHistogram([...values, 0], 4)
    expect(nonPositive).toBe(1)
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(1600)
    expect(bins.length).toBe(17)
    for (const b of bins) for (const i of b.items) expect(values[i] >= b.lo * (1 - 1e-9) && values[i] <= b.hi * (1 + 1e-9)).toBe(true)
    expect(countBelow(values, [1])[0]).toBe(values.filter((v) => v < 1).length)
    const curve = coverageCurve(values, 400)
    expect(curve.length).toBeLessThanOrEqual(402)
    expect(curve.at(-1)).toEqual({ rank: 1600, share: expect.closeTo(1, 12) })
    const k = itemsForShare(values, 0.5)
    const sorted = [...values].sort((a, b) => b - a)
    const total = sorted.reduce((a, b) => a + b, 0)
    expect(sorted.slice(0, k).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(total / 2)
    expect(sorted.slice(0, k - 1).reduce((a, b) => a + b, 0)).toBeLessThan(total / 2)
  })

  test('ranked windows: rank order with ties by code, clamped, zoomed and panned inside the list', () => {
    const ranked = rankItems([{ key: 'b', value: 2 }, { key: 'c', value: 5 }, { key: 'a', value: 2 }, { key: 'd', value: 0 }])
    expect(ranked).toEqual([{ rank: 1, key: 'c', value: 5 }, { rank: 2, key: 'a', value: 2 }, { rank: 3, key: 'b', value: 2 }, { rank: 4, key: 'd', value: 0 }])
    expect(clampRange({ start: -5, end: 3000 }, 1600)).toEqual({ start: 0, end: 1599 })
    expect(clampRange({ start: 900, end: 10 }, 1600)).toEqual({ start: 10, end: 900 })
    expect(clampRange({ start: 3, end: 4 }, 0)).toEqual({ start: 0, end: 0 })
    // zoom in halves the window about its middle, zoom out doubles it, never past the ends nor under 5 ranks
    expect(zoomRange({ start: 100, end: 139 }, 0.5, 1600)).toEqual({ start: 110, end: 129 })
    expect(zoomRange({ start: 100, end: 139 }, 2, 1600)).toEqual({ start: 80, end: 159 })
    expect(zoomRange({ start: 0, end: 39 }, 2, 1600)).toEqual({ start: 0, end: 79 })
    expect(zoomRange({ start: 1580, end: 1599 }, 4, 1600)).toEqual({ start: 1520, end: 1599 })
    expect(zoomRange({ start: 10, end: 15 }, 0.1, 1600)).toEqual({ start: 11, end: 15 })
    expect(zoomRange({ start: 0, end: 1599 }, 2, 1600)).toEqual({ start: 0, end: 1599 })
    // pan by whole windows, stopping at either end with the width kept
    expect(panRange({ start: 0, end: 39 }, 1, 1600)).toEqual({ start: 40, end: 79 })
    expect(panRange({ start: 1570, end: 1589 }, 1, 1600)).toEqual({ start: 1580, end: 1599 })
    expect(panRange({ start: 20, end: 59 }, -1, 1600)).toEqual({ start: 0, end: 39 })
  })
})

describe('findings under a language focus', () => {
  test('keeps findings of focused languages and those about no single language; all without a focus', () => {
    const fs = [
      { path: 'corpus=a/language=eng_Latn', kind: 'over-repeated-partition' },
      { path: 'corpus=a/language=swh_Latn', kind: 'unseen-partition' },
      { path: 'corpus=b/split=train/language=d%C3%A9u_Latn/part-0.parquet', kind: 'x' },
      { path: '', kind: 'fragment-epoch-replay' },
    ]
    expect(languageOf(fs[2])).toBe('déu_Latn')
    expect(languageOf(fs[3])).toBeNull()
    expect(findingsInFocus(fs, new Set()).map((f) => f.kind)).toEqual(['over-repeated-partition', 'unseen-partition', 'x', 'fragment-epoch-replay'])
    expect(findingsInFocus(fs, new Set(['swh_Latn'])).map((f) => f.kind)).toEqual(['unseen-partition', 'fragment-epoch-replay'])
    expect(findingsInFocus(fs, new Set(['déu_Latn', 'eng_Latn'])).map((f) => f.kind)).toEqual(['over-repeated-partition', 'x', 'fragment-epoch-replay'])
  })
})
