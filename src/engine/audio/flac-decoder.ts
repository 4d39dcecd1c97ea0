/**
 * The FLAC frame format decoded in TypeScript, bit for bit as libFLAC decodes it (RFC 9639; libFLAC's
 * stream_decoder.c): frame headers and their CRC-8, the CRC-16 footer, constant / verbatim / fixed / LPC subframes
 * with wasted bits, partitioned Rice residuals (4- and 5-bit parameters, escapes) and stereo decorrelation, for every
 * bit depth from 4 to 32 (a 32-bit side channel needs 33 bits: samples are held as doubles, exact below 2^53).
 *
 * The WASM libFLAC build (wasm.ts) and WebCodecs stay the fast path for ordinary 8/16/24-bit streams; this decoder
 * takes what they get wrong (other bit depths, frames that defer rate or depth to STREAMINFO, old-style variable
 * blocking) and tells the splitter (flac.ts) exactly where a frame ends when its CRC-16 does not.
 */

/** The STREAMINFO fields (RFC 9639 §8.2). */
export interface FlacStreamInfo {
  minBlockSize: number
  maxBlockSize: number
  /** Bytes; 0 = unknown. */
  minFrameSize: number
  maxFrameSize: number
  /** Hz. */
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** Samples per channel; 0 = unknown. */
  totalSamples: number
}

/**
 * Reads the 34-byte STREAMINFO body at `at`.
 *
 * @param b bytes holding the body at `[at, at + 34)`
 */
export function parseStreamInfo(b: Uint8Array, at: number): FlacStreamInfo {
  const x = at + 10
  return {
    minBlockSize: (b[at] << 8) | b[at + 1],
    maxBlockSize: (b[at + 2] << 8) | b[at + 3],
    minFrameSize: (b[at + 4] << 16) | (b[at + 5] << 8) | b[at + 6],
    maxFrameSize: (b[at + 7] << 16) | (b[at + 8] << 8) | b[at + 9],
    sampleRate: (b[x] << 12) | (b[x + 1] << 4) | (b[x + 2] >> 4),
    channels: ((b[x + 2] >> 1) & 0x07) + 1,
    bitsPerSample: (((b[x + 2] & 0x01) << 4) | (b[x + 3] >> 4)) + 1,
    totalSamples: (b[x + 3] & 0x0f) * 2 ** 32 + ((b[x + 4] << 24) >>> 0) + ((b[x + 5] << 16) | (b[x + 6] << 8) | b[x + 7]),
  }
}

// ------------------------------------------------------------------------------------------------ CRCs

const crc8Table = new Uint8Array(256)
/**
 * CRC-16 (poly 0x8005, MSB first) slice-by-8 tables: `crc16Tables[k * 256 + i]` is the register after byte `i`
 * followed by `k` zero bytes, so eight bytes update the register with eight lookups and no shifts between them.
 */
const crc16Tables = new Uint16Array(8 * 256)
for (let i = 0; i < 256; i++) {
  let c8 = i
  for (let k = 0; k < 8; k++) c8 = c8 & 0x80 ? ((c8 << 1) ^ 0x07) & 0xff : (c8 << 1) & 0xff
  crc8Table[i] = c8
  let c16 = i << 8
  for (let k = 0; k < 8; k++) c16 = c16 & 0x8000 ? ((c16 << 1) ^ 0x8005) & 0xffff : (c16 << 1) & 0xffff
  crc16Tables[i] = c16
}
for (let k = 1; k < 8; k++) {
  for (let i = 0; i < 256; i++) {
    const prev = crc16Tables[(k - 1) * 256 + i]
    crc16Tables[k * 256 + i] = ((prev << 8) & 0xffff) ^ crc16Tables[prev >> 8]
  }
}

/** Extends the CRC-16 `crc` over `b[from, to)`. A whole frame (header to footer) sums to 0. */
export function crc16(b: Uint8Array, from: number, to: number, crc = 0): number {
  const t = crc16Tables
  let i = from
  for (; i + 8 <= to; i += 8) {
    crc = t[1792 + ((crc >> 8) ^ b[i])] ^ t[1536 + ((crc & 0xff) ^ b[i + 1])] ^ t[1280 + b[i + 2]] ^ t[1024 + b[i + 3]]
      ^ t[768 + b[i + 4]] ^ t[512 + b[i + 5]] ^ t[256 + b[i + 6]] ^ t[b[i + 7]]
  }
  for (; i < to; i++) crc = ((crc << 8) & 0xffff) ^ t[(crc >> 8) ^ b[i]]
  return crc
}

// ------------------------------------------------------------------------------------------------ frame header

/** Channel assignment of a frame: independent channels, or one of the three stereo decorrelations. */
export type FlacChannelAssignment = 'independent' | 'left-side' | 'right-side' | 'mid-side'

/** A parsed frame header (RFC 9639 §9.1). */
export interface FlacFrameHeader {
  /** Header bytes, CRC-8 included. */
  length: number
  /** The blocking strategy bit: 1 = variable block size, the coded number is a sample number. */
  variableBlocking: boolean
  /** Samples per channel in this frame. */
  blockSize: number
  /** Hz, or 0 when the header defers to STREAMINFO. */
  sampleRate: number
  channels: number
  assignment: FlacChannelAssignment
  /** Bits per sample, or 0 when the header defers to STREAMINFO. */
  bitsPerSample: number
  /** The coded number: frame number (fixed blocking) or first sample number. */
  number: number
}

const rateCodes = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000]
const bitsCodes = [0, 8, 12, -1, 16, 20, 24, 32]
const assignments: FlacChannelAssignment[] = ['left-side', 'right-side', 'mid-side']

/**
 * Parses the frame header at `at`: sync code, reserved bits and codes, the UTF-8-coded number, and the CRC-8.
 *
 * @returns the header, or `null` when there is no valid one at `at`
 */
export function readFrameHeader(b: Uint8Array, at: number): FlacFrameHeader | null {
  if (at + 6 > b.length || b[at] !== 0xff || (b[at + 1] & 0xfe) !== 0xf8) return null
  const blockCode = b[at + 2] >> 4
  const rateCode = b[at + 2] & 0x0f
  const chanCode = b[at + 3] >> 4
  const bitsCode = (b[at + 3] >> 1) & 0x07
  if (blockCode === 0 || rateCode === 15 || chanCode > 10 || bitsCode === 3 || (b[at + 3] & 1)) return null
  let p = at + 4
  const lead = b[p++]
  let extra: number
  let number: number
  if (lead < 0x80) { extra = 0; number = lead }
  else if ((lead & 0xe0) === 0xc0) { extra = 1; number = lead & 0x1f }
  else if ((lead & 0xf0) === 0xe0) { extra = 2; number = lead & 0x0f }
  else if ((lead & 0xf8) === 0xf0) { extra = 3; number = lead & 0x07 }
  else if ((lead & 0xfc) === 0xf8) { extra = 4; number = lead & 0x03 }
  else if ((lead & 0xfe) === 0xfc) { extra = 5; number = lead & 0x01 }
  else if (lead === 0xfe) { extra = 6; number = 0 }
  else return null
  if (p + extra > b.length) return null
  for (let i = 0; i < extra; i++) {
    const c = b[p++]
    if ((c & 0xc0) !== 0x80) return null
    number = number * 64 + (c & 0x3f)
  }
  let blockSize: number
  if (blockCode === 1) blockSize = 192
  else if (blockCode <= 5) blockSize = 576 << (blockCode - 2)
  else if (blockCode === 6) { if (p >= b.length) return null; blockSize = b[p++] + 1 }
  else if (blockCode === 7) { if (p + 1 >= b.length) return null; blockSize = ((b[p] << 8) | b[p + 1]) + 1; p += 2 }
  else blockSize = 256 << (blockCode - 8)
  if (blockSize > 65535) return null
  let sampleRate: number
  if (rateCode < 12) sampleRate = rateCodes[rateCode]
  else if (rateCode === 12) { if (p >= b.length) return null; sampleRate = b[p++] * 1000 }
  else { if (p + 1 >= b.length) return null; sampleRate = ((b[p] << 8) | b[p + 1]) * (rateCode === 14 ? 10 : 1); p += 2 }
  if (p >= b.length) return null
  let crc = 0
  for (let i = at; i < p; i++) crc = crc8Table[crc ^ b[i]]
  if (crc !== b[p]) return null
  return {
    length: p + 1 - at, variableBlocking: (b[at + 1] & 1) === 1, blockSize, sampleRate,
    channels: chanCode < 8 ? chanCode + 1 : 2, assignment: chanCode < 8 ? 'independent' : assignments[chanCode - 8],
    bitsPerSample: bitsCodes[bitsCode], number,
  }
}

// ------------------------------------------------------------------------------------------------ frames

/** A frame that cannot be decoded: the message says where and why (libFLAC reports such a frame and skips it). */
class FlacFrameError extends Error {}

/** MSB-first bit reader over `b[0, end)`; reading past `end` throws `FlacFrameError`. */
class BitReader {
  /** Absolute bit position. */
  bit = 0
  constructor(readonly b: Uint8Array, readonly end: number) {}

  /** `n` (0–32) bits as an unsigned number. */
  read(n: number): number {
    let p = this.bit
    const stop = p + n
    if (stop > this.end * 8) throw new FlacFrameError('frame ends early')
    let v = 0
    while (p < stop) {
      const off = p & 7
      const avail = 8 - off
      const take = Math.min(avail, stop - p)
      v = v * (1 << take) + ((this.b[p >>> 3] >>> (avail - take)) & ((1 << take) - 1))
      p += take
    }
    this.bit = p
    return v
  }

  /** `n` (0–33) bits as a two's complement signed number. */
  signed(n: number): number {
    if (n === 0) return 0
    if (n > 32) {
      const hi = this.signed(n - 32)
      return hi * 4294967296 + this.read(32)
    }
    const v = this.read(n)
    return v >= 2 ** (n - 1) ? v - 2 ** n : v
  }

  /** Zero bits before the next 1 bit (which is consumed). */
  unary(): number {
    const b = this.b
    let p = this.bit
    const endBit = this.end * 8
    let zeros = 0
    // rest of the current byte
    while (p & 7) {
      if (p >= endBit) throw new FlacFrameError('frame ends early')
      if ((b[p >>> 3] >>> (7 - (p & 7))) & 1) { this.bit = p + 1; return zeros }
      zeros++
      p++
    }
    for (;;) {
      if (p >= endBit) throw new FlacFrameError('frame ends early')
      const byte = b[p >>> 3]
      if (byte === 0) { zeros += 8; p += 8; continue }
      const lead = Math.clz32(byte) - 24
      this.bit = p + lead + 1
      return zeros + lead
    }
  }

  /** `count` Rice-coded signed values with parameter `k` into `out[at...]`. */
  rice(k: number, out: Float64Array, at: number, count: number): void {
    const b = this.b
    const endBit = this.end * 8
    const scale = 2 ** k
    let p = this.bit
    for (let i = 0; i < count; i++) {
      // unary quotient
      let q = 0
      for (;;) {
        if (p >= endBit) throw new FlacFrameError('frame ends early')
        const off = p & 7
        const rest = (b[p >>> 3] << off) & 0xff
        if (rest === 0) { q += 8 - off; p += 8 - off; continue }
        const lead = Math.clz32(rest) - 24
        q += lead
        p += lead + 1
        break
      }
      // k low bits
      let low = 0
      if (k > 0) {
        const stop = p + k
        if (stop > endBit) throw new FlacFrameError('frame ends early')
        while (p < stop) {
          const off = p & 7
          const avail = 8 - off
          const take = avail < stop - p ? avail : stop - p
          low = low * (1 << take) + ((b[p >>> 3] >>> (avail - take)) & ((1 << take) - 1))
          p += take
        }
      }
      const u = q * scale + low
      // zigzag: 0, -1, 1, -2, ...
      out[at + i] = u % 2 === 0 ? u / 2 : -(u + 1) / 2
    }
    this.bit = p
  }
}

/** Scratch buffers for one decoding thread: one plane per channel, plus the residual. */
interface Scratch { planes: Float64Array[]; residual: Float64Array; coefs: Float64Array }

function scratch(channels: number, blockSize: number, old?: Scratch): Scratch {
  if (old && old.planes.length >= channels && old.residual.length >= blockSize) return old
  return {
    planes: Array.from({ length: Math.max(channels, old?.planes.length ?? 0) }, () => new Float64Array(Math.max(blockSize, old?.residual.length ?? 0))),
    residual: new Float64Array(Math.max(blockSize, old?.residual.length ?? 0)),
    coefs: new Float64Array(32),
  }
}

function readResidual(r: BitReader, blockSize: number, order: number, res: Float64Array): void {
  const method = r.read(2)
  if (method > 1) throw new FlacFrameError(`reserved residual coding method ${method}`)
  const paramBits = method === 0 ? 4 : 5
  const escape = method === 0 ? 15 : 31
  const partitionOrder = r.read(4)
  const partitions = 1 << partitionOrder
  const per = blockSize >> partitionOrder
  if (per << partitionOrder !== blockSize || per < order || (partitionOrder > 0 && per === 0)) {
    throw new FlacFrameError(`residual partition order ${partitionOrder} does not fit a block of ${blockSize} with predictor order ${order}`)
  }
  let at = order
  for (let part = 0; part < partitions; part++) {
    const n = part === 0 ? per - order : per
    const k = r.read(paramBits)
    if (k === escape) {
      const bits = r.read(5)
      for (let i = 0; i < n; i++) res[at + i] = r.signed(bits)
    } else {
      r.rice(k, res, at, n)
    }
    at += n
  }
}

const fixedCoefs = [[], [1], [2, -1], [3, -3, 1], [4, -6, 4, -1]]

/** Decodes one subframe of `bps` bits into `s[0, blockSize)`. */
function readSubframe(r: BitReader, bps: number, blockSize: number, s: Float64Array, sc: Scratch): void {
  if (r.read(1) !== 0) throw new FlacFrameError('subframe padding bit is 1')
  const type = r.read(6)
  let wasted = 0
  if (r.read(1)) {
    wasted = r.unary() + 1
    if (wasted >= bps) throw new FlacFrameError(`${wasted} wasted bits in a ${bps}-bit subframe`)
    bps -= wasted
  }
  if (type === 0) {
    const v = r.signed(bps)
    s.fill(v, 0, blockSize)
  } else if (type === 1) {
    for (let i = 0; i < blockSize; i++) s[i] = r.signed(bps)
  } else if (type >= 8 && type <= 12) {
    const order = type - 8
    if (order > blockSize) throw new FlacFrameError(`fixed predictor order ${order} exceeds the block size ${blockSize}`)
    for (let i = 0; i < order; i++) s[i] = r.signed(bps)
    readResidual(r, blockSize, order, sc.residual)
    const res = sc.residual
    const c = fixedCoefs[order]
    if (order === 0) for (let i = 0; i < blockSize; i++) s[i] = res[i]
    else if (order === 1) for (let i = 1; i < blockSize; i++) s[i] = res[i] + s[i - 1]
    else if (order === 2) for (let i = 2; i < blockSize; i++) s[i] = res[i] + 2 * s[i - 1] - s[i - 2]
    else if (order === 3) for (let i = 3; i < blockSize; i++) s[i] = res[i] + 3 * s[i - 1] - 3 * s[i - 2] + s[i - 3]
    else for (let i = 4; i < blockSize; i++) s[i] = res[i] + c[0] * s[i - 1] + c[1] * s[i - 2] + c[2] * s[i - 3] + c[3] * s[i - 4]
  } else if (type >= 32) {
    const order = (type & 31) + 1
    if (order > blockSize) throw new FlacFrameError(`LPC order ${order} exceeds the block size ${blockSize}`)
    for (let i = 0; i < order; i++) s[i] = r.signed(bps)
    const precisionCode = r.read(4)
    if (precisionCode === 15) throw new FlacFrameError('invalid LPC coefficient precision 0b1111')
    const precision = precisionCode + 1
    const shift = r.signed(5)
    if (shift < 0) throw new FlacFrameError(`negative LPC shift ${shift}`)
    const coefs = sc.coefs
    for (let j = 0; j < order; j++) coefs[j] = r.signed(precision)
    readResidual(r, blockSize, order, sc.residual)
    const res = sc.residual
    // every partial sum is an integer below 2^53 (|coef| < 2^14, |sample| ≤ 2^32, ≤ 32 terms): exact in doubles,
    // and floor(sum / 2^shift) is the arithmetic right shift libFLAC applies
    const div = 2 ** shift
    for (let i = order; i < blockSize; i++) {
      let sum = 0
      for (let j = 0; j < order; j++) sum += coefs[j] * s[i - 1 - j]
      s[i] = res[i] + Math.floor(sum / div)
    }
  } else {
    throw new FlacFrameError(`reserved subframe type ${type}`)
  }
  if (wasted) {
    const m = 2 ** wasted
    for (let i = 0; i < blockSize; i++) s[i] *= m
  }
}

/** The frame's rate and depth with STREAMINFO filled in where the header defers to it. */
export function frameFormat(h: FlacFrameHeader, info: FlacStreamInfo): { sampleRate: number; bitsPerSample: number } {
  return { sampleRate: h.sampleRate || info.sampleRate, bitsPerSample: h.bitsPerSample || info.bitsPerSample }
}

/**
 * Parses one frame at `at` of `b` (header, subframes, padding), leaving the samples in `sc.planes`.
 *
 * @returns the header and the byte offset just past the CRC-16 footer (not checked here)
 * @throws FlacFrameError when the frame is not valid or runs past `limit`
 */
function parseFrame(b: Uint8Array, at: number, limit: number, info: FlacStreamInfo, sc: Scratch): { header: FlacFrameHeader; end: number; sc: Scratch } {
  const header = readFrameHeader(b, at)
  if (!header) throw new FlacFrameError('no valid frame header')
  const { bitsPerSample: bps } = frameFormat(header, info)
  if (bps < 4 || bps > 32) throw new FlacFrameError(`${bps} bits per sample (FLAC allows 4 to 32)`)
  const n = header.blockSize
  sc = scratch(header.channels, n, sc)
  const r = new BitReader(b, limit)
  r.bit = (at + header.length) * 8
  for (let c = 0; c < header.channels; c++) {
    const side = (header.assignment === 'left-side' && c === 1) || (header.assignment === 'right-side' && c === 0) || (header.assignment === 'mid-side' && c === 1)
    readSubframe(r, bps + (side ? 1 : 0), n, sc.planes[c], sc)
  }
  const pad = (8 - (r.bit & 7)) & 7
  if (pad && r.read(pad) !== 0) throw new FlacFrameError('frame padding bits are not zero')
  const end = (r.bit >>> 3) + 2
  if (end > limit) throw new FlacFrameError('frame ends early')
  return { header, end, sc }
}

/** Scratch of `flacFrameEnd`, kept between calls. */
let endScratch: Scratch = scratch(2, 4608)

/**
 * Where the frame starting at `at` ends, found by parsing it as libFLAC does (not by its CRC-16).
 *
 * @returns the offset just past its CRC-16 footer, or -1 when it is not a complete valid frame before `limit`
 */
export function flacFrameEnd(b: Uint8Array, at: number, limit: number, info: FlacStreamInfo): number {
  try {
    const { end, sc } = parseFrame(b, at, limit, info, endScratch)
    endScratch = sc
    return crc16(b, at, end) === 0 ? end : -1
  } catch (e) {
    if (e instanceof FlacFrameError) return -1
    throw e
  }
}

/** Decoded frames: planar float32 `[channels][frames]` (integer / 2^(bits−1), as libsndfile), and what went wrong. */
export interface FlacDecodeResult {
  channels: Float32Array[]
  frames: number
  /** Frames skipped, each `frame <i> at byte <offset>: <why>` (libFLAC reports and skips them too). */
  errors: string[]
}

/**
 * Decodes whole frames (each exactly one frame, header to CRC-16 footer) of one stream.
 *
 * @param frames the frames, in stream order
 * @param info the stream's STREAMINFO (fills in rate and depth where a header defers to it)
 * @param maxSamples refuse to decode more samples (frames × channels) than this
 * @param offsets byte offset of each frame in its file, for messages (default: its index)
 * @throws Error when the output passes `maxSamples`
 */
export function decodeFlacFrames(frames: readonly Uint8Array[], info: FlacStreamInfo, maxSamples: number, offsets?: readonly number[]): FlacDecodeResult {
  const channels = info.channels
  let capacity = 0
  for (const f of frames) capacity += readFrameHeader(f, 0)?.blockSize ?? 0
  if (capacity * channels > maxSamples) throw new Error(`frame headers declare ${capacity} frames × ${channels} channels, over the limit of ${maxSamples} samples`)
  const out = Array.from({ length: channels }, () => new Float32Array(capacity))
  const errors: string[] = []
  let sc = scratch(channels, info.maxBlockSize || 4096)
  let at = 0
  for (let k = 0; k < frames.length; k++) {
    const f = frames[k]
    try {
      const parsed = parseFrame(f, 0, f.length, info, sc)
      sc = parsed.sc
      const h = parsed.header
      if (parsed.end !== f.length) throw new FlacFrameError(`frame is ${parsed.end} bytes but ${f.length} were given`)
      if (crc16(f, 0, f.length) !== 0) throw new FlacFrameError('CRC-16 fails')
      if (h.channels !== channels) throw new FlacFrameError(`${h.channels} channels, STREAMINFO declares ${channels}`)
      const bps = frameFormat(h, info).bitsPerSample
      const n = h.blockSize
      const [l, r] = sc.planes
      if (h.assignment === 'left-side') for (let i = 0; i < n; i++) r[i] = l[i] - r[i]
      else if (h.assignment === 'right-side') for (let i = 0; i < n; i++) l[i] += r[i]
      else if (h.assignment === 'mid-side') {
        for (let i = 0; i < n; i++) {
          const side = r[i]
          const mid = l[i] * 2 + (side - 2 * Math.floor(side / 2))
          l[i] = Math.floor((mid + side) / 2)
          r[i] = Math.floor((mid - side) / 2)
        }
      }
      // libFLAC drops a frame whose samples do not fit its bit depth (FLAC__STREAM_DECODER_ERROR_STATUS_OUT_OF_BOUNDS)
      const hi = 2 ** (bps - 1)
      for (let c = 0; c < channels; c++) {
        const s = sc.planes[c]
        for (let i = 0; i < n; i++) if (s[i] >= hi || s[i] < -hi) throw new FlacFrameError(`sample ${s[i]} does not fit ${bps} bits`)
      }
      const scale = 1 / hi
      for (let c = 0; c < channels; c++) {
        const s = sc.planes[c]
        const o = out[c]
        for (let i = 0; i < n; i++) o[at + i] = s[i] * scale
      }
      at += n
    } catch (e) {
      if (!(e instanceof FlacFrameError)) throw e
      errors.push(`frame ${k} at byte ${offsets?.[k] ?? k}: ${e.message}`)
    }
  }
  return { channels: at === capacity ? out : out.map((c) => c.slice(0, at)), frames: at, errors }
}
