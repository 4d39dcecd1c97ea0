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
 * A DWVW stream decoded in order as its bytes arrive, with libsndfile's reader state carried between them (its
 * 256-byte refills counted from the stream's start, the bit reservoir, the width and the last sample).
 * `decodeDwvw` gives it the whole stream at once; the streamed decode (coded-stream.ts) a window at a time.
 */
export class DwvwDecoder {
  private readonly dwmMax: number
  private readonly maxDelta: number
  private readonly span: number
  /** Buffered input: stream bytes `[bufAt, bufAt + buf.length)`. */
  private buf = new Uint8Array(0)
  private bufAt = 0
  /** Stream offset of the next byte to read; libsndfile's buffer `[index, end)` and reservoir of `count` bits. */
  private pos = 0
  private index = 0
  private end = 0
  private reservoir = 0
  private count = 0
  private width = 0
  private sample = 0
  /** Samples decoded so far. */
  decoded = 0
  /** Whether the stream has ended (no further sample). */
  done = false

  /**
   * @param bits the sample width (8–24)
   * @param total the stream's length in bytes (from the sound data's first byte to the end of the file)
   * @throws Error `audio: DWVW ...` for a width libsndfile refuses
   */
  constructor(readonly bits: number, readonly total: number) {
    if (!Number.isInteger(bits) || bits < 8 || bits > 24) throw new Error(`audio: DWVW sample width ${bits} bits is not one libsndfile reads (8–24)`)
    this.dwmMax = bits >> 1
    this.maxDelta = 1 << (bits - 1)
    this.span = 1 << bits
  }

  /** Appends the stream's next bytes (what was read before the current position is dropped). */
  push(bytes: Uint8Array): void {
    const keep = this.buf.subarray(this.pos - this.bufAt)
    const next = new Uint8Array(keep.length + bytes.length)
    next.set(keep)
    next.set(bytes, keep.length)
    this.buf = next
    this.bufAt = this.pos
  }

  /**
   * Decodes up to `limit` more samples (interleaved, integers of `bits` bits) from the input pushed so far: it stops
   * early when fewer than 8 bytes are buffered short of the stream's end (one sample takes at most 38 bits).
   * @returns the samples decoded by this call
   */
  decode(limit: number): Int32Array {
    const { dwmMax, maxDelta, span, total, bits } = this
    const buf = this.buf
    const bufEnd = this.bufAt + buf.length
    /** Fills the reservoir to at least `need` bits; false at the end of input (when fewer than 8 were asked). */
    const fill = (need: number): boolean => {
      while (this.count < need) {
        if (this.index >= this.end) {
          this.end = Math.min(DWVW_READ_BYTES, total - this.pos)
          this.index = 0
        }
        if (need < 8 && this.end === 0) return false
        this.reservoir <<= 8
        if (this.index < this.end) {
          this.reservoir |= buf[this.pos - this.bufAt]
          this.index++
          this.pos++
        }
        this.count += 8
      }
      return true
    }
    const take = (n: number): number => {
      fill(n)
      this.count -= n
      return (this.reservoir >>> this.count) & ((1 << n) - 1) // n ≤ 23, count ≤ 31
    }
    let out = new Int32Array(Math.max(0, Math.min(limit, Math.max(16, (bufEnd - this.pos) * 2))))
    let n = 0
    while (n < limit && !this.done) {
      if (bufEnd < total && bufEnd - this.pos < 8) break
      // the delta-width modifier: zeros up to a one, at most bits / 2 of them
      if (!fill(dwmMax) || (this.end === 0 && this.decoded === 0)) {
        this.done = true
        break
      }
      let modifier = 0
      while (modifier < dwmMax) {
        this.count--
        if (this.reservoir & (1 << this.count)) break
        modifier++
      }
      if (modifier && take(1)) modifier = -modifier
      this.width = (this.width + modifier + bits) % bits
      let delta = 0
      if (this.width) {
        delta = take(this.width - 1) | (1 << (this.width - 1))
        const negative = take(1)
        if (delta === maxDelta - 1) delta += take(1)
        if (negative) delta = -delta
      }
      let sample = this.sample + delta
      if (sample >= maxDelta) sample -= span
      else if (sample < -maxDelta) sample += span
      this.sample = sample
      // the input ended on this sample's last bit: libsndfile stores it but does not count it
      if (this.end === 0 && this.count === 0) {
        this.done = true
        break
      }
      if (n === out.length) {
        const grown = new Int32Array(Math.min(limit, Math.max(16, out.length * 2)))
        grown.set(out)
        out = grown
      }
      out[n++] = sample
      this.decoded++
    }
    return out.subarray(0, n)
  }
}

/**
 * Every sample of a DWVW stream, interleaved, as integers of `bits` bits (`DwvwDecoder` given the whole stream).
 * @param bytes the stream, from the sound data's first byte to the end of the file
 * @param bits the sample width (8–24)
 * @param limit stop after this many samples
 * @returns `Int32Array` of the samples decoded (≤ `limit`)
 * @throws Error `audio: DWVW ...` for a width libsndfile refuses
 */
export function decodeDwvw(bytes: Uint8Array, bits: number, limit: number): Int32Array {
  const d = new DwvwDecoder(bits, bytes.length)
  d.push(bytes)
  return d.decode(limit)
}
