/**
 * Checks one row's decoded audio against its stored `audio_size` (the dataprep's sample count at 16 kHz, measured
 * before encoding: docs/reference-pipeline.md §17) and its rate against the 16 kHz the recipes assume.
 */
import { finding, type Finding } from '../findings.ts'
import type { AudioCodec } from './sniff.ts'

/**
 * How many 16 kHz samples decoded length may differ from `audio_size` per codec before it is a finding:
 * lossless and Vorbis (exact end granule): 0; Opus: 1 (the 48 kHz granule rounded to 16 kHz); MP3: 2304 (two frames:
 * streams without a LAME tag keep the encoder delay 576 + decoder delay 529 and end padding below 1152).
 */
const lengthTolerance: Record<AudioCodec, number> = { pcm: 0, float: 0, flac: 0, vorbis: 0, opus: 1, mp3: 2304 }

/** The rate the reference recipes and `audio_size` assume, in Hz. */
const TRAINING_RATE = 16000

/**
 * @param where the row: `path` relative to the dataset root, `row`, `row_group`
 * @param audioSize the row's `audio_size` column (INT64 may arrive as bigint), or `null` when absent
 * @param audio the decoded audio's rate, length and codec
 * @returns `non-16k-audio` (warning) when the rate is not 16 kHz; `audio-length-mismatch` (warning) when the length
 * at 16 kHz differs from `audio_size` by more than the codec's tolerance
 */
export function audioLengthFindings(
  where: { path: string; row: number | null; row_group?: number | null },
  audioSize: number | bigint | null,
  audio: { sampleRate: number; frames: number; codec: AudioCodec | null },
): Finding[] {
  const out: Finding[] = []
  const at = { row: where.row, row_group: where.row_group ?? null }
  if (audio.sampleRate !== TRAINING_RATE) {
    out.push(finding('warning', 'non-16k-audio', where.path,
      `audio is ${audio.sampleRate} Hz, expected ${TRAINING_RATE} Hz: the reference trains on it without resampling`, at))
  }
  if (audioSize === null) return out
  const stored = Number(audioSize)
  const at16k = audio.sampleRate === TRAINING_RATE ? audio.frames : Math.round(audio.frames * TRAINING_RATE / audio.sampleRate)
  // a rate other than 16 kHz adds up to one sample of rounding
  const tolerance = (audio.codec ? lengthTolerance[audio.codec] : 0) + (audio.sampleRate === TRAINING_RATE ? 0 : 1)
  if (Math.abs(at16k - stored) > tolerance) {
    const rate = audio.sampleRate === TRAINING_RATE ? '' : ` (${audio.frames} at ${audio.sampleRate} Hz)`
    out.push(finding('warning', 'audio-length-mismatch', where.path,
      `audio_size is ${stored} samples but the audio decodes to ${at16k} samples at 16 kHz${rate}; ${audio.codec ?? 'unknown codec'} allows a difference of ${tolerance}`, at))
  }
  return out
}
