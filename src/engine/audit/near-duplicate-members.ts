/**
 * A near-duplicate cluster side by side (the Audit view): each member read by its example id, decoded, mixed to mono
 * and resampled to 16 kHz as the audit's fingerprint sees it, with its fingerprint aligned to the first member's
 * (the offset of the best alignment, src/engine/features/dsp/fingerprint.ts) and a 16-bit WAV to play.
 */
import { decodeAudio } from '../audio/decode.ts'
import { toWav16 } from '../audio/wav-encode.ts'
import { toMono } from '../audio/mono.ts'
import { resample } from '../audio/resample.ts'
import { parseExampleId } from '../dataset/example-id.ts'
import { readExample } from '../dataset/read-example.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { compareFingerprints, fingerprintRate, speechFingerprint } from '../features/dsp/fingerprint.ts'

/** One member of a cluster, ready to show. */
export interface NearDuplicateMember {
  id: string
  /** 16 kHz mono 16-bit WAV of the member (empty when it did not decode). */
  wav: Uint8Array
  /** Seconds of audio. */
  seconds: number
  /** The fingerprint's words (one per 32 ms step, `fingerprintStepSeconds`) and loud-step mask; empty when none. */
  words: Uint32Array
  active: Uint8Array
  /** Steps to shift this member right so it lines up with the first member (0 for the first). */
  offset: number
  /** Bit error rate against the first member at that offset (`null` for the first, or when they do not overlap). */
  ber: number | null
  /** Why the member could not be shown (read or decode error), else `null`. */
  error: string | null
}

/**
 * Reads, decodes and fingerprints the members of one cluster.
 * @param ids example ids `<file>:<row>` (the `members` of a `near_duplicates` row)
 * @returns one entry per id, in order; a member that fails carries `error` and the others are still shown
 */
export async function nearDuplicateMembers(dataset: OpenDataset, ids: readonly string[], signal?: AbortSignal): Promise<NearDuplicateMember[]> {
  const out: NearDuplicateMember[] = []
  for (const id of ids) {
    if (signal?.aborted) throw signal.reason ?? new Error('audit: aborted')
    const blank = { id, wav: new Uint8Array(0), seconds: 0, words: new Uint32Array(0), active: new Uint8Array(0), offset: 0, ber: null }
    try {
      const { file, row } = parseExampleId(id)
      const example = await readExample(dataset, file, row, { signal, columns: ['audio_bytes'] })
      if (!example.audio) { out.push({ ...blank, error: `audit: ${id} has no audio_bytes` }); continue }
      const audio = await decodeAudio(example.audio, { id })
      const mono = toMono(audio.channels)
      const signal16k = audio.sampleRate === fingerprintRate ? mono : resample(mono, audio.sampleRate, fingerprintRate)
      const fp = speechFingerprint(signal16k)
      out.push({ ...blank, wav: toWav16([signal16k], fingerprintRate), seconds: signal16k.length / fingerprintRate,
        words: fp?.words ?? blank.words, active: fp?.active ?? blank.active, error: null })
    } catch (error) {
      if (signal?.aborted) throw error
      out.push({ ...blank, error: (error as Error).message })
    }
  }
  const first = out[0]
  if (first && first.words.length > 0) {
    const reference = { words: first.words, active: first.active, bands: new Uint32Array(0) }
    for (const m of out.slice(1)) {
      if (m.words.length === 0) continue
      // step i of the first lines up with step i + offset of this one: shift this one left by offset (right by −offset)
      const match = compareFingerprints(reference, { words: m.words, active: m.active, bands: new Uint32Array(0) })
      if (match) { m.offset = -match.offset; m.ber = match.ber }
    }
  }
  return out
}
