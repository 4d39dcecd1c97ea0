/**
 * Decoded audio and decoding options shared by every decoder path (WAV, WebCodecs, WASM).
 */
import { MixscopeError } from '../core/findings.ts'
import type { AudioCodec, AudioContainer } from './sniff-result.ts'

/** Decoded audio at the native rate, planar float32 (libsndfile's values: integer PCM / 2^(bits−1), float as stored). */
export interface DecodedAudio {
  /** Hz; for Opus the stream's input rate as libsndfile decodes it (16 kHz for this data), not 48 kHz. */
  sampleRate: number
  /** Planar samples `[channels][frames]`. */
  channels: Float32Array[]
  /** Samples per channel. */
  frames: number
  /** Which decoder produced the samples: `wav`, `webcodecs:flac`, `wasm:flac`, `wasm:vorbis`, `webcodecs:opus`, ... */
  decoder: string
  container: AudioContainer
  codec: AudioCodec | null
  /** Things that did not stop decoding, e.g. a fallback from WebCodecs to WASM or a length that differs from the header. */
  warnings: string[]
  /**
   * Whether the training reference's decoder reads this row: fairseq2 opens the bytes with libsndfile 1.2 and reads
   * the number of frames its header declares in one call, and fails the row when the open fails or the read comes up
   * short (docs/reference-pipeline.md §10). `false` for FLAC in Ogg, FLAC at depths other than 8/16/24 bits, and
   * streams that are truncated or damaged before their declared end; the samples here are then what decodes (for
   * listening), not what training would see.
   */
  trainable: boolean
  /** Why training fails on this row (`trainable: false`), else `null`. */
  untrainable: string | null
}

/** Options for `decodeAudio`. */
export interface DecodeOptions {
  /** Example id (`<file>:<row>`) or file name, used in error messages. */
  id?: string
  /**
   * Decoder family to try first. Default (`defaultDecoder`): `webcodecs` for FLAC where `AudioDecoder` exists
   * (identical to libsndfile, and the fastest browser path once frames are spread over several decoders), else
   * `wasm`. Vorbis, Opus and MP3 default to `wasm` everywhere: those decoders are libsndfile's own libraries
   * (libvorbis, libopus, mpg123); in Chromium they run 3–5× faster than WebCodecs, whose per-packet thread hops
   * dominate for these small, stateful packets (bench/decode.bench.ts); Vorbis and MP3 match libsndfile to float
   * precision either way (≥ 126 dB SNR), and Opus only through WASM (WebCodecs decodes at 48 kHz: ~11 dB at 16 kHz).
   */
  prefer?: 'webcodecs' | 'wasm'
  /**
   * WebCodecs `AudioDecoder`s one FLAC stream is spread over (at most one per frame). Default: one per 32 frames
   * (~8 s at 16 kHz), at most `DEFAULT_STREAM_DECODERS` (4): long files split, training-length clips do not.
   */
  streamDecoders?: number
  /** Most samples (frames × channels) to decode before giving up; default `defaultMaxSamples`. */
  maxSamples?: number
  /** Milliseconds to wait for a WebCodecs decoder to flush; default 10000. */
  timeoutMs?: number
}

/** 2^26 float32 samples (256 MiB): 70 minutes of 16 kHz mono. Bigger declared or decoded lengths are refused. */
export const defaultMaxSamples = 2 ** 26

/**
 * Whether a decode failed only for being longer than the sample limit (`maxSamples`): every decoder says so with
 * "over the limit of <n> samples" (from a header) or "more than the limit of <n> samples" (while decoding). The
 * dataprep then streams the file instead (prepare/run.ts).
 * @param message the error's message
 */
export function overSampleLimit(message: string): boolean {
  return /(over|more than) the limit of \d+ samples/.test(message)
}

/** The error every decoder throws: `audio: <id> (<container>[/<codec>]): <what failed>`. */
export function audioError(id: string | undefined, container: string, codec: string | null, what: string): MixscopeError {
  const where = codec && codec !== container ? `${container}/${codec}` : container
  return new MixscopeError(`audio: ${id ?? 'input'} (${where}): ${what}`, 'audio-decode', 'data')
}
