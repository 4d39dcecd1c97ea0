/**
 * FastTracker 2 Extended Instrument (`.xi`) as libsndfile's `xi.c` reads it: a 298-byte header ("Extended
 * Instrument:", a 22-byte name ending 0x1A, 20 bytes of tracker name, the version, envelopes, the sample count, all
 * little-endian), a 40-byte header per sample (size, loop points, volume, fine tune, flags — bit 4: 16-bit —, pan,
 * note, name), then the samples as delta PCM: each 8-bit (`DPCM_8`) or 16-bit little-endian (`DPCM_16`) value is the
 * difference from the previous sample, summed in a signed 8- or 16-bit register that wraps, from 0. Mono, 44.1 kHz.
 * As libsndfile: the first sample's flags decide the width; up to 16 samples are listed but at most two kept (after
 * empty ones at the end are dropped); the frames are every whole sample from the data to the file's end (`dpcm_init`),
 * whatever the sizes say. Values: the register / 128 (8-bit) or / 32768 (16-bit).
 */
import { ascii, u16le } from './bytes.ts'
import type { CodedLayout } from './coded.ts'
import { blankSniff, checkSane, withProblem, type AudioSniff } from './sniff-result.ts'

/** Bytes of the instrument header before the sample headers. */
const XI_HEADER_BYTES = 298
/** Bytes of each sample header. */
const XI_SAMPLE_HEADER_BYTES = 40
/** Most samples an instrument lists (`MAX_XI_SAMPLES`). */
const XI_MAX_SAMPLES = 16

/** An XI file's sniff and coded layout (coded.ts `xi`), or the reason libsndfile refuses it in `sniff.problems`. */
export function sniffXi(b: Uint8Array, fileSize = b.length): { sniff: AudioSniff; layout: null; coded?: CodedLayout } {
  const s = blankSniff('xi')
  s.channels = 1
  s.sampleRate = 44100
  s.declaredFramesRate = 44100
  if (b.length < XI_HEADER_BYTES) return { sniff: withProblem(checkSane(s), `truncated header: ${b.length} bytes, the XI header needs ${XI_HEADER_BYTES}`), layout: null }
  if (ascii(b, 0, 20) !== 'Extended Instrument:' || b[43] !== 0x1a) return { sniff: withProblem(checkSane(s), 'no "Extended Instrument:" header ending in 0x1A at byte 43'), layout: null }
  const count = (u16le(b, 296) << 16) >> 16
  if (count > XI_MAX_SAMPLES) return { sniff: withProblem(checkSane(s), `XI of ${count} samples (libsndfile reads up to ${XI_MAX_SAMPLES})`), layout: null }
  if (count < 1) return { sniff: withProblem(checkSane(s), `XI of ${count} samples: no sample to read (libsndfile reads none either)`), layout: null }
  const dataOffset = XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * count
  if (b.length < dataOffset) return { sniff: withProblem(checkSane(s), `truncated header: ${b.length} bytes, the ${count} sample headers end at ${dataOffset}`), layout: null }
  const sizes = Array.from({ length: count }, (_, k) => u16le(b, XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * k) + u16le(b, XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * k + 2) * 65536)
  let kept = count
  while (kept > 1 && sizes[kept - 1] === 0) kept--
  if (kept > 2) return { sniff: withProblem(checkSane(s), `XI of ${kept} samples (libsndfile reads one, or two)`), layout: null }
  const bits = b[XI_HEADER_BYTES + 14] & 16 ? 16 : 8
  s.codec = 'dpcm'
  s.bitsPerSample = bits
  const dataBytes = Math.max(0, fileSize - dataOffset)
  s.declaredFrames = Math.floor(dataBytes / (bits / 8))
  if (sizes[0] > dataBytes) s.problems.push(`truncated data: the sample header declares ${sizes[0]} bytes, file has ${dataBytes}`)
  checkSane(s)
  return { sniff: s, layout: null, coded: { kind: 'xi', bits, channels: 1, dataOffset, dataBytes, frames: s.declaredFrames } }
}

/** A delta-PCM stream decoded through one register (`dsc2f_array`, `dles2f_array`), a stretch at a time. */
export class XiDpcmDecoder {
  private last = 0

  constructor(readonly bits: 8 | 16) {}

  /**
   * Decodes the next `frames` samples from `data` (their bytes, in order).
   * @returns `[frames]` float32: the register / 2^(bits−1)
   */
  decode(data: Uint8Array, frames: number): Float32Array {
    const out = new Float32Array(frames)
    let last = this.last
    if (this.bits === 8) {
      for (let i = 0; i < frames; i++) {
        last = ((last + data[i]) << 24) >> 24
        out[i] = last / 128
      }
    } else {
      for (let i = 0, at = 0; i < frames; i++, at += 2) {
        last = ((last + (data[at] | (data[at + 1] << 8))) << 16) >> 16
        out[i] = last / 32768
      }
    }
    this.last = last
    return out
  }
}
