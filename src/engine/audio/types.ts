/**
 * Decoded audio and decoding options shared by every decoder path (WAV, WebCodecs, WASM).
 */
import { MixscopeError } from '../findings.ts'
import type { AudioCodec, AudioContainer } from './sniff.ts'

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
}

/** Options for `decodeAudio`. */
export interface DecodeOptions {
  /** Example id (`<file>:<row>`) or file name, used in error messages. */
  id?: string
  /**
   * Decoder family to try first; default `webcodecs` where `AudioDecoder` exists, else `wasm`, except Opus, which
   * defaults to `wasm` (decodes at the input rate as libsndfile does; WebCodecs gives 48 kHz only).
   */
  prefer?: 'webcodecs' | 'wasm'
  /** Most samples (frames × channels) to decode before giving up; default `defaultMaxSamples`. */
  maxSamples?: number
  /** Milliseconds to wait for a WebCodecs decoder to flush; default 10000. */
  timeoutMs?: number
}

/** 2^26 float32 samples (256 MiB): 70 minutes of 16 kHz mono. Bigger declared or decoded lengths are refused. */
export const defaultMaxSamples = 2 ** 26

/** The error every decoder throws: `audio: <id> (<container>[/<codec>]): <what failed>`. */
export function audioError(id: string | undefined, container: string, codec: string | null, what: string): MixscopeError {
  const where = codec && codec !== container ? `${container}/${codec}` : container
  return new MixscopeError(`audio: ${id ?? 'input'} (${where}): ${what}`, 'audio-decode', 'data')
}
