/**
 * Uncompressed sample data as libsndfile returns it to `sf_read_float` (normalization on): signed integers
 * / 2^(bits−1), unsigned 8-bit (WAV) as (x − 128) / 128, IEEE float as stored (float64 rounded to float32), and
 * G.711 µ-law and A-law through libsndfile's 16-bit decode tables (`ulaw.c`, `alaw.c`: the CCITT G.711 expansion)
 * / 32768. Shared by every container that stores raw samples (WAV, RF64, W64, AIFF/AIFC, CAF, NIST SPHERE, AU).
 */

/** How samples are stored. */
export type PcmEncoding = 'int' | 'uint' | 'float' | 'ulaw' | 'alaw'

/** Where a container's samples are and how to read them. */
export interface PcmLayout {
  encoding: PcmEncoding
  /** Bits per stored sample: 8/16/24/32 for integers, 32/64 for float, 8 for µ-law and A-law. */
  bits: number
  littleEndian: boolean
  channels: number
  /** Byte offset of the first frame. */
  dataOffset: number
  /** Bytes per frame (all channels), ≥ channels × bits / 8. */
  blockAlign: number
  /** Frames to read (already limited to what the file holds). */
  frames: number
  /**
   * Sample bytes the header declares (`Infinity` when it leaves the length to the end of the file), so that a
   * layout read from the file's first bytes gives its frames for the whole file's size (`pcmFramesIn`).
   */
  dataBytes?: number
}

/** Frames of `layout` in a file of `fileSize` bytes: the whole frames of its declared data that the file holds. */
export function pcmFramesIn(layout: Pick<PcmLayout, 'dataOffset' | 'blockAlign' | 'dataBytes'>, fileSize: number): number {
  const available = Math.max(0, fileSize - layout.dataOffset)
  return Math.floor(Math.min(layout.dataBytes ?? available, available) / layout.blockAlign)
}

/** G.711 µ-law byte → libsndfile's 16-bit value (CCITT expansion: ±32124 at the extremes). */
function ulawToShort(u: number): number {
  const x = ~u & 0xff
  const t = (((x & 0x0f) << 3) + 0x84) << ((x & 0x70) >> 4)
  return x & 0x80 ? 0x84 - t : t - 0x84
}

/** G.711 A-law byte → libsndfile's 16-bit value (CCITT expansion: ±32256 at the extremes). */
function alawToShort(a: number): number {
  const x = a ^ 0x55
  let t = (x & 0x0f) << 4
  const seg = (x & 0x70) >> 4
  if (seg === 0) t += 8
  else t = (t + 0x108) << (seg - 1)
  return x & 0x80 ? t : -t
}

const ulawTable = Float32Array.from({ length: 256 }, (_, i) => ulawToShort(i) / 32768)
const alawTable = Float32Array.from({ length: 256 }, (_, i) => alawToShort(i) / 32768)

/** The reader of one sample at a byte offset of `v`. @returns null for an encoding/bit depth libsndfile does not store */
export function sampleReader(layout: Pick<PcmLayout, 'encoding' | 'bits' | 'littleEndian'>, v: DataView): ((at: number) => number) | null {
  const le = layout.littleEndian
  switch (layout.encoding) {
    case 'ulaw': return layout.bits === 8 ? (at) => ulawTable[v.getUint8(at)] : null
    case 'alaw': return layout.bits === 8 ? (at) => alawTable[v.getUint8(at)] : null
    case 'float':
      if (layout.bits === 32) return (at) => v.getFloat32(at, le)
      return layout.bits === 64 ? (at) => v.getFloat64(at, le) : null
    case 'uint': return layout.bits === 8 ? (at) => (v.getUint8(at) - 128) / 128 : null
    case 'int':
      switch (layout.bits) {
        case 8: return (at) => v.getInt8(at) / 128
        case 16: return (at) => v.getInt16(at, le) / 32768
        case 24: return le
          ? (at) => (v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8388608
          : (at) => (v.getUint8(at + 2) | (v.getUint8(at + 1) << 8) | (v.getInt8(at) << 16)) / 8388608
        case 32: return (at) => v.getInt32(at, le) / 2147483648
        default: return null
      }
  }
}

/**
 * Planar float32 channels of `layout`'s frames `[first, first + count)`.
 * @param bytes the whole file
 * @throws Error when the encoding and bit depth are not one libsndfile stores
 */
export function decodePcm(bytes: Uint8Array, layout: PcmLayout, first = 0, count = layout.frames - first): Float32Array<ArrayBuffer>[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset + layout.dataOffset + first * layout.blockAlign, count * layout.blockAlign)
  const read = sampleReader(layout, view)
  if (!read) throw new Error(`unsupported sample format: ${layout.bits}-bit ${layout.encoding}`)
  const step = layout.bits / 8
  const out = Array.from({ length: layout.channels }, () => new Float32Array(count))
  for (let c = 0; c < layout.channels; c++) {
    const ch = out[c]
    for (let i = 0, at = c * step; i < count; i++, at += layout.blockAlign) ch[i] = read(at)
  }
  return out
}
