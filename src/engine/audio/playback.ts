/**
 * Decoded audio made ready for an `<audio>` element: 16-bit WAV of up to two channels (more are mixed to mono), at
 * the audio's own rate when every browser plays it, else resampled to 48 kHz.
 */
import { toMono } from './mono.ts'
import { resampleChannels } from './resample.ts'
import type { DecodedAudio } from './types.ts'
import { toWav16 } from './wav-encode.ts'

/** Rates an `<audio>` element plays everywhere; others are resampled to 48 kHz for playback. */
const playableRate = (rate: number) => Number.isInteger(rate) && rate >= 8000 && rate <= 96000

/** The playable WAV of `audio`, and the mono mix it used (`mono`, at the native rate, for the waveform picture). */
export function playbackOf(audio: DecodedAudio): { wav: ArrayBuffer; sampleRate: number; channels: number; mono: Float32Array } {
  const mono = toMono(audio.channels)
  const channels = audio.channels.length <= 2 ? audio.channels : [mono]
  const sampleRate = playableRate(audio.sampleRate) ? audio.sampleRate : 48000
  const wav = toWav16(sampleRate === audio.sampleRate ? channels : resampleChannels(channels, audio.sampleRate, sampleRate), sampleRate)
  return { wav: wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength) as ArrayBuffer, sampleRate, channels: channels.length, mono }
}
