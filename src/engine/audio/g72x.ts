/**
 * G.721 (32 kbit/s, 4-bit codes) and G.723 (24 kbit/s, 3-bit; 40 kbit/s, 5-bit) ADPCM, decoded as libsndfile's
 * `G72x/` decoders (Sun Microsystems' public reference implementation of ITU-T G.721 / G.723, which libsndfile
 * carries: `g72x.c`, `g721.c`, `g723_24.c`, `g723_40.c`) decode them, to their 16-bit linear values (`sr << 2`).
 * Written by hand: no maintained npm package decodes G.721/G.723 (none in the registry list this project checks). The
 * state is kept in C's types: the `short` fields and intermediates wrap to 16 bits as there. libsndfile reads the
 * codes in blocks of 120 (`G72x_BLOCK_SIZE`, libsndfile `g72x.c`), packed least significant bits first.
 */

const int16 = (v: number) => (v << 16) >> 16

/** Powers of two for `quan` (G.721's magnitude → exponent). */
const POWER2 = [1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800, 0x1000, 0x2000, 0x4000]

/** Index of the first table entry above `val` (the table's length when none is). */
function quan(val: number, table: number[]): number {
  let i = 0
  while (i < table.length && val >= table[i]) i++
  return i
}

/**
 * G.721's FMULT: a predictor coefficient times a floating-point (4-bit exponent, 6-bit mantissa) value. As libsndfile's
 * copy computes it: the mantissa product `(anmant * (srn & 0x3F)) >> 4`, without the rounding `+ 0x30` of Sun's
 * original (libsndfile's `g72x.c` removed it); with the rounding, the decode differs from libsndfile's within a few
 * samples (measured against libsndfile 1.2.0).
 */
function fmult(an: number, srn: number): number {
  const anmag = an > 0 ? an : (-an) & 0x1fff
  const anexp = quan(anmag, POWER2) - 6
  const anmant = anmag === 0 ? 32 : anexp >= 0 ? anmag >> anexp : anmag << -anexp
  const wanexp = anexp + ((srn >> 6) & 0xf) - 13
  const wanmant = (anmant * (srn & 0x3f)) >> 4
  const retval = int16(wanexp >= 0 ? (wanmant << wanexp) & 0x7fff : wanmant >> -wanexp)
  return (an ^ srn) < 0 ? -retval : retval
}

/** One codec's tables (G.721 / G.723 recommendations, as Sun's implementation holds them). */
interface G72xTables {
  bits: number
  /** Log of the quantized difference per code. */
  dqln: number[]
  /** Scale factor multiplier per code (already ×32 where Sun's decoder shifts it). */
  wi: number[]
  /** Speed-control input per code. */
  fi: number[]
}

const G721: G72xTables = {
  bits: 4,
  dqln: [-2048, 4, 135, 213, 273, 323, 373, 425, 425, 373, 323, 273, 213, 135, 4, -2048],
  wi: [-12, 18, 41, 64, 112, 198, 355, 1122, 1122, 355, 198, 112, 64, 41, 18, -12].map((w) => w << 5),
  fi: [0, 0, 0, 0x200, 0x200, 0x200, 0x600, 0xe00, 0xe00, 0x600, 0x200, 0x200, 0x200, 0, 0, 0],
}

const G723_24: G72xTables = {
  bits: 3,
  dqln: [-2048, 135, 273, 373, 373, 273, 135, -2048],
  wi: [-128, 960, 4384, 18624, 18624, 4384, 960, -128],
  fi: [0, 0x200, 0x400, 0xe00, 0xe00, 0x400, 0x200, 0],
}

const G723_40: G72xTables = {
  bits: 5,
  dqln: [-2048, -66, 28, 104, 169, 224, 274, 318, 358, 395, 429, 459, 488, 514, 539, 566,
    566, 539, 514, 488, 459, 429, 395, 358, 318, 274, 224, 169, 104, 28, -66, -2048],
  wi: [448, 448, 768, 1248, 1280, 1312, 1856, 3200, 4512, 5728, 7008, 8960, 11456, 14080, 16928, 22272,
    22272, 16928, 14080, 11456, 8960, 7008, 5728, 4512, 3200, 1856, 1312, 1280, 1248, 768, 448, 448],
  fi: [0, 0, 0, 0, 0, 0x200, 0x200, 0x200, 0x200, 0x200, 0x400, 0x600, 0x800, 0xa00, 0xc00, 0xc00,
    0xc00, 0xc00, 0xa00, 0x800, 0x600, 0x400, 0x200, 0x200, 0x200, 0x200, 0x200, 0, 0, 0, 0, 0],
}

/** The G.72x codecs libsndfile reads, by bits per code. */
export type G72xKind = 'g721_32' | 'g723_24' | 'g723_40'

const TABLES: Record<G72xKind, G72xTables> = { g721_32: G721, g723_24: G723_24, g723_40: G723_40 }

/** Codes per block libsndfile decodes at a time (`G72x_BLOCK_SIZE`). */
export const G72X_BLOCK_SAMPLES = 120

/** Bits per code of a G.72x codec. */
export function g72xBits(kind: G72xKind): number {
  return TABLES[kind].bits
}

/** Bytes per block: 120 codes of `bits` bits (G.721: 60, G.723 24 kbit/s: 45, 40 kbit/s: 75). */
export function g72xBlockBytes(kind: G72xKind): number {
  return G72X_BLOCK_SAMPLES * TABLES[kind].bits / 8
}

/**
 * Frames libsndfile gives a G.72x stream of `dataBytes` (the data length its header declares): every block, the
 * last one even when cut short, × 120 (measured with libsndfile 1.2.0: a 3990-byte G.721 data chunk gives 8040).
 */
export function g72xFrames(kind: G72xKind, dataBytes: number): number {
  return Math.ceil(dataBytes / g72xBlockBytes(kind)) * G72X_BLOCK_SAMPLES
}

/** A G.72x decoder's state (Sun's `struct g72x_state`). */
class G72xState {
  yl = 34816
  yu = 544
  dms = 0
  dml = 0
  ap = 0
  a = [0, 0]
  b = [0, 0, 0, 0, 0, 0]
  pk = [0, 0]
  dq = [32, 32, 32, 32, 32, 32]
  sr = [32, 32]
  td = 0

  constructor(private readonly t: G72xTables) {}

  /** Decodes one code to its 16-bit linear value. */
  decode(code: number): number {
    const { t } = this
    const i = code & ((1 << t.bits) - 1)
    let sezi = 0
    for (let k = 0; k < 6; k++) sezi += fmult(this.b[k] >> 2, this.dq[k])
    sezi = int16(sezi)
    const sez = sezi >> 1
    const sei = int16(sezi + fmult(this.a[1] >> 2, this.sr[1]) + fmult(this.a[0] >> 2, this.sr[0]))
    const se = sei >> 1
    const y = this.stepSize()
    const dq = int16(reconstruct(i & (1 << (t.bits - 1)), t.dqln[i], y))
    const sr = int16(dq < 0 ? se - (dq & 0x3fff) : se + dq)
    const dqsez = int16(sr - se + sez)
    this.update(t.bits, y, t.wi[i], t.fi[i], dq, sr, dqsez)
    return int16(sr << 2)
  }

  private stepSize(): number {
    if (this.ap >= 256) return this.yu
    let y = this.yl >> 6
    const dif = this.yu - y
    const al = this.ap >> 2
    if (dif > 0) y += (dif * al) >> 6
    else if (dif < 0) y += (dif * al + 0x3f) >> 6
    return int16(y)
  }

  private update(codeSize: number, y: number, wi: number, fi: number, dq: number, sr: number, dqsez: number): void {
    const pk0 = dqsez < 0 ? 1 : 0
    let mag = dq & 0x7fff
    // TRANS: transition detector
    const ylint = this.yl >> 15
    const ylfrac = (this.yl >> 10) & 0x1f
    const thr1 = (32 + ylfrac) << ylint
    const thr2 = ylint > 9 ? 31 << 10 : thr1
    const dqthr = int16((thr2 + (thr2 >> 1)) >> 1)
    const tr = this.td !== 0 && mag > dqthr ? 1 : 0
    // quantizer scale factor adaptation: FUNCTW, FILTD, LIMB, FILTE
    this.yu = int16(y + ((wi - y) >> 5))
    if (this.yu < 544) this.yu = 544
    else if (this.yu > 5120) this.yu = 5120
    this.yl += this.yu + ((-this.yl) >> 6)
    let a2p = 0
    if (tr === 1) {
      this.a.fill(0)
      this.b.fill(0)
    } else {
      const pks1 = pk0 ^ this.pk[0]
      // UPA2
      a2p = int16(this.a[1] - (this.a[1] >> 7))
      if (dqsez !== 0) {
        const fa1 = pks1 ? this.a[0] : -this.a[0]
        if (fa1 < -8191) a2p -= 0x100
        else if (fa1 > 8191) a2p += 0xff
        else a2p += fa1 >> 5
        if (pk0 ^ this.pk[1]) {
          // LIMC
          if (a2p <= -12160) a2p = -12288
          else if (a2p >= 12416) a2p = 12288
          else a2p -= 0x80
        } else if (a2p <= -12416) a2p = -12288
        else if (a2p >= 12160) a2p = 12288
        else a2p += 0x80
        a2p = int16(a2p)
      }
      this.a[1] = a2p
      // UPA1
      this.a[0] = int16(this.a[0] - (this.a[0] >> 8))
      if (dqsez !== 0) this.a[0] = int16(pks1 === 0 ? this.a[0] + 192 : this.a[0] - 192)
      // LIMD
      const a1ul = int16(15360 - a2p)
      if (this.a[0] < -a1ul) this.a[0] = -a1ul
      else if (this.a[0] > a1ul) this.a[0] = a1ul
      // UPB: the zeros' coefficients
      for (let k = 0; k < 6; k++) {
        let b = this.b[k] - (this.b[k] >> (codeSize === 5 ? 9 : 8))
        if (dq & 0x7fff) b += (dq ^ this.dq[k]) >= 0 ? 128 : -128
        this.b[k] = int16(b)
      }
    }
    for (let k = 5; k > 0; k--) this.dq[k] = this.dq[k - 1]
    // FLOAT A: dq to 4-bit exponent, 6-bit mantissa
    if (mag === 0) this.dq[0] = dq >= 0 ? 0x20 : int16(0xfc20)
    else {
      const exp = quan(mag, POWER2)
      this.dq[0] = int16(dq >= 0 ? (exp << 6) + ((mag << 6) >> exp) : (exp << 6) + ((mag << 6) >> exp) - 0x400)
    }
    this.sr[1] = this.sr[0]
    // FLOAT B: sr likewise
    if (sr === 0) this.sr[0] = 0x20
    else if (sr > 0) {
      const exp = quan(sr, POWER2)
      this.sr[0] = int16((exp << 6) + ((sr << 6) >> exp))
    } else if (sr > -32768) {
      mag = -sr
      const exp = quan(mag, POWER2)
      this.sr[0] = int16((exp << 6) + ((mag << 6) >> exp) - 0x400)
    } else this.sr[0] = int16(0xfc20)
    this.pk[1] = this.pk[0]
    this.pk[0] = pk0
    // TONE
    this.td = tr === 1 ? 0 : a2p < -11776 ? 1 : 0
    // adaptation speed control: FILTA, FILTB, SUBTC
    this.dms = int16(this.dms + ((fi - this.dms) >> 5))
    this.dml = int16(this.dml + (((fi << 2) - this.dml) >> 7))
    if (tr === 1) this.ap = 256
    else if (y < 1536 || this.td === 1 || Math.abs((this.dms << 2) - this.dml) >= (this.dml >> 3)) this.ap = int16(this.ap + ((0x200 - this.ap) >> 4))
    else this.ap = int16(this.ap + ((-this.ap) >> 4))
  }
}

/** G.721's RECONSTRUCT: the quantized difference from its log (`dqln`) and the step size `y`, sign in bit 15. */
function reconstruct(sign: number, dqln: number, y: number): number {
  const dql = int16(dqln + (y >> 2))
  if (dql < 0) return sign ? -0x8000 : 0
  const dex = (dql >> 7) & 15
  const dqt = 128 + (dql & 127)
  const dq = int16((dqt << 7) >> (14 - dex))
  return sign ? dq - 0x8000 : dq
}

/**
 * A G.72x stream decoded block by block as libsndfile reads it: each block of `g72xBlockBytes` bytes unpacked to 120
 * codes least significant bits first, one state running through the stream; a block cut short is completed by the
 * previous block's bytes (libsndfile reuses its block buffer; zeros before the first).
 */
export class G72xDecoder {
  private readonly t: G72xTables
  private readonly state: G72xState
  private readonly block: Uint8Array
  private readonly samples = new Int16Array(G72X_BLOCK_SAMPLES)

  constructor(readonly kind: G72xKind) {
    this.t = TABLES[kind]
    this.state = new G72xState(this.t)
    this.block = new Uint8Array(g72xBlockBytes(kind))
  }

  /**
   * Decodes the next `blocks` blocks from `data` (their bytes, in order; the last block may be cut short).
   * @returns `[blocks × 120]` float32: libsndfile's 16-bit values / 32768
   */
  decode(data: Uint8Array, blocks: number): Float32Array {
    const { t, block, samples, state } = this
    const blockBytes = block.length
    const out = new Float32Array(blocks * G72X_BLOCK_SAMPLES)
    const mask = (1 << t.bits) - 1
    for (let b = 0; b < blocks; b++) {
      const at = b * blockBytes
      block.set(data.subarray(Math.min(at, data.length), Math.min(data.length, at + blockBytes)))
      let buffer = 0
      let have = 0
      for (let k = 0, i = 0; k < G72X_BLOCK_SAMPLES; k++) {
        if (have < t.bits) {
          buffer |= block[i++] << have
          have += 8
        }
        samples[k] = state.decode(buffer & mask)
        buffer >>= t.bits
        have -= t.bits
      }
      for (let k = 0, o = b * G72X_BLOCK_SAMPLES; k < G72X_BLOCK_SAMPLES; k++) out[o + k] = samples[k] / 32768
    }
    return out
  }
}

/**
 * Decodes a mono G.72x stream as libsndfile reads it (`G72xDecoder`).
 * @param data the coded data there is (a cut file: fewer bytes than the header declares)
 * @param dataBytes the data length libsndfile counts (the declared size, or what the file holds when less)
 * @returns `[frames]` float32: libsndfile's 16-bit values / 32768, `g72xFrames(kind, dataBytes)` of them
 */
export function decodeG72x(kind: G72xKind, data: Uint8Array, dataBytes: number): Float32Array {
  return new G72xDecoder(kind).decode(data.subarray(0, dataBytes), g72xFrames(kind, dataBytes) / G72X_BLOCK_SAMPLES)
}
