/**
 * Ensoniq PARIS 24-bit samples as libsndfile's `paf.c` reads them (`paf24_read_block`): blocks of 32 bytes per
 * channel, each channel's 32 bytes holding 10 samples of 3 bytes, least significant byte first, after the block's
 * 32-bit words are put in the file's byte order (a big-endian file's words byte-swapped). Values: the 24-bit integer
 * / 2^23 (libsndfile: the sample in the top 24 bits of an int, / 2^31). A block cut short at the end of the file is
 * read over the previous block's bytes, as libsndfile's reused block buffer.
 */

/** Bytes of one channel's part of a block. */
export const PAF24_BLOCK_BYTES = 32
/** Samples per channel in a block. */
export const PAF24_BLOCK_SAMPLES = 10

/**
 * PAF 24-bit blocks decoded a stretch at a time, through libsndfile's one block buffer (a block cut short at the
 * end of the file is read over the previous block's bytes, which may have come in an earlier stretch).
 */
export class Paf24Decoder {
  private readonly block: Uint8Array

  constructor(readonly channels: number, readonly littleEndian: boolean) {
    this.block = new Uint8Array(PAF24_BLOCK_BYTES * channels)
  }

  /**
   * Decodes the next `frames` frames (whole blocks but for the stream's last) from `data`, their blocks' bytes.
   * @returns planar `[channels][frames]` float32
   */
  decode(data: Uint8Array, frames: number): Float32Array[] {
    const { block, channels, littleEndian } = this
    const blockBytes = block.length
    const out = Array.from({ length: channels }, () => new Float32Array(frames))
    for (let first = 0, at = 0; first < frames; first += PAF24_BLOCK_SAMPLES, at += blockBytes) {
      // the bytes read over the buffer, then the whole buffer's words swapped in place (a big-endian file), as
      // libsndfile does: bytes a short read leaves are the previous block's, swapped back
      block.set(data.subarray(Math.min(at, data.length), Math.min(data.length, at + blockBytes)))
      if (!littleEndian) {
        for (let w = 0; w < blockBytes; w += 4) {
          let t = block[w]; block[w] = block[w + 3]; block[w + 3] = t
          t = block[w + 1]; block[w + 1] = block[w + 2]; block[w + 2] = t
        }
      }
      const n = Math.min(PAF24_BLOCK_SAMPLES, frames - first)
      for (let c = 0; c < channels; c++) {
        const ch = out[c]
        for (let i = 0, k = PAF24_BLOCK_BYTES * c; i < n; i++, k += 3) ch[first + i] = ((block[k] | (block[k + 1] << 8) | (block[k + 2] << 16)) << 8 >> 8) / 8388608
      }
    }
    return out
  }
}

/**
 * Decodes PAF 24-bit blocks.
 * @param data the coded data (from the 2048-byte header's end)
 * @param frames frames libsndfile counts (10 × blocks)
 * @returns planar `[channels][frames]` float32
 */
export function decodePaf24(data: Uint8Array, channels: number, littleEndian: boolean, frames: number): Float32Array[] {
  return new Paf24Decoder(channels, littleEndian).decode(data, frames)
}
