/**
 * Checks one row's decoded audio against its stored `audio_size` (the dataprep's sample count at 16 kHz, measured
 * before encoding: docs/reference-pipeline.md §17) and its rate against the 16 kHz the recipes assume.
 */
import { finding, type Finding } from '../core/findings.ts'
import type { AudioCodec } from './sniff.ts'

/**
 * How many 16 kHz samples decoded length may differ from `audio_size` per codec before it is a finding:
 * lossless and Vorbis (exact end granule): 0; Opus: 1 (the 48 kHz granule rounded to 16 kHz); MP3: 2304 (two frames:
 * streams without a LAME tag keep the encoder delay 576 + decoder delay 529 and end padding below 1152).
 */
const lengthTolerance: Record<AudioCodec, number> = { pcm: 0, float: 0, ulaw: 0, alaw: 0, ima_adpcm: 0, ms_adpcm: 0, gsm610: 0, dwvw: 0, g721: 0, g723: 0, dpcm: 0, alac: 0, flac: 0, vorbis: 0, opus: 1, mp3: 2304 }

/** The rate the reference recipes and `audio_size` assume, in Hz. */
const TRAINING_RATE = 16000

/** Options of `audioLengthFindings`. */
export interface LengthCheckOptions {
  /** Prefix for messages (e.g. `file:row (flac)`), followed by a space. */
  label?: string
  /** Allowed difference in samples at the audio's own rate; default the codec's `lengthTolerance`. */
  tolerance?: number
}

/**
 * Checks a row's audio length and rate against its `audio_size`.
 *
 * What `audio_size` means for a row that is not 16 kHz (docs/interpretations.md "Audio"): the reference dataprep
 * resamples to 16 kHz before counting, so in its output every row is 16 kHz; training never resamples, filters and
 * buckets on `audio_size`, and counts hours as `audio_size / 16000`. For other rows either reading can hold, and each
 * is wrong somewhere, so the `non-16k-audio` warning says which one the row follows:
 * - `audio_size` = the samples at the native rate: the length filter and batch budget see what the model gets, but
 *   hours are off by `rate / 16000`;
 * - `audio_size` = the length at 16 kHz (`ceil` or rounded, ±1): hours are right, but the model gets `rate / 16000`
 *   times the samples the filter and `max_num_elements` budget assume;
 * - neither: an `audio-length-mismatch` warning as well.
 * @param where the row: `path` relative to the dataset root, `row`, `row_group`
 * @param audioSize the row's `audio_size` column (INT64 may arrive as bigint), or `null` when absent
 * @param audio the audio's rate, length in samples at that rate (`null` when unknown, e.g. a header without a count)
 *   and codec
 * @returns at most one `non-16k-audio` and one `audio-length-mismatch` warning
 */
export function audioLengthFindings(
  where: { path: string; row: number | null; row_group?: number | null },
  audioSize: number | bigint | null,
  audio: { sampleRate: number; frames: number | null; codec: AudioCodec | null },
  options: LengthCheckOptions = {},
): Finding[] {
  const out: Finding[] = []
  const at = { row: where.row, row_group: where.row_group ?? null }
  const label = options.label ? `${options.label} ` : ''
  const { sampleRate: rate, frames, codec } = audio
  const tolerance = options.tolerance ?? (codec ? lengthTolerance[codec] : 0)
  const stored = audioSize === null ? null : Number(audioSize)
  const known = stored !== null && frames !== null
  if (rate !== TRAINING_RATE) {
    const ratio = String(Number((rate / TRAINING_RATE).toFixed(3)))
    const at16k = known ? frames * TRAINING_RATE / rate : 0
    let message = `${label}audio is ${rate} Hz, expected ${TRAINING_RATE} Hz: the reference trains on it without resampling`
    if (known && Math.abs(frames - stored) <= tolerance) {
      message += `; audio_size ${stored} counts its samples at ${rate} Hz, so the length filter and batch budget see what the model gets, but hours (audio_size / 16000) overstate its ${(frames / rate).toFixed(2)} s by ${ratio}×`
    } else if (known && Math.abs(at16k - stored) <= tolerance * TRAINING_RATE / rate + 1) {
      message += `; audio_size ${stored} is its length at 16 kHz, so hours are right, but the model receives ${frames} samples, ${ratio}× what the length filter and max_num_elements budget assume`
    }
    out.push(finding('warning', 'non-16k-audio', where.path, message, at))
    if (known && Math.abs(frames - stored) > tolerance && Math.abs(at16k - stored) > tolerance * TRAINING_RATE / rate + 1) {
      out.push(finding('warning', 'audio-length-mismatch', where.path,
        `${label}audio_size is ${stored} but the audio holds ${frames} samples at ${rate} Hz (${Math.round(at16k)} at 16 kHz): it matches neither count; ${codec ?? 'unknown codec'} allows a difference of ${tolerance}`, at))
    }
    return out
  }
  if (known && Math.abs(frames - stored) > tolerance) {
    out.push(finding('warning', 'audio-length-mismatch', where.path,
      `${label}audio_size is ${stored} samples but the audio decodes to ${frames} samples at 16 kHz; ${codec ?? 'unknown codec'} allows a difference of ${tolerance}`, at))
  }
  return out
}
