import { describe, expect, it } from 'vitest'
import type { DatasetFile } from '../../src/engine/dataset/dataset.ts'
import { hiveKeysOf, partitionIdOf } from '../../src/engine/dataset/hive.ts'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { selectPartitions, type SelectConfig } from '../../src/engine/pipeline/config/select.ts'

/** A discovered file with `groups` row groups of `rows` rows each. */
function file(path: string, groups = 1, rows = 10): DatasetFile {
  const keys = hiveKeysOf(path)
  return {
    path, size: 1000, keys, partition: partitionIdOf(keys), readable: true, columns: [], rows: groups * rows,
    rowGroups: Array.from({ length: groups }, (_, i) => ({ index: i, rows, firstRow: i * rows })),
  }
}

const config = (partition_filters: string | null = null, sync_mode: SelectConfig['sync_mode'] = 'UNTIL_FIRST'): SelectConfig =>
  ({ sync_mode, fragment_streaming: { partition_filters } })

const files = [
  'corpus=mls_extra/split=train/language=eng_Latn/a.parquet',
  'corpus=mls/split=train/language=fra_Latn/a.parquet',
  'corpus=mls/split=train/language=eng_Latn/b.parquet',
  'corpus=mls/split=train/language=eng_Latn/a.parquet',
  'corpus=fleurs/split=train/language=eng_Latn/a.parquet',
  'corpus=fleurs/split=dev/language=eng_Latn/a.parquet',
  'corpus=mls/split=dev/language=eng_Latn/a.parquet',
  'corpus=mls/split=dev_clean/language=eng_Latn/a.parquet',
].map((p) => file(p, 2))

const groupsOf = (s: ReturnType<typeof selectPartitions>) => s.partitions.map((p) => `${p.corpus}/${p.language}`)

function thrown(fn: () => unknown): MixscopeError {
  try {
    fn()
  } catch (error) {
    return error as MixscopeError
  }
  throw new Error('expected an error')
}

describe('selectPartitions', () => {
  it('groups by (language, corpus) in order of first appearance in sorted path order, fragments in file then row-group order', () => {
    const s = selectPartitions({ files }, config(), 'train')
    expect(groupsOf(s)).toEqual(['fleurs/eng_Latn', 'mls/eng_Latn', 'mls/fra_Latn', 'mls_extra/eng_Latn'])
    expect(s.partitions[1].fragments.map((f) => `${f.path.split('/').pop()}#${f.rowGroup}@${f.firstRow}`)).toEqual(['a.parquet#0@0', 'a.parquet#1@10', 'b.parquet#0@0', 'b.parquet#1@10'])
    expect(s.trainStreaming).toBe(true)
  })

  it('keeps the first-appearance order when the language folder is outermost and versions are merged', () => {
    const layout = [
      'version=1/language=eng_Latn/corpus=b/split=train/x.parquet',
      'version=0/language=fra_Latn/corpus=a/split=train/x.parquet',
      'version=0/language=eng_Latn/corpus=b/split=train/x.parquet',
      'version=1/language=eng_Latn/corpus=a/split=train/x.parquet',
    ].map((p) => file(p))
    const s = selectPartitions({ files: layout }, config(), 'train')
    expect(groupsOf(s)).toEqual(['b/eng_Latn', 'a/fra_Latn', 'a/eng_Latn'])
    expect(s.partitions[0].fragments.map((f) => f.path)).toEqual(['version=0/language=eng_Latn/corpus=b/split=train/x.parquet', 'version=1/language=eng_Latn/corpus=b/split=train/x.parquet'])
  })

  it('parses the split string: the rest after the first "_" is the corpus, underscores included', () => {
    expect(groupsOf(selectPartitions({ files }, config(), 'train_mls_extra'))).toEqual(['mls_extra/eng_Latn'])
    expect(groupsOf(selectPartitions({ files }, config(), 'train_mls'))).toEqual(['mls/eng_Latn', 'mls/fra_Latn'])
  })

  it('cannot select a split value containing "_" and raises the reference AssertionError with the raw string', () => {
    const e = thrown(() => selectPartitions({ files }, config(), 'dev_clean'))
    expect(e).toBeInstanceOf(MixscopeError)
    expect(e.kind).toBe('no-parquet-files-for-split')
    expect(e.message).toContain('AssertionError: No parquet files found for the current split dev_clean.')
    expect(thrown(() => selectPartitions({ files }, config(), 'train_')).message).toContain('current split train_.')
  })

  it('applies partition_filters at selection for train, so filtered partitions are not in the mixture', () => {
    const s = selectPartitions({ files }, config('pc.is_in(pc.field("corpus"), pa.array(["mls"]))'), 'train')
    expect(groupsOf(s)).toEqual(['mls/eng_Latn', 'mls/fra_Latn'])
    expect(s.removedByPartitionFilters).toEqual(['corpus=fleurs/split=train/language=eng_Latn/a.parquet', 'corpus=mls_extra/split=train/language=eng_Latn/a.parquet'])
  })

  it('re-applies partition_filters to eval splits (the streamer quirk): eval data is filtered too', () => {
    const s = selectPartitions({ files }, config('[("corpus", "in", ["mls"])]'), 'dev')
    expect(s.trainStreaming).toBe(false)
    expect(s.files.map((f) => f.path)).toEqual(['corpus=mls/split=dev/language=eng_Latn/a.parquet'])
    // the group exists (selection skipped the filter) but streams nothing
    expect(s.partitions.map((p) => [`${p.corpus}/${p.language}`, p.fragments.length])).toEqual([['fleurs/eng_Latn', 0], ['mls/eng_Latn', 2]])
    expect(s.removedByPartitionFilters).toEqual(['corpus=fleurs/split=dev/language=eng_Latn/a.parquet'])
  })

  it('treats "train" splits read with UNTIL_LAST as eval: filters are re-applied, not used for selection', () => {
    const s = selectPartitions({ files }, config('[("corpus", "=", "fleurs")]', 'UNTIL_LAST'), 'train')
    expect(s.trainStreaming).toBe(false)
    expect(s.files.map((f) => f.keys.corpus)).toEqual(['fleurs'])
    expect(groupsOf(s)).toEqual(['fleurs/eng_Latn', 'mls/eng_Latn', 'mls/fra_Latn', 'mls_extra/eng_Latn'])
  })

  it('raises the AssertionError when train partition_filters remove every file', () => {
    expect(thrown(() => selectPartitions({ files }, config('[("corpus", "=", "none")]'), 'train')).kind).toBe('no-parquet-files-for-split')
  })

  it('names a selected file that lacks the language key', () => {
    const e = thrown(() => selectPartitions({ files: [file('corpus=a/split=train/x.parquet')] }, config(), 'train'))
    expect(e.kind).toBe('missing-partition-key')
    expect(e.message).toContain('corpus=a/split=train/x.parquet')
  })
})
