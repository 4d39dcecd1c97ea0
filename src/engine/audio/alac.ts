/**
 * ALAC (Apple Lossless) in CAF, decoded as libsndfile 1.2 decodes it (its src/alac.c around Apple's ALAC decoder,
 * open-sourced under the Apache License 2.0: alac_decoder.c, ag_dec.c, dp_dec.c, matrix_dec.c), so that the samples
 * are the ones the training reference reads. Written here because the npm registry's only ALAC decoder (`alac`,
 * 0.1.0) is an Aurora.js plugin last published in 2014, tied to that framework.
 *
 * The format, as Apple's reference implements it: the CAF `kuki` chunk holds the ALACSpecificConfig (frames per
 * packet, bit depth, the adaptive Golomb parameters pb/mb/kb, channels, max run); the `pakt` chunk lists each
 * packet's byte size (variable-length integers, 7 bits a byte, after a 24-byte header that libsndfile skips: it
 * ignores the priming and remainder frames); the packets follow each other after the `data` chunk's 4-byte edit
 * count. A packet is a sequence of elements (single channel SCE/LFE, channel pair CPE, fill, data stream, end), each
 * either stored verbatim ("escape") or as adaptive-Golomb residuals (`agDecode`) through an adaptive FIR predictor
 * (`unpredict`), a pair then un-matrixed (`l = u + v − (mixRes·v >> mixBits)`, `r = l − v`), low bytes shifted out
 * of 24/32-bit samples stored beside the residuals. libsndfile's length: every packet's frames but the last, plus
 * what the last decodes to. Its quirks are kept: 32-bit samples without shifted bytes come out shifted left 8 bits,
 * 16/20-bit samples drop shifted bytes, a verbatim pair wider than 16 bits reads its second channel unshifted, and
 * a verbatim element running past its packet (libsndfile's encoder writes such a last packet) reads on into what
 * earlier packets left in the buffer.
 */

/** The ALACSpecificConfig of a stream (from CAF's `kuki` chunk). */
export interface AlacConfig {
  frameLength: number
  bitDepth: number
  pb: number
  mb: number
  kb: number
  channels: number
  maxRun: number
}

/** Most frames per packet libsndfile accepts (`ALAC_FRAME_LENGTH`). */
const ALAC_FRAME_LENGTH = 4096

/**
 * Reads the ALACSpecificConfig from a `kuki` chunk's body (optionally behind `frma` and `alac` atoms, as in
 * MP4-style cookies).
 * @throws Error `audio: ALAC …` for a cookie libsndfile refuses
 */
export function parseAlacCookie(kuki: Uint8Array): AlacConfig {
  let at = 0
  const tag = (i: number) => String.fromCharCode(kuki[i + 4], kuki[i + 5], kuki[i + 6], kuki[i + 7])
  if (kuki.length >= 8 && tag(at) === 'frma') at += 12
  if (kuki.length >= at + 8 && tag(at) === 'alac') at += 12
  if (kuki.length - at < 24) throw new Error(`audio: ALAC magic cookie of ${kuki.length} bytes is too short (needs 24)`)
  const be32 = (i: number) => ((kuki[i] << 24) | (kuki[i + 1] << 16) | (kuki[i + 2] << 8) | kuki[i + 3]) >>> 0
  const c: AlacConfig = {
    frameLength: be32(at), bitDepth: kuki[at + 5], pb: kuki[at + 6], mb: kuki[at + 7], kb: kuki[at + 8], channels: kuki[at + 9],
    maxRun: (kuki[at + 10] << 8) | kuki[at + 11],
  }
  if (c.frameLength > ALAC_FRAME_LENGTH || c.frameLength === 0) throw new Error(`audio: ALAC frame length ${c.frameLength} (libsndfile reads up to ${ALAC_FRAME_LENGTH})`)
  if (kuki[at + 4] > 0) throw new Error(`audio: ALAC compatible version ${kuki[at + 4]} (libsndfile reads 0)`)
  if (![16, 20, 24, 32].includes(c.bitDepth)) throw new Error(`audio: ALAC bit depth ${c.bitDepth} (libsndfile reads 16, 20, 24, 32)`)
  if (c.channels < 1) throw new Error('audio: ALAC cookie declares 0 channels')
  return c
}

/**
 * The packet sizes of a CAF `pakt` chunk's body, as libsndfile's `alac_pakt_read_decode` reads them: from byte 24,
 * variable-length integers (7 bits a byte, high first, at most 5 bytes), up to the first 0.
 */
export function parseAlacPackets(pakt: Uint8Array): number[] {
  const sizes: number[] = []
  for (let at = 24; at < pakt.length;) {
    let value = 0
    let count = 0
    let byte: number
    do {
      byte = pakt[at + count]
      value = value * 128 + (byte & 0x7f)
      count++
      if (count > 5 || at + count > pakt.length) { value = 0; break }
    } while (byte & 0x80)
    at += count
    if (value === 0) break
    sizes.push(value)
  }
  return sizes
}

/** MSB-first reader over one packet (zeros past its end). */
class Bits {
  pos = 0
  /**
   * @param b the decoder's byte buffer: the packet, then what earlier packets left there (libsndfile reads a packet
   * into the same buffer each time; a verbatim element that runs past its packet reads those bytes)
   * @param size the packet's bytes
   */
  constructor(readonly b: Uint8Array, readonly size: number) {}
  /** `n` ≤ 32 bits as an unsigned number. */
  read(n: number): number {
    let v = 0
    for (let i = 0; i < n; i++, this.pos++) v = v * 2 + ((this.byte(this.pos >> 3) >> (7 - (this.pos & 7))) & 1)
    return v
  }
  byte(i: number): number { return i < this.b.length ? this.b[i] : 0 }
  /** The 32 bits from the byte holding `pos`, shifted left by `pos & 7` (zeros enter): Apple's `read32bit << …`. */
  word(pos: number): number {
    const i = pos >> 3
    return (((this.byte(i) << 24) | (this.byte(i + 1) << 16) | (this.byte(i + 2) << 8) | this.byte(i + 3)) << (pos & 7)) >>> 0
  }
}

/** Leading zeros of a 32-bit value (`lead`). */
const lead = (m: number) => Math.clz32(m)

/** One adaptive-Golomb code of up to `maxBits` (`dyn_get_32bit`). */
function dynGet32(bits: Bits, m: number, k: number, maxBits: number): number {
  const stream = bits.word(bits.pos)
  let result = lead(~stream >>> 0)
  if (result >= 9) {
    const save = bits.pos
    bits.pos += 9
    result = bits.read(maxBits)
    bits.pos = save + 9 + maxBits
    return result
  }
  bits.pos += result + 1
  if (k !== 1) {
    const v = ((stream << (result + 1)) >>> 0) >>> (32 - k)
    bits.pos += k - 1
    result = result * m
    if (v >= 2) {
      result += v - 1
      bits.pos += 1
    }
  }
  return result
}

/** One zero-run length code (`dyn_get`, 16-bit escape). */
function dynGet16(bits: Bits, m: number, k: number): number {
  const stream = bits.word(bits.pos)
  const pre = lead(~stream >>> 0)
  if (pre >= 9) {
    bits.pos += 9 + 16
    return ((stream << 9) >>> 0) >>> 16
  }
  const v = ((stream << (pre + 1)) >>> 0) >>> (32 - k)
  bits.pos += pre + 1 + k
  let result = pre * m + v - 1
  if (v < 2) {
    result -= v - 1
    bits.pos -= 1
  }
  return result
}

/** The adaptive-Golomb residuals of one channel (`dyn_decomp`) into `out[0..n)`. */
function agDecode(bits: Bits, out: Int32Array, n: number, maxBits: number, mb0: number, pb: number, kb: number): void {
  const wb = (1 << kb) - 1
  let mb = mb0
  let zmode = 0
  let c = 0
  while (c < n) {
    if (bits.pos >= bits.size * 8) throw new Error('audio: ALAC packet ends inside its residuals')
    let m = mb >>> 9
    let k = 31 - lead(m + 3)
    k = Math.min(k, kb)
    m = (1 << k) - 1
    const code = dynGet32(bits, m, k, maxBits)
    const nd = (code + zmode) >>> 0
    out[c++] = nd & 1 ? -((nd + 1) >>> 1) | 0 : (nd + 1) >>> 1 | 0
    mb = (Math.imul(pb, nd) + mb - (Math.imul(pb, mb) >>> 9)) >>> 0
    if (code > 0xffff) mb = 0xffff
    zmode = 0
    if (((mb << 2) >>> 0) < 512 && c < n) {
      zmode = 1
      const zk = lead(mb) - 24 + ((mb + 16) >> 6)
      const mz = ((1 << zk) - 1) & wb
      const run = dynGet16(bits, mz, zk)
      if (c + run > n) throw new Error('audio: ALAC zero run past the end of its packet')
      for (let j = 0; j < run; j++) out[c++] = 0
      if (run >= 65535) zmode = 0
      mb = 0
    }
  }
}

const sign = (i: number) => (i > 0 ? 1 : i < 0 ? -1 : 0)
const int16 = (v: number) => (v << 16) >> 16

/** The adaptive FIR predictor's inverse (`unpc_block`), `inp` → `out` (they may be the same array). */
function unpredict(inp: Int32Array, out: Int32Array, num: number, coefs: Int16Array, active: number, chanBits: number, denShift: number): void {
  const cs = 32 - chanBits
  const ext = (v: number) => (cs === 0 ? v | 0 : (v << cs) >> cs)
  const denHalf = 1 << (denShift - 1)
  out[0] = inp[0]
  if (active === 0) {
    if (inp !== out) out.set(inp.subarray(1, num), 1)
    return
  }
  if (active === 31) {
    let prev = out[0]
    for (let j = 1; j < num; j++) out[j] = prev = ext(inp[j] + prev)
    return
  }
  for (let j = 1; j <= active && j < num; j++) out[j] = ext(inp[j] + out[j - 1])
  const lim = active + 1
  for (let j = lim; j < num; j++) {
    const top = out[j - lim]
    let sum = 0
    for (let k = 0; k < active; k++) sum = (sum + Math.imul(coefs[k], out[j - 1 - k] - top)) | 0
    let del = inp[j]
    let del0 = del
    const sg = sign(del)
    del = (del + top + ((sum + denHalf) >> denShift)) | 0
    out[j] = ext(del)
    if (sg > 0) {
      for (let k = active - 1; k >= 0; k--) {
        const dd = (top - out[j - 1 - k]) | 0
        const sgn = sign(dd)
        coefs[k] = int16(coefs[k] - sgn)
        del0 = (del0 - Math.imul(active - k, Math.imul(sgn, dd) >> denShift)) | 0
        if (del0 <= 0) break
      }
    } else if (sg < 0) {
      for (let k = active - 1; k >= 0; k--) {
        const dd = (top - out[j - 1 - k]) | 0
        const sgn = sign(dd)
        coefs[k] = int16(coefs[k] + sgn)
        del0 = (del0 - Math.imul(active - k, Math.imul(-sgn, dd) >> denShift)) | 0
        if (del0 >= 0) break
      }
    }
  }
}

/** One channel's predictor parameters from an element header. */
interface Predictor { mode: number; denShift: number; pbFactor: number; coefs: Int16Array; count: number }

function readPredictor(bits: Bits): Predictor {
  let h = bits.read(8)
  const mode = h >> 4
  const denShift = h & 0xf
  h = bits.read(8)
  const count = h & 0x1f
  const coefs = new Int16Array(32)
  for (let i = 0; i < count; i++) coefs[i] = int16(bits.read(16))
  return { mode, denShift, pbFactor: h >> 5, coefs, count }
}

/** A stream's decoder: the config, and scratch buffers reused packet after packet. */
export class AlacDecoder {
  private readonly pred: Int32Array
  private readonly mixU: Int32Array
  private readonly mixV: Int32Array
  private readonly shiftUV: Uint16Array
  /** libsndfile's packet buffer, reused packet after packet (zeros where no packet reached yet). */
  private bytes: Uint8Array

  constructor(private readonly config: AlacConfig) {
    const n = config.frameLength
    this.pred = new Int32Array(n)
    this.mixU = new Int32Array(n)
    this.mixV = new Int32Array(n)
    this.shiftUV = new Uint16Array(2 * n)
    this.bytes = new Uint8Array(n * config.channels * 4 + 64)
  }

  /**
   * Decodes one packet into `out` (interleaved, left-justified 32-bit values as libsndfile's decoder leaves them).
   * @returns the frames the packet holds
   * @throws Error `audio: ALAC …` for a packet the decoder stops at
   */
  packet(packet: Uint8Array, out: Int32Array): number {
    const { config } = this
    const channels = config.channels
    if (packet.length > this.bytes.length) {
      const grown = new Uint8Array(packet.length)
      grown.set(this.bytes)
      this.bytes = grown
    }
    this.bytes.set(packet)
    const bits = new Bits(this.bytes, packet.length)
    let numSamples = config.frameLength
    let ch = 0
    for (;;) {
      if (bits.pos >= packet.length * 8) throw new Error('audio: ALAC packet ends before its END element')
      const tag = bits.read(3)
      if (tag === 0 || tag === 3) { // SCE, LFE
        numSamples = this.element(bits, 1, numSamples, out, ch, channels)
        ch += 1
      } else if (tag === 1) {
        if (ch + 2 > channels) break
        numSamples = this.element(bits, 2, numSamples, out, ch, channels)
        ch += 2
      } else if (tag === 2 || tag === 5) throw new Error(`audio: ALAC element ${tag === 2 ? 'CCE' : 'PCE'} is not supported (libsndfile stops too)`)
      else if (tag === 4) { // DSE
        bits.read(4)
        const align = bits.read(1)
        let count = bits.read(8)
        if (count === 255) count += bits.read(8)
        if (align) bits.pos = (bits.pos + 7) & ~7
        bits.pos += count * 8
      } else if (tag === 6) { // FIL
        let count = bits.read(4)
        if (count === 15) count += bits.read(8) - 1
        bits.pos += count * 8
      } else break // END
      if (ch >= channels) break
    }
    for (; ch < channels; ch++) for (let i = 0; i < numSamples; i++) out[i * channels + ch] = 0
    return numSamples
  }

  /** One SCE (`count` 1) or CPE (2) element into channels `ch…` of `out`; returns its frame count. */
  private element(bits: Bits, count: 1 | 2, numSamples: number, out: Int32Array, ch: number, channels: number): number {
    const { config, pred, mixU, mixV, shiftUV } = this
    bits.read(4) // element instance tag
    if (bits.read(12) !== 0) throw new Error('audio: ALAC element header is damaged (unused bits set)')
    const head = bits.read(4)
    const partial = head >> 3
    let bytesShifted = (head >> 1) & 3
    if (bytesShifted === 3) throw new Error('audio: ALAC element shifts 3 bytes')
    const escape = head & 1
    let chanBits = config.bitDepth - bytesShifted * 8 + (count - 1)
    if (partial) {
      numSamples = bits.read(32)
      if (numSamples >= ALAC_FRAME_LENGTH) throw new Error(`audio: ALAC packet declares ${numSamples} frames`)
    }
    let mixBits = 0
    let mixRes = 0
    if (!escape) {
      mixBits = bits.read(8)
      mixRes = (bits.read(8) << 24) >> 24
      const p = [readPredictor(bits)]
      if (count === 2) p.push(readPredictor(bits))
      let shiftAt = -1
      if (bytesShifted) {
        shiftAt = bits.pos
        bits.pos += bytesShifted * 8 * count * numSamples
      }
      for (let c = 0; c < count; c++) {
        const q = p[c]
        agDecode(bits, pred, numSamples, chanBits, config.mb, (config.pb * q.pbFactor) >> 2, config.kb)
        const mix = c === 0 ? mixU : mixV
        if (q.mode === 0) unpredict(pred, mix, numSamples, q.coefs, q.count, chanBits, q.denShift)
        else {
          unpredict(pred, pred, numSamples, q.coefs, 31, chanBits, 0)
          unpredict(pred, mix, numSamples, q.coefs, q.count, chanBits, q.denShift)
        }
      }
      if (bytesShifted) {
        const save = bits.pos
        bits.pos = shiftAt
        for (let i = 0; i < count * numSamples; i++) shiftUV[i] = bits.read(bytesShifted * 8)
        bits.pos = save
      }
    } else {
      // verbatim samples (libsndfile's code, quirks kept)
      if (count === 2) chanBits = config.bitDepth
      const shift = 32 - chanBits
      for (let i = 0; i < numSamples; i++) {
        for (let c = 0; c < count; c++) {
          const mix = c === 0 ? mixU : mixV
          if (chanBits <= 16) mix[i] = (bits.read(chanBits) << shift) >> shift
          else {
            const hi = bits.read(16)
            const lo = bits.read(chanBits - 16)
            mix[i] = count === 1 ? ((hi << 16) >> shift) | lo : c === 0 ? (((hi << 16) >>> 0) >>> shift) | lo : (hi >>> shift) | lo
          }
        }
      }
      bytesShifted = 0
    }
    const depth = config.bitDepth
    const shifted = bytesShifted * 8
    for (let i = 0; i < numSamples; i++) {
      let l = mixU[i]
      let r = mixV[i]
      if (count === 2 && mixRes !== 0) {
        l = (mixU[i] + r - (Math.imul(mixRes, r) >> mixBits)) | 0
        r = (l - mixV[i]) | 0
      }
      for (let c = 0; c < count; c++) {
        let v = c === 0 ? l : r
        const sh = shiftUV[i * count + c]
        if (depth === 16) v = v << 16
        else if (depth === 20) v = v << 12
        else if (depth === 24) v = shifted ? ((v << shifted) | sh) << 8 : v << 8
        else v = shifted ? (v << shifted) | sh : count === 1 ? v << 8 : v
        out[i * channels + ch + c] = v
      }
    }
    return numSamples
  }
}

/**
 * Decodes an ALAC stream from CAF.
 * @param data the file from the first packet on (after the `data` chunk's edit count)
 * @param sizes the packets' byte sizes (`parseAlacPackets`)
 * @returns planar `[channels][frames]` float32 (left-justified 32-bit values / 2^31, as libsndfile's `read_f`) and
 * the frames libsndfile counts (every packet's `frameLength` but the last, plus the last's own)
 */
export function decodeAlac(data: Uint8Array, sizes: readonly number[], config: AlacConfig): Float32Array[] {
  const { channels, frameLength } = config
  const d = new AlacDecoder(config)
  const buf = new Int32Array(frameLength * channels)
  const pieces: [Int32Array, number][] = []
  let at = 0
  let frames = 0
  for (const size of sizes) {
    if (at + size > data.length) break // libsndfile's read comes up short: it stops there
    const n = d.packet(data.subarray(at, at + size), buf)
    pieces.push([buf.slice(0, n * channels), n])
    frames += n
    at += size
  }
  const out = Array.from({ length: channels }, () => new Float32Array(frames))
  let f = 0
  for (const [p, n] of pieces) {
    for (let i = 0; i < n; i++) for (let c = 0; c < channels; c++) out[c][f + i] = p[i * channels + c] / 2147483648
    f += n
  }
  return out
}
