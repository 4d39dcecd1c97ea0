import { describe, expect, it } from 'vitest'
import { compareUtf8, sortFindings, finding } from '../../src/engine/core/findings.ts'
import { hiveKeysOf, partitionIdOf, rootHiveKey } from '../../src/engine/dataset/hive.ts'
import { parseSummaryTsv, findSummaryTsv } from '../../src/engine/dataset/summary-tsv.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createMemorySource } from '../../src/engine/source/memory-source.ts'

describe('compareUtf8', () => {
  it('orders by UTF-8 bytes, not UTF-16 units or locale', () => {
    const paths = ['b', 'B', 'a/b', 'a=1/x', 'a-1/x', 'é', 'z', '\u{1F600}', '\uFFFD', 'a/a']
    const expected = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))
    expect([...paths].sort(compareUtf8)).toEqual(expected)
    // the astral character sorts after U+FFFD in UTF-8 but before it in UTF-16
    expect(compareUtf8('\u{1F600}', '\uFFFD')).toBeGreaterThan(0)
    expect('\u{1F600}' < '\uFFFD').toBe(true)
  })
  it('agrees with a byte comparison on random strings of ASCII, BMP, high-BMP and astral characters', () => {
    const alphabet = ['a', 'b', '/', '=', '_', 'é', 'ß', '語', '\uE000', '\uFFFD', '\uFF5E', '\u{1F600}', '\u{10348}', '\u{1F3A7}']
    let s = 7
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0)
    const word = () => Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join('')
    for (let i = 0; i < 3000; i++) {
      const prefix = word()
      const [x, y] = [prefix + word(), prefix + word()]
      expect(Math.sign(compareUtf8(x, y)), `${JSON.stringify(x)} vs ${JSON.stringify(y)}`).toBe(Math.sign(Buffer.compare(Buffer.from(x), Buffer.from(y))))
    }
  })
  it('compares whole paths, so a/b sorts before a-b/ only by bytes', () => {
    expect(['a/z', 'a-b/z'].sort(compareUtf8)).toEqual(['a-b/z', 'a/z'])
  })
})

describe('hive keys', () => {
  it('reads key=value folders in any order and depth, URI-decoded, ignoring the file name', () => {
    expect(hiveKeysOf('language=hin_Deva/x/corpus=my%20corpus/split=train/part=0.parquet'))
      .toEqual({ language: 'hin_Deva', corpus: 'my corpus', split: 'train' })
    expect(hiveKeysOf('a=%ZZ/f.parquet')).toEqual({ a: '%ZZ' })
  })
  it('builds a partition id independent of key order', () => {
    expect(partitionIdOf({ split: 'train', corpus: 'a' })).toBe(partitionIdOf({ corpus: 'a', split: 'train' }))
    expect(rootHiveKey('version=0')).toEqual({ key: 'version', value: '0' })
    expect(rootHiveKey('data')).toBeNull()
  })
})

describe('summary TSV', () => {
  it('parses by column name, with findings for bad hours and numeric keys', () => {
    const { summary, findings } = parseSummaryTsv('language\textra\tcorpus\thours\neng_Latn\tx\tmls\t1.5\nfra_Latn\tx\t2020\tabc\n', 't.tsv')
    expect(summary.rows[0]).toEqual({ corpus: 'mls', language: 'eng_Latn', hours: 1.5 })
    expect(summary.rows[1].hours).toBeNaN()
    expect(findings.map((f) => f.kind).sort()).toEqual(['tsv-bad-hours', 'tsv-numeric-key'])
    expect(findings.find((f) => f.kind === 'tsv-bad-hours')!.message).toContain('"abc"')
  })
  it('reports missing columns', () => {
    const { findings } = parseSummaryTsv('corpus\tlang\thours\n', 't.tsv')
    expect(findings).toHaveLength(1)
    expect(findings[0].message).toContain('"language"')
  })
  it('looks in the root first, then beside a version=N root, preferring language_distribution_N.tsv', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s)
    const inRoot = createMemorySource({ 'language_distribution_9.tsv': bytes('r'), 'a/x.parquet': bytes('') }, { rootName: 'version=0' })
    expect((await findSummaryTsv(inRoot, await inRoot.list()))!.path).toBe('language_distribution_9.tsv')
    const siblings = { 'language_distribution_0.tsv': bytes('zero'), 'language_distribution_1.tsv': bytes('one') }
    const beside = createMemorySource({ 'a/x.parquet': bytes('') }, { rootName: 'version=1', siblings })
    const found = await findSummaryTsv(beside, await beside.list())
    expect(found!.path).toBe('../language_distribution_1.tsv')
    expect(new TextDecoder().decode(found!.bytes)).toBe('one')
    const plain = createMemorySource({ 'a/x.parquet': bytes('') }, { rootName: 'data', siblings })
    expect(await findSummaryTsv(plain, await plain.list())).toBeNull()
  })
})

describe('openDataset', () => {
  it('classifies ignored, stray and unreadable files without losing the rest', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s)
    const source = createMemorySource({
      'corpus=a/split=train/language=eng_Latn/part-0.parquet': bytes('not parquet at all'),
      'corpus=a/split=train/language=eng_Latn/_SUCCESS': bytes(''),
      '.hidden/x.parquet': bytes(''),
      'notes.txt': bytes('hello'),
      'language_distribution_0.tsv': bytes('corpus\tlanguage\thours\na\teng_Latn\t1\n'),
    }, { rootName: 'version=0' })
    const ds = await openDataset(source)
    expect(ds.files.map((f) => f.path)).toEqual(['corpus=a/split=train/language=eng_Latn/part-0.parquet'])
    expect(ds.files[0].readable).toBe(false)
    expect(ds.ignored).toEqual(['.hidden/x.parquet', 'corpus=a/split=train/language=eng_Latn/_SUCCESS'])
    expect(ds.stray).toEqual(['notes.txt'])
    expect(ds.summary!.rows).toHaveLength(1)
    const kinds = ds.findings.map((f) => `${f.severity}:${f.kind}:${f.path}`)
    expect(kinds).toContain('error:stray-file:notes.txt')
    expect(kinds).toContain('error:unreadable-parquet:corpus=a/split=train/language=eng_Latn/part-0.parquet')
    expect(kinds).toContain('info:ignored-file:.hidden/x.parquet')
    expect(ds.findings.find((f) => f.kind === 'unreadable-parquet')!.message).toMatch(/PAR1/)
  })
  it('sorts findings deterministically', () => {
    const a = finding('error', 'x', 'b', 'm')
    const b = finding('warning', 'y', 'a', 'm', { row: 3, row_group: 0 })
    const c = finding('info', 'z', '', 'm')
    expect(sortFindings([a, b, c])).toEqual([c, b, a])
  })
})

describe('empty partition folders', () => {
  it('reports the outermost folder with no parquet file below it (empty, or only ignored files), never ignored folders', async () => {
    const { mkdtemp, mkdir, copyFile, writeFile, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { createFsSource } = await import('../../src/engine/node/fs-source.ts')
    const root = await mkdtemp(join(tmpdir(), 'mixscope-empty-'))
    try {
      const part = join(import.meta.dirname, '../../public/demo/version=0/corpus=mls/split=train/language=eng_Latn/part-0.parquet')
      await mkdir(join(root, 'split=train/language=en'), { recursive: true })
      await copyFile(part, join(root, 'split=train/language=en/part-0.parquet'))
      await mkdir(join(root, 'split=dev/language=en'), { recursive: true })
      await mkdir(join(root, 'split=train/language=fr'), { recursive: true })
      await writeFile(join(root, 'split=train/language=fr/_SUCCESS'), '')
      await mkdir(join(root, '_tmp/split=x'), { recursive: true })
      const dataset = await openDataset(await createFsSource(root))
      const empty = dataset.findings.filter((f) => f.kind === 'empty-folder')
      expect(empty.map((f) => [f.path, f.severity])).toEqual([['split=dev/', 'warning'], ['split=train/language=fr/', 'warning']])
      expect(empty[0].message).toMatch(/^split=dev\/ is empty: .*split=dev contributes no rows/)
      expect(empty[1].message).toMatch(/holds no parquet file \(only 1 ignored file\).*split=train, language=fr contributes no rows/)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
