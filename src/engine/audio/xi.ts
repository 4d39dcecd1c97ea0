/**
 * FastTracker 2 Extended Instrument (`.xi`) as libsndfile's `xi.c` reads it: a 298-byte header ("Extended
 * Instrument:", a 22-byte name ending 0x1A, 20 bytes of tracker name, the version, envelopes, the sample count, all
 * little-endian), a 40-byte header per sample (size, loop points, volume, fine tune, flags — bit 4: 16-bit —, pan,
 * note, name), then the samples as delta PCM: each 8-bit (`DPCM_8`) or 16-bit little-endian (`DPCM_16`) value is the
 * difference from the previous sample, summed in a signed 8- or 16-bit register that wraps, from 0. Mono, 44.1 kHz.
 * As libsndfile: the first sample's flags decide the width; up to 16 samples are listed but at most two kept (after
 * empty ones at the end are dropped); the frames are every whole sample from the data to the file's end (`dpcm_init`),
 * whatever the sizes say (the header: sampler-headers.ts). Values: the register / 128 (8-bit) or / 32768 (16-bit).
 */

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
