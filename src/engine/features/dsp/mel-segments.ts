/**
 * The Kaldi mel bank (mel.ts) rearranged for one ascending pass over the FFT bins with two running sums, instead of one
 * gather loop per triangle. Triangles b and b+1 share an edge, so every FFT bin lies in at most two consecutive
 * triangles. Segment s (s = 0..numBins) is a run of FFT bins that touch only triangles s−1 and s: while scanning it,
 * `current` accumulates triangle s−1 (weight `currentWeight[i]`) and `next` accumulates triangle s (`nextWeight[i]`);
 * at the segment's end triangle s−1 is complete and `next` becomes `current`. Each triangle's sum therefore takes its
 * terms in ascending bin order starting from 0, exactly as the gather loop does (zero weights add +0, which changes no
 * finite sum).
 */
import type { MelBank } from './mel.ts'

/** Mel bank as segments of FFT bins; see the module comment. */
export interface MelSegments {
  numBins: number
  /** First FFT bin of segment 0. */
  firstBin: number
  /** `[numBins + 1]` end (exclusive FFT bin) of each segment; segment s starts at segmentEnd[s − 1] (firstBin for s = 0). */
  segmentEnd: Int32Array
  /** `[numFftBins]` weight of FFT bin i in triangle s − 1 of its segment s (0 when none). */
  currentWeight: Float64Array
  /** `[numFftBins]` weight of FFT bin i in triangle s of its segment s (0 when none). */
  nextWeight: Float64Array
}

/**
 * Splits `bank` into segments.
 * @throws when some FFT bin lies in triangles that are not one or two consecutive ones (never for Kaldi's bank)
 */
export function melSegments(bank: MelBank): MelSegments {
  const { numBins, numFftBins, start, length, offset, weights } = bank
  // triangles of each FFT bin, ascending: lo[i] = first (−1 when none), hi[i] = last
  const lo = new Int32Array(numFftBins).fill(-1), hi = new Int32Array(numFftBins).fill(-1)
  const loWeight = new Float64Array(numFftBins), hiWeight = new Float64Array(numFftBins)
  for (let b = 0; b < numBins; b++) {
    for (let j = 0; j < length[b]; j++) {
      const i = start[b] + j, w = weights[offset[b] + j]
      if (lo[i] < 0) { lo[i] = b; loWeight[i] = w } else if (hi[i] < 0 && b === lo[i] + 1) { hi[i] = b; hiWeight[i] = w } else {
        throw new Error(`fbank: FFT bin ${i} lies in mel triangles ${lo[i]}, ${hi[i] >= 0 ? `${hi[i]}, ` : ''}${b}; expected at most two consecutive`)
      }
    }
  }
  const segment = new Int32Array(numFftBins)
  const currentWeight = new Float64Array(numFftBins), nextWeight = new Float64Array(numFftBins)
  let firstBin = -1, lastBin = -1, s = 0
  for (let i = 0; i < numFftBins; i++) {
    if (lo[i] < 0) { segment[i] = s; continue }
    if (firstBin < 0) firstBin = i
    lastBin = i
    if (hi[i] >= 0) { // triangles lo and lo+1: segment lo+1
      s = lo[i] + 1
      currentWeight[i] = loWeight[i]; nextWeight[i] = hiWeight[i]
    } else if (s <= lo[i]) { // only triangle lo, reached first as `next`: segment lo
      s = lo[i]
      nextWeight[i] = loWeight[i]
    } else { // only triangle lo, already `current`: segment lo+1
      s = lo[i] + 1
      currentWeight[i] = loWeight[i]
    }
    if (i > 0 && s < segment[i - 1]) throw new Error(`fbank: mel segments out of order at FFT bin ${i}`)
    segment[i] = s
  }
  const segmentEnd = new Int32Array(numBins + 1)
  if (firstBin < 0) return { numBins, firstBin: 0, segmentEnd, currentWeight, nextWeight }
  for (let t = 0; t <= numBins; t++) {
    let end = t === 0 ? firstBin : segmentEnd[t - 1]
    while (end <= lastBin && segment[end] === t) end++
    segmentEnd[t] = end
  }
  return { numBins, firstBin, segmentEnd, currentWeight, nextWeight }
}
