/**
 * WAV decoding, parsed directly: PCM 8-bit unsigned, 16/24/32-bit signed, IEEE float 32/64, WAVE_FORMAT_EXTENSIBLE,
 * any extra chunks (fact, LIST, ...) with odd-size padding. Values as libsndfile: integer / 2^(bits−1).
 */
import { sniffWavLayout } from './sniff.ts'
import { audioError, type DecodedAudio } from './types.ts'

/**
 * Decodes a RIFF/WAVE file.
 *
 * @param bytes the whole file
 * @param id example id for error messages
 * @param maxSamples refuse files whose data holds more samples (frames × channels) than this
 * @throws MixscopeError `audio: <id> (wav): ...` for unsupported formats, missing chunks or absurd headers
 */
export function decodeWav(bytes: Uint8Array, id: string | undefined, maxSamples: number): DecodedAudio {
  const { sniff, layout } = sniffWavLayout(bytes)
  const fail = (what: string) => audioError(id, 'wav', sniff.codec, what)
  const fatal = sniff.problems.filter((p) => !p.startsWith('truncated data') && !p.startsWith('valid bits'))
  if (!layout || fatal.length || !sniff.codec) throw fail(fatal.join('; ') || 'no data chunk')
  const channels = sniff.channels!
  const bits = sniff.bitsPerSample!
  const bytesPer = bits / 8
  const available = Math.min(layout.dataSize, bytes.length - layout.dataOffset)
  const frames = Math.floor(available / layout.blockAlign)
  if (frames * channels > maxSamples) throw fail(`${frames} frames × ${channels} channels is over the limit of ${maxSamples} samples`)
  const warnings = sniff.problems.filter((p) => !fatal.includes(p))
  if (available % layout.blockAlign) warnings.push(`data ends with a partial frame (${available % layout.blockAlign} bytes ignored)`)
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset, frames * layout.blockAlign)
  const out = Array.from({ length: channels }, () => new Float32Array(frames))
  const read = sampleReader(sniff.codec, bits, view)
  for (let c = 0; c < channels; c++) {
    const ch = out[c]
    let at = c * bytesPer
    for (let i = 0; i < frames; i++, at += layout.blockAlign) ch[i] = read(at)
  }
  return { sampleRate: sniff.sampleRate!, channels: out, frames, decoder: 'wav', container: 'wav', codec: sniff.codec, warnings }
}

function sampleReader(codec: 'pcm' | 'float' | string, bits: number, v: DataView): (at: number) => number {
  if (codec === 'float') return bits === 32 ? (at) => v.getFloat32(at, true) : (at) => v.getFloat64(at, true)
  switch (bits) {
    case 8: return (at) => (v.getUint8(at) - 128) / 128
    case 16: return (at) => v.getInt16(at, true) / 32768
    case 24: return (at) => ((v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16))) / 8388608
    default: return (at) => v.getInt32(at, true) / 2147483648
  }
}
