/**
 * `RowSpill`: where the audit's metadata pass keeps its row records until their partition's turn (row-records.ts):
 * the engine's `ByteBuckets` (src/engine/core/byte-buckets.ts), one bucket per partition. `memorySpill` (the default,
 * and the browser's) keeps them in memory; Node's `createFileSpill` (src/engine/node/file-spill.ts) appends them to
 * temporary files, so the pass holds one partition at a time whatever the row count. An OPFS store fits the same
 * interface.
 */
import { concatBytes, memoryBuckets, type RandomAccessBuckets } from '../../core/byte-buckets.ts'

/**
 * Buckets of bytes, appended to in any order and taken back once each, or read in place (the deep audit's
 * near-duplicate search keeps its fingerprints in a spill from the same factory: src/engine/audit/fingerprint-spill.ts).
 */
export type RowSpill = RandomAccessBuckets

/** Makes the spill of one audit. */
export type RowSpillFactory = () => Promise<RowSpill>

/** A spill in memory. */
export const memorySpill: () => RowSpill = memoryBuckets

export { concatBytes }
