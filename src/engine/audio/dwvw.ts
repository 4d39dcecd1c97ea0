/**
 * DWVW (Delta Word Variable Width, Magnus Lidström 1991, as in AIFC files with compression `DWVW`), decoded as
 * libsndfile 1.2's `dwvw.c` does. Written here rather than taken from a package: the npm registry has no DWVW
 * decoder. The format (as libsndfile documents it, from the "R011SNDFMTS" notes): one bit stream, MSB first, of
 * interleaved samples; each sample is a unary delta-width modifier (up to `bits / 2` zero bits ended by a one), its
 * sign bit when non-zero, then a delta of the new width (its top bit implied, then a sign bit, and one extra bit
 * when it reaches `2^(bits−1) − 1`), added to the previous sample with wrap-around over `2^bits`.
 *
 * libsndfile reads the stream on to the end of the file (past the sound chunk too) and counts the frames by
 * decoding it all (`psf_decode_frame_count`, then capped at AIFF's COMM frame count); its last decoded sample is
 * dropped when the input ends exactly on a byte boundary after it. Samples are `value / 2^(bits−1)` in float32.
 */

/** Bytes libsndfile refills its bit reservoir with at a time (`DWVW_PRIVATE.b.buffer`). */
const DWVW_READ_BYTES = 256

/**
 * Every sample of a DWVW stream, interleaved, as integers of `bits` bits.
 * @param bytes the stream, from the sound data's first byte to the end of the file
 * @param bits the sample width (8–24)
 * @param limit stop after this many samples
 * @returns `Int32Array` of the samples decoded (≤ `limit`)
 * @throws Error `audio: DWVW ...` for a width libsndfile refuses
 */
export function decodeDwvw(bytes: Uint8Array, bits: number, limit: number): Int32Array {
  if (!Number.isInteger(bits) || bits < 8 || bits > 24) throw new Error(`audio: DWVW sample width ${bits} bits is not one libsndfile reads (8–24)`)
  const dwmMax = bits >> 1
  const maxDelta = 1 << (bits - 1)
  const span = 1 << bits
  // libsndfile's reader state: a 256-byte buffer [index, end), a reservoir of `count` bits in `reservoir`
  let pos = 0
  let index = 0
  let end = 0
  let reservoir = 0
  let count = 0
  /** Fills the reservoir to at least `need` bits; false at the end of input (when fewer than 8 were asked). */
  const fill = (need: number): boolean => {
    while (count < need) {
      if (index >= end) {
        end = Math.min(DWVW_READ_BYTES, bytes.length - pos)
        index = 0
      }
      if (need < 8 && end === 0) return false
      reservoir <<= 8
      if (index < end) {
        reservoir |= bytes[pos]
        index++
        pos++
      }
      count += 8
    }
    return true
  }
  const take = (n: number): number => {
    fill(n)
    count -= n
    return (reservoir >>> count) & ((1 << n) - 1) // n ≤ 23, count ≤ 31
  }
  let out = new Int32Array(Math.min(limit, Math.max(16, bytes.length * 2)))
  let n = 0
  let width = 0
  let sample = 0
  while (n < limit) {
    // the delta-width modifier: zeros up to a one, at most bits / 2 of them
    if (!fill(dwmMax)) break
    if (end === 0 && n === 0) break
    let modifier = 0
    while (modifier < dwmMax) {
      count--
      if (reservoir & (1 << count)) break
      modifier++
    }
    if (modifier && take(1)) modifier = -modifier
    width = (width + modifier + bits) % bits
    let delta = 0
    if (width) {
      delta = take(width - 1) | (1 << (width - 1))
      const negative = take(1)
      if (delta === maxDelta - 1) delta += take(1)
      if (negative) delta = -delta
    }
    sample += delta
    if (sample >= maxDelta) sample -= span
    else if (sample < -maxDelta) sample += span
    // the input ended on this sample's last bit: libsndfile stores it but does not count it
    if (end === 0 && count === 0) break
    if (n === out.length) {
      const grown = new Int32Array(Math.min(limit, out.length * 2))
      grown.set(out)
      out = grown
    }
    out[n++] = sample
  }
  return out.subarray(0, n)
}
