/**
 * mixscope's engine, browser-safe: everything the app's worker, the CLI, the benches and other people's code use,
 * in the data's order (docs/architecture.md). Plain TypeScript with I/O passed in (a `DatasetSource`, a `GPUDevice`);
 * it runs unchanged in a Web Worker and in Node. Node's own adapters (the file system source and sink, libFLAC
 * loading) are in `./node.ts`, the package's `mixscope/node`.
 */

// Foundation: findings, errors, UTF-8 order, bounded concurrency
export { contentHash } from './core/content-hash.ts'
export { compareUtf8, type Finding, finding, MixscopeError, sortFindings } from './core/findings.ts'
export {
  capFindings, collectFindings, defaultMaxFindingsPerKind, FindingsCollector,
  type CollectedFindings, type CollectorOptions, type FindingCount, type FindingItem, type FinishOptions,
} from './core/findings-sink.ts'
export { type ByteBuckets, memoryBuckets, type RandomAccessBuckets } from './core/byte-buckets.ts'
export {
  type BoundedCount, type KindProblems, type ProblemCounts, problemCounts, type ProblemInput, type ProblemSource, type UnreadableHours,
} from './core/problem-counts.ts'
export { unreadableHours } from './dataset/unreadable-hours.ts'
export { npyEncode } from './core/npy.ts'

// Foundation: the reference's random generators
export { mulberry32 } from './random/mulberry32.ts'
export { PythonRandom } from './random/python-random.ts'

// Stage 1, source: list files and read byte ranges (HTTP, folders, memory)
export { createHttpSource, fetchDocument, readLimitedBody } from './source/http-source.ts'
export { buildManifest, formatManifest, manifestName } from './source/manifest.ts'
export { checkReadRange, createMemorySource } from './source/memory-source.ts'

// Stage 2, parquet: footers, row groups, columns
export {
  chunkRange,
  decodeByteListChunk,
  decodeFlatIntChunk,
  flatIntLevels,
  listLevels,
  UnsupportedPageError,
} from './parquet/byte-list-column.ts'

// Stage 3, dataset: discovery, the dataset index read, file facts, stats
export { type ExampleIdentity, exampleIdOf, exampleKeysOf, type ExampleLocation, parseExampleId } from './dataset/example-id.ts'
export { hoursBy, hoursByLanguage, hoursBySplit, otherKeysText, tsvCoverageOf } from './dataset/groupings.ts'
export { indexFileName, readIndex } from './dataset/index-format.ts'
export { decodeIndexSummary, indexSummaryKey } from './dataset/index-summary.ts'
export { openDataset, type OpenDataset, type OpenOptions } from './dataset/open.ts'
export { type ExampleRow, readExample } from './dataset/read-example.ts'
export { computeStats, statsReport } from './dataset/stats.ts'
export { coverageCounts, coverageVerdict, describeSplits, type PartitionCoverage } from './dataset/tsv-coverage.ts'

// Stage 4, text: normalization and tokenizers
export { loadSpmTokenizer } from './text/spm-tokenizer.ts'

// Stage 5, pipeline: config, weights, sampler, fragments, length buckets, batches
export { bucketByLength } from './pipeline/bucket-by-length.ts'
export { createBucketSizes, taskBucketSizes } from './pipeline/buckets.ts'
export { getPreset, presetNames } from './pipeline/config/presets.ts'
export { loadRecipe } from './pipeline/config/recipe.ts'
export { resolutionErrors, resolveConfig, type ResolvedConfig } from './pipeline/config/resolve.ts'
export { parseSetArgument } from './pipeline/config/set.ts'
export { isMixtureOnlyKey, mixtureOnlyConfigKeys, specBetasKey, specKeyWithoutBetas } from './pipeline/config/spec-key.ts'
export { codePointLength } from './pipeline/example.ts'
export { collect } from './pipeline/iterables.ts'
export { type MixturePartition, type Plan, planBatches, type WeightEntry } from './pipeline/plan-batches.ts'

// Stage 6, audio: sniff, decode, mono, resample
export { type BatchDecoder, inThreadBatchDecoder } from './audio/batch-decoder.ts'
export { decodeAudio, decodeMany } from './audio/decode.ts'
export { toMono } from './audio/mono.ts'
export { resampleChannels } from './audio/resample.ts'
export { toWavFloat32 } from './audio/wav-encode.ts'
export { DEFAULT_STREAM_DECODERS, hasWebCodecs } from './audio/webcodecs.ts'

// Stage 7, features: DSP references, fbank, SpecAugment, the GPU pipeline
export { roundToBfloat16 } from './features/dsp/bf16.ts'
export { FbankComputer, type Features, kaldiFbank } from './features/dsp/fbank.ts'
export { RealFft } from './features/dsp/fft.ts'
export {
  compareFingerprints, decodeFingerprint, encodeFingerprint, type Fingerprint, type FingerprintMatch, fingerprintStepSeconds,
  fromBase64, lshBandCount, speechFingerprint, toBase64,
} from './features/dsp/fingerprint.ts'
export { layerNorm } from './features/dsp/normalize.ts'
export {
  applyReferenceSpecAugment,
  defaultFeatureSpecAugment,
  drawReferenceSpecAugment,
} from './features/dsp/spec-augment.ts'
export { powerSpectrogramDb } from './features/dsp/spectrogram.ts'
export { standardizeFeatures } from './features/dsp/standardize.ts'
export { featurizeBatches } from './features/featurize-batches.ts'
export { describeAdapter, getGpu, type Gpu } from './features/gpu/device.ts'
export { createFeaturePipeline } from './features/gpu/load.ts'
export { channelZeroFinding, computeModelInput, fbankFeatures, standardizeFinding } from './features/model-input.ts'

// Jobs: shards (Slurm arrays, Kubernetes Indexed Jobs)
export { checkHeader, type NamedPart, parsePart, type PartHeader, stringifyPart } from './shard/part.ts'
export { describeShard, shardFrom, type ShardSpec, wholeShard } from './shard/select.ts'

// Jobs: validate
export {
  checkDataset,
  checkFileRows,
  rowCheckReads,
  rowChecksDuringOpen,
  validateDataset,
} from './validate/validate.ts'

// Jobs: audit
export { auditDataset } from './audit/audit.ts'
export { type AuditConfig, auditConfigFindings, auditHasErrors, auditWithConfig } from './audit/configured.ts'
export { FlaggedRowsStream, flaggedRowsJsonl } from './audit/flagged.ts'
export { type AuditRowsConfig, auditRowsConfig, auditRowsConfigKeys, auditRowsKey } from './audit/rows-config.ts'
export { nearDuplicateMembers, type NearDuplicateMember } from './audit/near-duplicate-members.ts'
export {
  checkNearDuplicates, findNearDuplicates, measureFingerprint, nearDuplicateMaxBer, type NearDuplicateOptions, type NearDuplicateSearch,
} from './audit/checks/near-duplicates.ts'
export {
  checkNearDuplicatesSpilled, FingerprintSpill, type FingerprintLocations, nearDuplicateFingerprintBytes, searchNearDuplicatesSpilled,
  type SpilledNearDuplicateOptions,
} from './audit/fingerprint-spill.ts'
export { AuditMerger, type AuditMergerOptions } from './audit/partial/merge.ts'
export { auditShard, shardCutFromIndex } from './audit/partial/shard.ts'
export { auditReportHtml, auditReportMarkdown } from './audit/report.ts'
export { createAuditState } from './audit/state.ts'
export { measureAudioTask } from './audit/measure.ts'
export type { AudioMeasure, AudioMeasurer, AudioTask } from './audit/rows/types.ts'

// Jobs: examples (one example's facts and findings)
export { type ExampleFacts, inspectExample, type InspectedExample, lengthFilteredFinding } from './examples/example-facts.ts'
export { type ExampleFilter, type ExamplePage, type ExampleSummary, type TextScanStatus, valuePasses } from './examples/search.ts'
export { defaultExampleIndexRowLimit, maxHeldMatches, streamsRows, TextScan } from './examples/text-scan.ts'

// Jobs: batches (a dataset's planned batches and their outputs)
export { batchFromTransfer, examplesTable, planIpcFile, tableToTransfer } from './batches/arrow.ts'
export { batchJsonLine } from './batches/jsonl.ts'
export { applyBatchLimit, DEFAULT_TRAIN_MAX_BATCHES, planDataset } from './batches/plan-dataset.ts'
export { splitFooters } from './pipeline/config/select.ts'

// Jobs: mixture weights and draws
export {
  curveSteps,
  exposureAt,
  exposureByLanguage,
  exposureModel,
  type ExposureModel,
  type ExposurePartition,
  type ExposureRow,
} from './mixture/exposure.ts'
export { type ExposureCurveRow, exposureReport, type ExposureReport } from './mixture/exposure-report.ts'
export { weightsReport, type WeightsReport } from './mixture/weights-report.ts'

// Jobs: writing the dataset index
export { buildIndexRows } from './dataset-index/build.ts'
export { indexFindings, type IndexPart, indexShard, type MergedIndex, mergeIndexParts } from './dataset-index/partial.ts'
export { writeDatasetIndex } from './dataset-index/write.ts'

// Jobs: prepare (the dataprep)
export { scanInput } from './prepare/inputs/scan.ts'
export { INPUT_FORMATS, type InputFormat, SKIP_REASONS } from './prepare/inputs/types.ts'
export {
  CLIP_BYTES,
  isBinaryPart,
  mergePrepareParts,
  type PartBytes,
  partMagic,
  type PreparePart,
  prepareShard,
  planShard,
  readPartJson,
  sectionLines,
  type ShardPlan,
} from './prepare/partial/part.ts'
export type { ClipProcessor, ClipResult, ClipTask, StreamedClipConverter, StreamedClipTask } from './prepare/clip.ts'
export { planPrepare, type PlanPrepareOptions, shardRows } from './prepare/plan.ts'
export type { PlanBudget, PlanSpill } from './prepare/plan-store.ts'
export {
  REPORT_FILE,
  rowConverter,
  ROWS_PER_FILE,
  ROWS_PER_GROUP,
  runPrepare,
  SKIPPED_FILE,
  STATE_FILE,
} from './prepare/run.ts'
export { type PlanPartitionSummary, preparePlanSummary, type PreparePlanSummary } from './prepare/summary.ts'
export { type PrepareFix, type PreparePlan, type PrepareReport, type SkippedRow } from './prepare/types.ts'

// Jobs: merging a sharded run's parts, by their kind
export { type MergeOutcome, type PartSet, readPartSet } from './merge/merge.ts'

// Hosts: helper Workers for audio
export { createAudioPool, createAuditPool, createDecodePool } from './worker/audio-pool.ts'
