/**
 * Which files a reader of split `S` reads, grouped into mixture partitions (docs/reference-pipeline.md §2-§3;
 * OA mixture_parquet_storage.py:201-234, 303-335, 408-429; fairseq2 streamer re-filtering, §3 "Quirk").
 */
import { compareUtf8, MixscopeError } from '../../core/findings.ts'
import type { Dataset, DatasetFile } from '../../dataset/dataset.ts'
import { compilePartitionFilters, type PartitionFilter } from './partition-filter.ts'
import { isTrainStreaming, parseSplit } from './split.ts'
import type { SyncMode, PartitionFiltersSetting } from './types.ts'
import type { MixturePartition } from '../plan-batches.ts'
import { referenceError } from '../errors.ts'
import { partitionKey } from '../weights.ts'

/** The config fields selection reads. */
export interface SelectConfig {
  sync_mode: SyncMode
  fragment_streaming: { partition_filters: PartitionFiltersSetting }
}

/** What a reader of one split string selects. */
export interface Selection {
  /** The raw split string, e.g. `train_mls`. */
  raw: string
  /** Value the `split` key must equal (the first `_` piece). */
  split: string
  /** Corpus suffix filter, or `null`. */
  corpus: string | null
  /** `"train" in raw` and UNTIL_FIRST: infinite shuffled streams, mixture when weighted. */
  trainStreaming: boolean
  /**
   * Mixture partitions in the reference's dict order (first appearance in sorted path order among the files the
   * selection picked), each with the files that survive the streamer's `partition_filters` re-application, row groups
   * in file then row-group order. A partition whose files were all removed by that re-application keeps an empty
   * fragment list (eval only: train applies the filter at selection already).
   */
  partitions: MixturePartition[]
  /** The selected files (after every filter) in sorted path order. */
  files: DatasetFile[]
  /** Files of the split (and corpus) removed by `partition_filters`: at selection (train) or by the streamer (eval). */
  removedByPartitionFilters: string[]
}

/**
 * Whether a file may be selected by split string `raw`, from its hive keys alone: a file with `split`, `language` and
 * `corpus` keys of another split (or corpus suffix) never is. For `openDataset`'s `footersOf`: a superset of what
 * `selectPartitions` picks (partition filters are left to it), so planning one split reads only its files' footers.
 */
export function splitFooters(raw: string): (file: { keys: Record<string, string> }) => boolean {
  const parsed = parseSplit(raw)
  return ({ keys }) => {
    if (keys.split === undefined || keys.language === undefined || keys.corpus === undefined) return true
    return keys.split === parsed.split && (parsed.corpus === null || keys.corpus === parsed.corpus)
  }
}

/**
 * Selects the files of split string `raw`:
 * 1. `split == S` (first `_` piece), 2. `partition_filters` (only when train streaming), 3. `corpus == C` (suffix);
 * no file → the reference's `AssertionError("No parquet files found for the current split <raw>.")`;
 * 4. group by (language, corpus) in first-appearance order; 5. the fragment streamer re-applies `partition_filters`
 * to the selected files for every split, so eval data is filtered too (docs/reference-pipeline.md §3, §19.5).
 * Unreadable files stay selected with no row groups (the reference would fail reading them; `planDataset` refuses).
 * @throws MixscopeError `no-parquet-files-for-split` (the reference's AssertionError), `partition-filter-invalid`,
 *   `missing-partition-key` when a selected file lacks the `language` or `corpus` key.
 */
export function selectPartitions(dataset: Pick<Dataset, 'files'>, config: SelectConfig, raw: string): Selection {
  const parsed = parseSplit(raw)
  const trainStreaming = isTrainStreaming(raw, config.sync_mode)
  const filter = compilePartitionFilters(config.fragment_streaming.partition_filters)
  const files = [...dataset.files].sort((a, b) => compareUtf8(a.path, b.path))
  const removed: string[] = []
  const selected = files.filter((f) => {
    if (f.keys.split !== parsed.split) return false
    if (parsed.corpus !== null && f.keys.corpus !== parsed.corpus) return false
    if (trainStreaming && filter && !filter.matches(f.keys)) {
      removed.push(f.path)
      return false
    }
    return true
  })
  if (selected.length === 0) {
    throw referenceError('no-parquet-files-for-split', 'AssertionError', `No parquet files found for the current split ${raw}.`)
  }
  const groups = new Map<string, MixturePartition>()
  const kept: DatasetFile[] = []
  for (const f of selected) {
    const { language, corpus } = f.keys
    if (language === undefined || corpus === undefined) {
      throw new MixscopeError(`select: ${f.path} has no ${language === undefined ? 'language' : 'corpus'} folder key; the reference selects and groups on language and corpus and fails on it`,
        'missing-partition-key', 'data')
    }
    const key = partitionKey(corpus, language)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { corpus, language, fragments: [] }))
    if (!trainStreaming && !passes(filter, f)) {
      removed.push(f.path)
      continue
    }
    kept.push(f)
    for (const g of f.rowGroups) group.fragments.push({ path: f.path, rowGroup: g.index, rows: g.rows, firstRow: g.firstRow })
  }
  return { raw, split: parsed.split, corpus: parsed.corpus, trainStreaming, partitions: [...groups.values()], files: kept, removedByPartitionFilters: removed.sort(compareUtf8) }
}

function passes(filter: PartitionFilter | null, file: DatasetFile): boolean {
  return filter === null || filter.matches(file.keys)
}
