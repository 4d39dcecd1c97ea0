/**
 * MIDI Sample Dump Standard (`.sds`) as libsndfile's `sds.c` reads it. A 21-byte dump header (`F0 7E <channel> 01`,
 * the sample number, the bit width, the sample period in ns and the length in frames, both as 7-bit groups least
 * significant first, the loop points, `F7`), then data packets of 127 bytes: `F0 7E <channel> 02 <packet>`, 120 data
 * bytes, a checksum, `F7`. Each sample is 2, 3 or 4 bytes of 7 bits (bit widths 8–13, 14–20, 21–28), most
 * significant first, offset binary, left-justified in 32 bits: 60, 40 or 30 samples a packet. Mono; the rate
 * 10^9 / period (16 kHz when the period is 0). The header is read by sampler-headers.ts.
 *
 * libsndfile's reader has quirks the decode keeps: a packet whose end (its 1-based index × samples a packet) is past
 * the header's length reads as zeros (so a last packet cut short by the length gives zeros); reading stops once the
 * packets consumed so far reach the length, checked before each packet and at the start of each 2048-sample read
 * libsndfile makes (`sds_read_f`'s buffer): `sf.read` of the whole file then returns fewer frames than the header
 * declares whenever the length is at most one packet, or ends within (or at the end of) a packet that a 2048-sample
 * boundary cuts (`sdsRead`). Values: the 32-bit integer rounded to float32, × 2^−31 (`sds_read_f`).
 */

/** Bytes of the dump header (libsndfile's `SDS_DATA_OFFSET`). */
export const SDS_HEADER_BYTES = 21
/** Bytes of one data packet. */
export const SDS_BLOCK_BYTES = 127
/** Samples `sds_read_f` asks `sds_read` for at a time (its 8 KiB buffer of ints). */
const READ_CHUNK = 2048

/** Samples per packet at a bit width (`sds_init`: 2 bytes below 14 bits, 3 below 21, else 4). */
export function sdsBlockSamples(bits: number): number {
  return bits < 14 ? 60 : bits < 21 ? 40 : 30
}

/** A 7-bit-group value (`SDS_3BYTE_TO_INT_DECODE`) from 3 little-endian bytes. */
export const sevenBits3 = (b: Uint8Array, at: number) => (b[at] & 0x7f) | ((b[at + 1] & 0x7f) << 7) | ((b[at + 2] & 0x7f) << 14)

/**
 * The spans of packets libsndfile's `sf_readf_float` for the whole length returns, in order: packet index (0-based)
 * and the samples taken from it, which a packet past the length gives as zeros.
 * @param frames the header's length
 */
function readPlan(frames: number, perBlock: number): { block: number; count: number; zero: boolean }[] {
  const plan: { block: number; count: number; zero: boolean }[] = []
  // the state after sds_init read the first packet: 1 packet read, none of it used
  let readBlock = 1
  let readCount = 0
  for (let left = frames; left > 0; left -= Math.min(READ_CHUNK, left)) {
    const want = Math.min(READ_CHUNK, left)
    for (let got = 0; got < want;) {
      if (readBlock * perBlock >= frames) return plan
      if (readCount >= perBlock) {
        readBlock++
        readCount = 0
      }
      const n = Math.min(perBlock - readCount, want - got)
      const last = plan[plan.length - 1]
      if (last && last.block === readBlock - 1) last.count += n
      else plan.push({ block: readBlock - 1, count: n, zero: readBlock * perBlock > frames })
      got += n
      readCount += n
    }
  }
  return plan
}

/**
 * What `sf.read` of an SDS file whose header declares `frames` reads (see the module's note).
 * @returns the frames it returns, and the packets it reads from the file (those past the length read as zeros)
 */
export function sdsRead(frames: number, bits: number): { frames: number; packets: number } {
  const plan = readPlan(frames, sdsBlockSamples(bits))
  const read = plan.filter((p) => !p.zero)
  return { frames: plan.reduce((n, p) => n + p.count, 0), packets: read.length ? read[read.length - 1].block + 1 : 0 }
}

/**
 * Decodes SDS packets as libsndfile's `sf.read` of the whole file does.
 * @param data the packets (from byte 21)
 * @param frames the header's length
 * @returns `[sdsRead(frames, bits).frames]` float32: each 32-bit value rounded to float32, × 2^−31
 */
export function decodeSds(data: Uint8Array, bits: number, frames: number): Float32Array {
  const perBlock = sdsBlockSamples(bits)
  const width = 120 / perBlock
  const plan = readPlan(frames, perBlock)
  const out = new Float32Array(plan.reduce((n, p) => n + p.count, 0))
  // libsndfile's packet buffer: a packet cut short by the file's end keeps the previous packet's bytes after it
  const block = new Uint8Array(SDS_BLOCK_BYTES)
  let o = 0
  for (const { block: k, count, zero } of plan) {
    if (zero) {
      o += count
      continue
    }
    const at = k * SDS_BLOCK_BYTES
    if (at < data.length) block.set(data.subarray(at, Math.min(data.length, at + SDS_BLOCK_BYTES)))
    for (let i = 0, p = 5; i < count; i++, p += width) {
      let v = (block[p] << 25) + (block[p + 1] << 18)
      if (width > 2) v += block[p + 2] << 11
      if (width > 3) v += block[p + 3] << 4
      out[o++] = Math.fround((v - 0x80000000) | 0) / 2147483648
    }
  }
  return out
}
