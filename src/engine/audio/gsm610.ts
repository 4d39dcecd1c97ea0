/**
 * GSM 06.10 full-rate speech (ETSI EN 300 961, "GSM 06.10"), decoded as libsndfile 1.2 decodes it with the
 * Jutta Degener / Carsten Bormann reference implementation it bundles (libsndfile's src/GSM610: decode.c, rpe.c,
 * long_term.c, short_term.c, gsm_decode.c), so that the 16-bit samples are the ones the training reference reads.
 * Written here because no maintained GSM 06.10 decoder exists on npm (the registry has none that decodes audio).
 *
 * Each 20 ms frame (160 samples at 8 kHz) carries 8 log-area ratios, then per 40-sample subframe the long-term
 * predictor's lag and gain, the RPE grid position, the block maximum and 13 three-bit pulses (36 + 4 × 56 = 260
 * bits). The decoder (GSM 06.10 §4.3, in its fixed-point arithmetic: saturating 16-bit adds, `mult_r` rounding)
 * inverts the APCM quantization (§4.2.16), places the pulses on their grid (§4.2.17), runs the long-term synthesis
 * filter over the 120 samples of history (§4.3.2), interpolates the reflection coefficients across the frame and runs
 * the lattice short-term synthesis filter (§4.2.8–4.2.10, 4.3.3), then de-emphasis, upscaling and truncation to 13
 * bits (§4.3.5). Packing: standard frames are 33 bytes (`0xD` magic, fields MSB first; AIFC `GSM `); Microsoft's
 * WAV49 (WAV and Wave64 format tag 0x31) puts two frames in 65 bytes, fields LSB first, the second frame starting
 * in the middle of byte 32.
 */

/** Standard frame bytes and samples; WAV49 block bytes and samples (two frames). */
export const GSM_FRAME_BYTES = 33
export const GSM_FRAME_SAMPLES = 160
export const GSM_WAV49_BLOCK_BYTES = 65
export const GSM_WAV49_BLOCK_SAMPLES = 320

const MIN_WORD = -32768
const MAX_WORD = 32767

/** Field widths of one frame in order: LARc[0..7], then 4 × (Nc, bc, Mc, xmaxc, xMc[0..12]). */
const WIDTHS: number[] = [6, 6, 5, 5, 4, 4, 3, 3]
for (let j = 0; j < 4; j++) WIDTHS.push(7, 2, 2, 6, ...Array.from({ length: 13 }, () => 3))

/** Table 4.3b (quantized LTP gains) and 4.6 (normalized inverse mantissas). */
const QLB = [3277, 11469, 21299, 32767]
const FAC = [18431, 20479, 22527, 24575, 26623, 28671, 30719, 32767]
/** Table 4.1 (B, MIC) and 4.2 (1/A) for decoding the log-area ratios. */
const LAR_B = [0, 0, 2048, -2560, 94, -1792, -341, -1144]
const LAR_MIC = [-32, -32, -16, -16, -8, -8, -4, -4]
const LAR_INVA = [13107, 13107, 13107, 13107, 19223, 17476, 31454, 29708]

const int16 = (v: number) => (v << 16) >> 16
const sat = (v: number) => (v < MIN_WORD ? MIN_WORD : v > MAX_WORD ? MAX_WORD : v)
const multR = (a: number, b: number) => (a * b + 16384) >> 15
/** Arithmetic shift right of a 16-bit value by 0..15 (`SASR_W`); `gsm_asr`'s range limits. */
const asr = (a: number, n: number) => (n >= 16 ? -(a < 0 ? 1 : 0) : n <= -16 ? 0 : n < 0 ? int16(a << -n) : a >> n)
const asl = (a: number, n: number) => (n >= 16 ? 0 : n <= -16 ? -(a < 0 ? 1 : 0) : n < 0 ? asr(a, -n) : int16(a << n))

/** A GSM 06.10 decoder's state, carried from frame to frame. */
export class Gsm610Decoder {
  /** Reconstructed short-term residual, `dp0[0..120)` history then the current subframe. */
  private readonly dp0 = new Int16Array(280)
  private nrp = 40
  private readonly v = new Int16Array(9)
  private readonly larpp = [new Int16Array(8), new Int16Array(8)]
  private j = 0
  private msr = 0
  private readonly fields = new Int16Array(WIDTHS.length)
  private readonly wt = new Int16Array(160)
  private readonly erp = new Int16Array(40)
  private readonly xmp = new Int16Array(13)
  private readonly larp = new Int16Array(8)

  /**
   * Decodes one standard 33-byte frame at `at`: 160 samples into `out` from `outAt`. A frame without the `0xD`
   * magic is not decoded (libgsm refuses it): `out` keeps what it held there, as libsndfile's sample buffer does.
   */
  frame(b: Uint8Array, at: number, out: Int16Array, outAt: number): void {
    if ((b[at] >> 4) !== 0xd) return
    // MSB first after the 4-bit magic
    let bit = 4
    for (let f = 0; f < WIDTHS.length; f++) {
      let v = 0
      for (let w = WIDTHS[f]; w > 0; w--, bit++) v = (v << 1) | ((b[at + (bit >> 3)] >> (7 - (bit & 7))) & 1)
      this.fields[f] = v
    }
    this.decode(out, outAt)
  }

  /** Decodes one 65-byte WAV49 block at `at`: 320 samples into `out` from `outAt`. */
  wav49(b: Uint8Array, at: number, out: Int16Array, outAt: number): void {
    // one LSB-first bit stream of 2 × 260 bits
    let bit = 0
    for (let half = 0; half < 2; half++) {
      for (let f = 0; f < WIDTHS.length; f++) {
        let v = 0
        for (let w = 0; w < WIDTHS[f]; w++, bit++) v |= ((b[at + (bit >> 3)] >> (bit & 7)) & 1) << w
        this.fields[f] = v
      }
      this.decode(out, outAt + half * GSM_FRAME_SAMPLES)
    }
  }

  /** Gsm_Decoder on the unpacked fields. */
  private decode(out: Int16Array, outAt: number): void {
    const F = this.fields
    const dp = this.dp0
    for (let sub = 0; sub < 4; sub++) {
      const base = 8 + sub * 17
      const nc = F[base]
      const bc = F[base + 1]
      const mc = F[base + 2]
      const xmaxc = F[base + 3]
      this.rpeDecoding(xmaxc, mc, F, base + 4)
      // long-term synthesis (§4.3.2): drp = dp0 + 120
      const nr = nc < 40 || nc > 120 ? this.nrp : nc
      this.nrp = nr
      const brp = QLB[bc]
      for (let k = 0; k < 40; k++) {
        const drpp = multR(brp, dp[120 + k - nr])
        dp[120 + k] = sat(this.erp[k] + drpp)
      }
      for (let k = 0; k < 40; k++) this.wt[sub * 40 + k] = dp[120 + k]
      dp.copyWithin(0, 40, 160)
    }
    this.shortTermSynthesis(F, out, outAt)
    // post-processing (§4.3.5): de-emphasis, upscaling, truncation to 13 bits
    let msr = this.msr
    for (let k = 0; k < 160; k++) {
      const tmp = multR(msr, 28180)
      msr = sat(out[outAt + k] + tmp)
      out[outAt + k] = int16(sat(msr + msr) & 0xfff8)
    }
    this.msr = msr
  }

  /** APCM inverse quantization and RPE grid positioning (§4.2.16–4.2.17) into `erp`. */
  private rpeDecoding(xmaxc: number, mc: number, F: Int16Array, xmcAt: number): void {
    let exp = 0
    if (xmaxc > 15) exp = (xmaxc >> 3) - 1
    let mant = xmaxc - (exp << 3)
    if (mant === 0) {
      exp = -4
      mant = 7
    } else {
      while (mant <= 7) {
        mant = (mant << 1) | 1
        exp--
      }
      mant -= 8
    }
    const temp1 = FAC[mant]
    const temp2 = sat(6 - exp)
    const temp3 = asl(1, sat(temp2 - 1))
    for (let i = 0; i < 13; i++) {
      let temp = int16(((F[xmcAt + i] << 1) - 7) << 12)
      temp = int16(multR(temp1, temp))
      temp = sat(temp + temp3)
      this.xmp[i] = asr(temp, temp2)
    }
    this.erp.fill(0)
    for (let i = 0; i < 13; i++) this.erp[mc + 3 * i] = this.xmp[i]
  }

  /** Gsm_Short_Term_Synthesis_Filter: the frame's reflection coefficients, interpolated, through the lattice. */
  private shortTermSynthesis(F: Int16Array, out: Int16Array, outAt: number): void {
    const cur = this.larpp[this.j]
    const prev = this.larpp[(this.j ^= 1)]
    // decoding of the coded log-area ratios (§4.2.8)
    for (let i = 0; i < 8; i++) {
      let t = int16(sat(F[i] + LAR_MIC[i]) << 10)
      t = sat(t - LAR_B[i] * 2)
      t = int16(multR(LAR_INVA[i], t))
      cur[i] = sat(t + t)
    }
    const larp = this.larp
    const filter = (start: number, count: number) => {
      // LARp → reflection coefficients rp (§4.2.10)
      for (let i = 0; i < 8; i++) {
        const x = larp[i]
        const neg = x < 0
        const t = neg ? (x === MIN_WORD ? MAX_WORD : -x) : x
        const r = t < 11059 ? t << 1 : t < 20070 ? t + 11059 : sat((t >> 2) + 26112)
        larp[i] = neg ? -r : r
      }
      this.lattice(larp, this.wt, start, count, out, outAt + start)
    }
    for (let i = 0; i < 8; i++) larp[i] = sat(sat((prev[i] >> 2) + (cur[i] >> 2)) + (prev[i] >> 1))
    filter(0, 13)
    for (let i = 0; i < 8; i++) larp[i] = sat((prev[i] >> 1) + (cur[i] >> 1))
    filter(13, 14)
    for (let i = 0; i < 8; i++) larp[i] = sat(sat((prev[i] >> 2) + (cur[i] >> 2)) + (cur[i] >> 1))
    filter(27, 13)
    for (let i = 0; i < 8; i++) larp[i] = cur[i]
    filter(40, 120)
  }

  /** The short-term synthesis lattice filter (§4.3.3), in libgsm's integer form. */
  private lattice(rrp: Int16Array, wt: Int16Array, start: number, count: number, out: Int16Array, outAt: number): void {
    const v = this.v
    for (let k = 0; k < count; k++) {
      let sri = wt[start + k]
      for (let i = 7; i >= 0; i--) {
        const r = rrp[i]
        const t2 = r === MIN_WORD && v[i] === MIN_WORD ? MAX_WORD : int16(multR(r, v[i]))
        sri = sat(sri - t2)
        const t1 = r === MIN_WORD && sri === MIN_WORD ? MAX_WORD : int16(multR(r, sri))
        v[i + 1] = sat(v[i] + t1)
      }
      out[outAt + k] = v[0] = sri
    }
  }
}

/**
 * Blocks libsndfile reads in `dataBytes` of GSM data (`gsm610_init`): the whole ones, plus one cut short (read over
 * the previous block's bytes); an AIFF sound chunk one byte longer than whole frames is its pad byte, not a frame.
 */
export function gsmBlocks(dataBytes: number, wav49: boolean): number {
  const size = wav49 ? GSM_WAV49_BLOCK_BYTES : GSM_FRAME_BYTES
  const rest = dataBytes % size
  return Math.floor(dataBytes / size) + (rest === 0 || (rest === 1 && !wav49) ? 0 : 1)
}

/**
 * GSM 06.10 blocks decoded in order, a run at a time, with what libsndfile carries from block to block: the decoder's
 * state, its block buffer (a block cut short keeps the previous block's bytes after what was read) and its sample
 * buffer (a standard frame without the `0xD` magic leaves the previous frame's samples). `decodeGsm610` runs the
 * whole stream through one; the streamed decode (coded-stream.ts) runs it a few MiB of blocks at a time.
 */
export class GsmBlockDecoder {
  private readonly d = new Gsm610Decoder()
  /** Bytes and samples of one block: 65 and 320 for WAV49, else 33 and 160. */
  readonly blockBytes: number
  readonly blockSamples: number
  private readonly block: Uint8Array
  private readonly samples: Int16Array

  constructor(readonly wav49: boolean) {
    this.blockBytes = wav49 ? GSM_WAV49_BLOCK_BYTES : GSM_FRAME_BYTES
    this.blockSamples = wav49 ? GSM_WAV49_BLOCK_SAMPLES : GSM_FRAME_SAMPLES
    this.block = new Uint8Array(this.blockBytes)
    this.samples = new Int16Array(this.blockSamples)
  }

  /**
   * Decodes the next blocks from `data` (their bytes in order, the last one possibly cut short) into `out` from
   * `outAt`, until `count` samples are written (the last block's samples cut there).
   */
  decode(data: Uint8Array, out: Float32Array, outAt: number, count: number): void {
    const { blockBytes: size, blockSamples: per, block, samples } = this
    for (let b = 0, at = 0; at < count; b++, at += per) {
      block.set(data.subarray(Math.min(data.length, b * size), Math.min(data.length, (b + 1) * size)))
      if (this.wav49) this.d.wav49(block, 0, samples, 0)
      else this.d.frame(block, 0, samples, 0)
      const n = Math.min(per, count - at)
      for (let i = 0; i < n; i++) out[outAt + at + i] = samples[i] / 32768
    }
  }
}

/**
 * Decodes `frames` samples of mono GSM 06.10 data (`GsmBlockDecoder` over every block).
 * @param data the file from the coded data's first byte to its end: libsndfile reads a last block cut short on
 * into whatever follows (a pad byte, the next chunk), then over the previous block's bytes
 * @param dataBytes the data's length as libsndfile takes it (which decides the block count, `gsmBlocks`)
 * @param wav49 Microsoft's 65-byte blocks (WAV, Wave64) rather than standard 33-byte frames (AIFC)
 * @param frames samples to return (libsndfile's count: every block's, capped at AIFF's COMM count; zeros past
 * the blocks)
 * @returns `[frames]` float32, libsndfile's 16-bit values / 32768
 */
export function decodeGsm610(data: Uint8Array, dataBytes: number, wav49: boolean, frames: number): Float32Array {
  const d = new GsmBlockDecoder(wav49)
  const blocks = gsmBlocks(dataBytes, wav49)
  const out = new Float32Array(frames)
  d.decode(data.subarray(0, Math.min(data.length, blocks * d.blockBytes)), out, 0, Math.min(frames, blocks * d.blockSamples))
  return out
}
