/**
 * Config checks of the storage side against the dataset (docs/reference-pipeline.md §2-§6, §19): split selection, partition
 * filters, mixture weights.
 */

import { finding, MixscopeError, type Finding } from '../../core/findings.ts'
import { partitionKey, partitionWeightsFromBetas } from '../weights.ts'
import { compilePartitionFilters, filterFields, type PartitionFilter } from './partition-filter.ts'
import { isTrainStreaming, parseSplit } from './split.ts'
import type { PipelineConfig } from './types.ts'
import type { ConfigCheckContext, ConfigPartitionInfo } from './check-context.ts'

const error = (kind: string, message: string) => finding('error', kind, '', message)
const warning = (kind: string, message: string) => finding('warning', kind, '', message)
const info = (kind: string, message: string) => finding('info', kind, '', message)

const list = (items: string[], max = 8) => items.slice(0, max).join(', ') + (items.length > max ? `, … (${items.length} in all)` : '')

/** Split parsing, partition selection and filters; returns the mixture partitions for `checkMixture`. */
export function checkSplitSelection(c: PipelineConfig, context: ConfigCheckContext, out: Finding[]): { corpus: string; language: string }[] {
  const parsed = parseSplit(c.split)
  const train = isTrainStreaming(c.split, c.sync_mode)
  if (c.split.includes('train') && parsed.split !== 'train' && c.sync_mode === 'UNTIL_FIRST') {
    out.push(warning('train-substring-test', `split "${c.split}" contains "train", so the reference streams it as training data (infinite, shuffled, mixed) although it selects split "${parsed.split}" (reference §3, §19.4)`))
  }
  if (parsed.split === 'train' && !train) {
    out.push(info('train-split-not-streaming', `split "${c.split}" with sync_mode UNTIL_LAST is read once in path order, like validation data (reference §3)`))
  }
  const underscored = [...new Set(context.partitions.map((p) => p.split).filter((s) => s.includes('_')))].sort()
  for (const s of underscored) {
    out.push(warning('split-name-unreachable', `split value "${s}" contains "_": the reference splits the requested split string on "_", so "${s}" can never be selected (reference §3, §19.4)`))
  }
  if (context.versions.length > 1) {
    out.push(warning('several-versions-merged', `the dataset root holds ${context.versions.length} versions (${list(context.versions)}): the reference merges them into the same partitions and never filters on version (reference §2, §19.7)`))
  }

  let filter: PartitionFilter | null = null
  try {
    filter = compilePartitionFilters(c.fragment_streaming.partition_filters)
  } catch (e) {
    if (!(e instanceof MixscopeError)) throw e
    out.push(error('partition-filter-invalid', `${e.message} (reference §3)`))
  }
  if (filter) {
    const known = new Set(context.partitions.flatMap((p) => Object.keys(p.keys)))
    const unknown = [...filterFields(filter.expr)].filter((f) => !known.has(f))
    if (unknown.length > 0 && context.partitions.length > 0) {
      out.push(error('partition-filter-unknown-key', `partition_filters references ${list(unknown.map((u) => `"${u}"`))}, not a partition key of this dataset (keys: ${list([...known].sort())}): pyarrow raises on the filter (reference §3)`))
      filter = null
    }
  }
  if (filter && !train) {
    out.push(warning('partition-filters-filter-eval', `partition_filters also restricts split "${c.split}": the reference skips it when selecting non-train files, but the fragment streamer re-applies it (reference §3, §19.5)`))
  }

  const inSplit = (p: ConfigPartitionInfo) => p.split === parsed.split && (parsed.corpus === null || p.corpus === parsed.corpus)
  const selected = context.partitions.filter((p) => inSplit(p) && (!train || !filter || filter.matches(p.keys)))
  if (selected.length === 0) {
    out.push(error('no-parquet-files-for-split', `split "${c.split}" selects no partition (split = "${parsed.split}"${parsed.corpus !== null ? `, corpus = "${parsed.corpus}"` : ''}${train && filter ? ', partition_filters' : ''}): the reference raises AssertionError("No parquet files found for the current split ${c.split}.") (reference §2, §3)`))
    return []
  }
  const effective = filter ? selected.filter((p) => filter.matches(p.keys)) : selected
  if (!train && effective.length === 0) {
    out.push(warning('partition-filters-empty-eval', `partition_filters removes every partition of split "${c.split}": the reference reads no data for it (reference §3)`))
  }
  const groups = new Map<string, { corpus: string; language: string }>()
  for (const p of effective) {
    const key = partitionKey(p.corpus, p.language)
    if (!groups.has(key)) groups.set(key, { corpus: p.corpus, language: p.language })
  }
  return [...groups.values()]
}

/** Mixture weights and the per-partition streams (docs/reference-pipeline.md §4-§6). */
export function checkMixture(c: PipelineConfig, context: ConfigCheckContext, groups: { corpus: string; language: string }[], out: Finding[]): void {
  if (!isTrainStreaming(c.split, c.sync_mode)) return
  const fs = c.fragment_streaming
  if (fs.fragment_shuffle_window !== 0 || fs.nb_epochs !== null) {
    out.push(warning('fragment-streaming-overridden', `fragment_shuffle_window = ${fs.fragment_shuffle_window} and nb_epochs = ${fs.nb_epochs} are never honoured: the reference forces −1 and infinite for training (reference §6, §19.2)`))
  }
  out.push(warning('fragment-epoch-replay', 'training streams precompute 100 epochs of row-group permutations, then replay the same 100-epoch sequence forever (reference §6, §19.9)'))
  const rows = context.summaryRows
  if (rows === null) return
  if (c.beta_corpus === null || c.beta_language === null) {
    out.push(error('mixture-betas-missing', `a dataset summary TSV is in use but beta_corpus = ${c.beta_corpus}, beta_language = ${c.beta_language}: the reference's bare assert raises AssertionError (reference §4)`))
    return
  }
  // what the TSV's hours count (every split, train only, another subset) is read from the data by the audit
  // (src/engine/dataset/tsv-coverage.ts): the config alone cannot tell
  const seen = new Map<string, number>()
  for (const r of rows) seen.set(partitionKey(r.corpus, r.language), (seen.get(partitionKey(r.corpus, r.language)) ?? 0) + 1)
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([k]) => k.replace('\u0000', '/'))
  if (duplicates.length > 0) out.push(warning('tsv-duplicate-rows', `summary TSV repeats ${list(duplicates)}: duplicates count twice in the corpus and language sums and the last row wins (reference §4)`))
  if (groups.length <= 1) {
    out.push(info('no-mixture-single-partition', `split "${c.split}" has ${groups.length} (corpus, language) partition: the reference reads one stream without weights (reference §5)`))
    return
  }
  let weights: Map<string, number>
  try {
    weights = new Map(partitionWeightsFromBetas(rows, c.beta_corpus, c.beta_language).map((w) => [partitionKey(w.corpus, w.language), w.weight]))
  } catch (e) {
    if (!(e instanceof MixscopeError)) throw e
    out.push(error('mixture-weights-invalid', `${e.message} (reference §4)`))
    return
  }
  const matched = groups.filter((g) => weights.has(partitionKey(g.corpus, g.language)))
  const missing = groups.filter((g) => !weights.has(partitionKey(g.corpus, g.language)))
  if (missing.length > 0) {
    out.push(warning('partitions-missing-from-tsv', `${missing.length} of ${groups.length} partitions of split "${c.split}" have no summary TSV row and are silently left out of training: ${list(missing.map((g) => `${g.corpus}/${g.language}`))} (reference §4, §19.6)`))
  }
  if (matched.length === 0) {
    out.push(error('mixture-nothing-matches', `no partition of split "${c.split}" has a summary TSV row: the reference raises ValueError("not enough values to unpack (expected 2, got 0)") (reference §4)`))
    return
  }
  const bad = matched.filter((g) => { const w = weights.get(partitionKey(g.corpus, g.language)) as number; return !Number.isFinite(w) || w <= 0 })
  if (bad.length > 0) {
    const shown = bad.map((g) => `${g.corpus}/${g.language} = ${weights.get(partitionKey(g.corpus, g.language))}`)
    out.push(error('mixture-weight-invalid', `mixture weights must be finite and > 0, got ${list(shown)} (zero, negative or missing hours with beta > 0): the sampler raises invalid_argument "The \`weights\` must be greater than 0.0" / "must be finite" (reference §4)`))
  } else {
    out.push(samplingRange(c, matched.map((g) => ({ ...g, weight: weights.get(partitionKey(g.corpus, g.language)) as number }))))
  }
  out.push(warning('warmup-row-dropped', `the first row of each of the ${matched.length} partition streams is read and discarded once per rank before training (reference §5, §19.3)`))
  if (c.world_size > 1) {
    out.push(warning('same-sampling-seed-all-ranks', `all ${c.world_size} ranks sample partitions with the same seed ${c.sampling_seed}: the k-th example of every rank comes from the same (corpus, language) (reference §5, §19.8)`))
  }
}

/**
 * `mixture-sampling-range` (info): the least and the most likely partition under the betas, as the sampler draws
 * them: the weights of the partitions kept, renormalized (the C++ sampler does, reference §5).
 */
function samplingRange(c: PipelineConfig, kept: { corpus: string; language: string; weight: number }[]): Finding {
  const total = kept.reduce((sum, g) => sum + g.weight, 0)
  let lo = kept[0]
  let hi = kept[0]
  for (const g of kept) {
    if (g.weight < lo.weight) lo = g
    if (g.weight > hi.weight) hi = g
  }
  const p = (g: { weight: number }) => (g.weight / total).toPrecision(3)
  return info('mixture-sampling-range', `beta_corpus = ${c.beta_corpus}, beta_language = ${c.beta_language}: the sampler draws the ${kept.length} partitions of split "${c.split}" with probabilities from ${p(lo)} (${lo.corpus}/${lo.language}: once in ${Math.round(total / lo.weight).toLocaleString('en-US')} draws) to ${p(hi)} (${hi.corpus}/${hi.language}) (reference §4, §5)`)
}
