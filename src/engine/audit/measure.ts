/**
 * The audio pass's unit of work: decode the rows of one task (some rows of one row group) and measure each one.
 * Pure apart from decoding, so it runs the same in this thread, a Node worker or a browser worker.
 */
import { mapLimit } from '../core/map-limit.ts'
import { decodeAudio } from '../audio/decode.ts'
import type { DecodeOptions } from '../audio/types.ts'
import { contentHash, pcmHash } from '../core/content-hash.ts'
import { toMono } from '../audio/mono.ts'
import { resample } from '../audio/resample.ts'
import { encodeFingerprint, fingerprintRate, speechFingerprint, toBase64 } from '../features/dsp/fingerprint.ts'
import type { AudioMeasure, AudioTask } from './rows/types.ts'

/** Frame length of the silence measure, in seconds. */
export const silenceFrameSeconds = 0.025
/** Frame RMS below this (dBFS) counts as silent. */
export const silenceThresholdDb = -50
/** |sample| at or above this counts as full scale (16-bit: 32767/32768). */
export const fullScale = 32767 / 32768 - 1e-7

/** dBFS of an RMS value (`null` for 0). */
export function toDb(rms: number): number | null {
  return rms > 0 ? 20 * Math.log10(rms) : null
}

/** Loudness, silence, clipping and DC offset of planar audio. */
export function measureSignal(channels: readonly Float32Array[], sampleRate: number): { rmsDb: number | null; silentShare: number; clippedShare: number; dcOffset: number } {
  const frames = channels[0]?.length ?? 0
  const nc = channels.length
  let clipped = 0
  for (const c of channels) for (let i = 0; i < c.length; i++) if (c[i] >= fullScale || c[i] <= -fullScale) clipped++
  const frameLength = Math.max(1, Math.round(silenceFrameSeconds * sampleRate))
  const threshold = (10 ** (silenceThresholdDb / 20)) ** 2
  let sum = 0
  let sumSq = 0
  let silent = 0
  let windows = 0
  for (let start = 0; start < frames; start += frameLength) {
    const end = Math.min(frames, start + frameLength)
    let frameSq = 0
    for (let i = start; i < end; i++) {
      let x = 0
      for (let c = 0; c < nc; c++) x += channels[c][i]
      x /= nc
      sum += x
      frameSq += x * x
    }
    sumSq += frameSq
    windows++
    if (frameSq / (end - start) < threshold) silent++
  }
  return {
    rmsDb: frames === 0 ? null : toDb(Math.sqrt(sumSq / frames)),
    silentShare: windows === 0 ? 1 : silent / windows,
    clippedShare: frames === 0 ? 0 : clipped / (frames * nc),
    dcOffset: frames === 0 ? 0 : sum / frames,
  }
}

/**
 * The near-duplicate fingerprint of decoded audio (base64), from its mono mix at 16 kHz (resampled when stored at
 * another rate); `null` when the clip is too short or silent.
 */
export function fingerprintOfAudio(channels: Float32Array[], sampleRate: number): string | null {
  if (channels.length === 0 || channels[0].length === 0) return null
  const mono = toMono(channels)
  const fp = speechFingerprint(sampleRate === fingerprintRate ? mono : resample(mono, sampleRate, fingerprintRate))
  return fp ? toBase64(encodeFingerprint(fp)) : null
}

/**
 * Rows of one task decoding at once. WebCodecs decodes off this thread, so clips in flight hide its per-chunk
 * latency (132 FLAC clips in Chromium: 207–233 ms one at a time, 103–118 ms four at a time); the WASM decoders run
 * on this thread and are neither helped nor slowed (their idle decoders are kept per format, see wasm.ts).
 */
const ROWS_IN_FLIGHT = 4

/**
 * Decodes and measures every row of `task`; a row that does not decode gives `{ok: false, error}`.
 * @param options decoder options (e.g. `prefer`)
 * @returns one measure per task row, in order
 */
export async function measureAudioTask(task: AudioTask, options: Omit<DecodeOptions, 'id'> = {}, signal?: AbortSignal): Promise<AudioMeasure[]> {
  return mapLimit(task.rows, ROWS_IN_FLIGHT, async ({ row, bytes }): Promise<AudioMeasure> => {
    if (signal?.aborted) throw signal.reason ?? new Error('audit: aborted')
    if (!bytes || bytes.length === 0) {
      return { row, ok: false, error: `audio: ${task.path}:${row}: ${bytes ? 'empty audio_bytes (0 bytes)' : 'null audio_bytes'}`, bytesHash: null }
    }
    const bytesHash = contentHash(bytes)
    try {
      const audio = await decodeAudio(bytes, { ...options, id: `${task.path}:${row}` })
      // decodes here but not for training (truncated, damaged, FLAC in Ogg, a FLAC depth libsndfile cannot read)
      if (!audio.trainable) return { row, ok: false, error: `audio: ${task.path}:${row}: ${audio.untrainable}`, bytesHash }
      return {
        row, ok: true, container: audio.container, codec: audio.codec, sampleRate: audio.sampleRate, channels: audio.channels.length,
        frames: audio.frames, ...measureSignal(audio.channels, audio.sampleRate), bytesHash, pcmHash: pcmHash(audio.channels), warnings: audio.warnings,
        fingerprint: fingerprintOfAudio(audio.channels, audio.sampleRate),
      }
    } catch (error) {
      return { row, ok: false, error: (error as Error).message, bytesHash }
    }
  })
}
