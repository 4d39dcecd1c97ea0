/**
 * The sentence saying where a progressive open's provisional numbers come from (the Overview's notice), worded here
 * from the engine's structured fields (`OpenProvisional`, src/engine/validate/open-types.ts).
 */
import type { OpenProvisional } from '../../engine/worker/protocol/dataset.ts'

/** `the n` when `n` is all of `total`, else `n of the total`. */
const ofAll = (n: number, total: number) => (n === total ? `the ${n}` : `${n} of the ${total}`)

/** One sentence (no final period) saying what the provisional numbers are. */
export function provisionalLabel(p: OpenProvisional): string {
  const fromIndex = p.fromIndex > 0 ? ` (${p.fromIndex} from the dataset index)` : ''
  switch (p.basis) {
    case 'listing':
      return p.estimate?.hoursFrom
        ? `Estimate from the file listing and ${p.estimate.hoursFrom}: files and bytes exact, hours as the TSV gives them (shared over splits by bytes); no parquet footer read yet`
        : 'Estimate from the file listing: files and bytes only (no stats TSV, so no hours yet); no parquet footer read yet'
    case 'index-summary':
      return `Numbers of ${ofAll(p.filesDone, p.filesTotal)} files the dataset index describes, as its summary recorded them when it was written; its rows are being read, then checked against the listing and the stats TSV`
    case 'index-rows':
      return `Exact numbers of ${ofAll(p.filesDone, p.filesTotal)} files the dataset index describes, before the index is checked against the listing and the stats TSV is read`
    case 'files':
      return `Exact numbers of ${p.filesDone} of ${p.filesTotal} files so far${fromIndex}; the rest are being read`
    case 'all-files':
      return p.rowChecksCancelled
        ? `Exact numbers of all ${p.filesTotal} files${fromIndex}; row checks were cancelled, so problems in unchecked rows are not listed`
        : `Exact numbers of all ${p.filesTotal} files${fromIndex}; rows of ${p.remaining ?? 0} files are still being checked`
  }
}
