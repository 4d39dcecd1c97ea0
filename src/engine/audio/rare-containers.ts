/**
 * libsndfile's rarer raw-sample containers (the training reference decodes with libsndfile, so a corpus may hold
 * them), each read as libsndfile's own reader (`ircam.c`, `htk.c`, `avr.c`, `wve.c`, `mat4.c`, `pvf.c`, `paf.c`,
 * `svx.c`, `mpc2k.c`) reads its header, recognised by the magic bytes libsndfile's `guess_file_type` (sndfile.c)
 * checks:
 * - IRCAM / Berkeley / CARL (`.sf`): a 1024-byte header; 16/32-bit PCM, float, µ-law, A-law; the byte order is the
 *   one whose channel count is at most 1024, little-endian first.
 * - HTK waveform (`.htk`): a 12-byte big-endian header (sample count, sample period in 100 ns units, size and kind
 *   `0x00020000`), 16-bit big-endian mono; libsndfile recognises it only when 2 × count + 12 is the file's size.
 * - AVR (Audio Visual Research, `2BIT`): a 128-byte big-endian header; 8-bit signed or unsigned, 16-bit signed.
 *   As libsndfile, the samples run to the file's end whatever its frame count says (so do 8SVX's past its BODY).
 * - WVE (Psion Series 3, `ALawSoundFile**`): A-law, 8 kHz mono, from byte 32 to the end of the file.
 * - MAT4 (GNU Octave 2.0 / MATLAB 4.2): a 1 × 1 double matrix (the rate) then a channels × frames matrix of
 *   double, float, int32 or int16, in either byte order.
 * - PVF (Portable Voice Format): `PVF1\n<channels> <rate> <bits>\n`, 8/16/32-bit big-endian.
 * - PAF (Ensoniq PARIS, `' paf'` big-endian header, `'fap '` little-endian): a 2048-byte header; 8/16-bit PCM, and
 *   24-bit PCM in 32-byte blocks of 10 samples per channel (coded.ts `paf24`).
 * - IFF 8SVX / 16SV (Amiga): `FORM` chunks, `VHDR` (rate, compression) and `BODY`; uncompressed only, as libsndfile.
 * - MPC2K (Akai MPC 2000): a 42-byte header, 16-bit little-endian.
 * - Creative VOC: one sound block (type 1: 8-bit unsigned mono; type 8 then 1: mono or stereo; type 9: 8-bit
 *   unsigned, 16-bit, A-law or µ-law), after any text and repeat blocks, to the byte before the file's last (its
 *   terminator); a file of several sound blocks is refused, as libsndfile refuses it.
 * - MAT5 (GNU Octave 2.1 / MATLAB 5, `mat5.c`): a 128-byte text header and byte-order mark (`IM` little-endian, `MI`
 *   big-endian), a 1 × 1 `samplerate` matrix (double, or a compressed 16- or 32-bit integer), then a channels × frames
 *   matrix of double, float, int32, int16 or uint8; a first matrix that is not 1 × 1 is the samples, at 44.1 kHz.
 * - MIDI SDS and FastTracker 2 XI, coded: their headers are read by sampler-headers.ts.
 * Samples are read by pcm.ts with libsndfile's values (coded.ts for PAF 24-bit, SDS and XI).
 */
import { ascii, u16le, u32be, u32le } from './bytes.ts'
import type { CodedLayout } from './coded.ts'
import type { PcmEncoding, PcmLayout } from './pcm.ts'
import { PAF24_BLOCK_BYTES, PAF24_BLOCK_SAMPLES } from './paf24.ts'
import { blankSniff, checkSane, withProblem, type AudioContainer, type AudioSniff } from './sniff-result.ts'
import { sniffSds, sniffXi } from './sampler-headers.ts'

/** A rare container's sniff and where its samples are (the shape of pcm-containers.ts's `PcmContainer`). */
export interface RareContainer { sniff: AudioSniff; layout: PcmLayout | null; coded?: CodedLayout }

/** The rare containers read here. */
export type RareContainerKind = 'ircam' | 'htk' | 'avr' | 'wve' | 'mat4' | 'pvf' | 'paf' | 'svx' | 'mpc2k' | 'voc' | 'mat5' | 'sds' | 'xi'

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1]
const i32 = (b: Uint8Array, at: number, le: boolean) => (le ? u32le(b, at) : u32be(b, at)) | 0

/**
 * The rare container `b` starts as (libsndfile's magic bytes), or null.
 * @param fileSize the whole file's bytes when `b` is only its head (HTK is recognised by its length)
 */
export function rareContainerOf(b: Uint8Array, fileSize = b.length): RareContainerKind | null {
  if (b.length < 12) return null
  const magic = ascii(b, 0, 4)
  if (magic === 'FORM' && (ascii(b, 8, 4) === '8SVX' || ascii(b, 8, 4) === '16SV')) return 'svx'
  if (magic === 'fap ' || magic === ' paf') return 'paf'
  if ((b[0] === 0x64 && b[1] === 0xa3 && (b[2] & 0xf8) === 0 && b[3] === 0) || (b[0] === 0 && (b[1] & 0xf8) === 0 && b[2] === 0xa3 && b[3] === 0x64)) return 'ircam'
  if ((u32be(b, 0) === 0x3e8 || u32be(b, 0) === 0) && u32be(b, 4) === (u32be(b, 0) ? 1 : 0x1000000) && u32be(b, 8) === u32be(b, 4)) return 'mat4'
  if (ascii(b, 0, 8) === 'MATLAB 5') return 'mat5'
  if (magic === 'PVF1') return 'pvf'
  if (ascii(b, 0, 12) === 'Extended Ins') return 'xi'
  if (ascii(b, 0, 12) === 'ALawSoundFil') return 'wve'
  if (b[0] === 0xf0 && b[1] === 0x7e && (b[2] & 0x80) === 0 && b[3] === 1) return 'sds'
  if (b[0] === 1 && b[1] === 4) return 'mpc2k'
  if (u32be(b, 8) === 0x20000 && 2 * u32be(b, 0) + 12 === fileSize) return 'htk'
  if (magic === '2BIT') return 'avr'
  if (ascii(b, 0, 8) === 'Creative' && ascii(b, 8, 12) === ' Voice File\x1a') return 'voc'
  return null
}

/**
 * What a raw-sample header declares, for `raw`: `dataBytes` where the data ends before the file's end (MAT4's
 * `dataend`), `declaredBytes` a length the header states but libsndfile does not use (reported when the file is
 * shorter).
 */
interface RawFields { encoding: PcmEncoding; bits: number; littleEndian: boolean; channels: number; rate: number; dataOffset: number; dataBytes?: number; declaredBytes?: number }

/**
 * The sniff and layout of raw samples from `dataOffset`, with libsndfile's length: its `pcm_init` (and the float,
 * µ-law and A-law ones) counts the whole frames from the data offset to the file's end, or to the data's end where
 * the reader set one (`dataend`): a header's own frame count (AVR, 8SVX's BODY size) is not used.
 */
function raw(s: AudioSniff, b: Uint8Array, f: RawFields): RareContainer {
  s.codec = f.encoding === 'float' ? 'float' : f.encoding === 'ulaw' || f.encoding === 'alaw' ? f.encoding : 'pcm'
  s.channels = f.channels
  s.sampleRate = f.rate
  s.declaredFramesRate = f.rate
  s.bitsPerSample = f.bits
  const blockAlign = f.channels * (f.bits / 8)
  const available = Math.max(0, b.length - f.dataOffset)
  const declared = f.dataBytes ?? Infinity
  const stated = f.dataBytes ?? f.declaredBytes
  if (stated !== undefined && stated > available) s.problems.push(`truncated data: header declares ${stated} bytes, file has ${available}`)
  s.declaredFrames = blockAlign > 0 ? Math.floor(Math.min(declared, available) / blockAlign) : 0
  checkSane(s)
  if (f.channels < 1 || blockAlign <= 0) return { sniff: s, layout: null }
  return { sniff: s, layout: { encoding: f.encoding, bits: f.bits, littleEndian: f.littleEndian, channels: f.channels, dataOffset: f.dataOffset, blockAlign, frames: s.declaredFrames, dataBytes: declared } }
}

const fail = (s: AudioSniff, problem: string): RareContainer => ({ sniff: withProblem(checkSane(s), problem), layout: null })

/**
 * Reads the header of a rare container `rareContainerOf` recognised.
 * @param fileSize the whole file's bytes when `b` is only its head (coded data is counted to the file's end)
 */
export function sniffRareContainer(b: Uint8Array, kind: RareContainerKind, fileSize = b.length): RareContainer {
  const s = blankSniff(kind)
  switch (kind) {
    case 'ircam': return ircam(s, b)
    case 'htk': return htk(s, b)
    case 'avr': return avr(s, b)
    case 'wve': return wve(s, b)
    case 'mat4': return mat4(s, b)
    case 'pvf': return pvf(s, b)
    case 'paf': return paf(s, b, fileSize)
    case 'svx': return svx(s, b)
    case 'mpc2k': return mpc2k(s, b)
    case 'voc': return voc(s, b)
    case 'mat5': return mat5(s, b)
    case 'sds': return sniffSds(b, fileSize)
    case 'xi': return sniffXi(b, fileSize)
  }
}

/** IRCAM encodings (`ircam.c`): code → [encoding, bits]. */
const IRCAM: Record<number, [PcmEncoding, number]> = { 0x2: ['int', 16], 0x4: ['float', 32], 0x10001: ['alaw', 8], 0x20001: ['ulaw', 8], 0x40004: ['int', 32] }

function ircam(s: AudioSniff, b: Uint8Array): RareContainer {
  if (b.length < 16) return fail(s, `truncated header: ${b.length} bytes, the IRCAM header needs 16`)
  // little-endian unless that gives more than 1024 channels (ircam_read_header)
  let le = true
  if (u32le(b, 8) > 1024) le = false
  const channels = le ? u32le(b, 8) : u32be(b, 8)
  const rate = Math.trunc(new DataView(b.buffer, b.byteOffset).getFloat32(4, le))
  const code = le ? u32le(b, 12) : u32be(b, 12)
  const kind = IRCAM[code]
  s.channels = channels
  s.sampleRate = rate
  if (!kind) return fail(s, `IRCAM encoding 0x${code.toString(16)}, which libsndfile does not read either`)
  return raw(s, b, { encoding: kind[0], bits: kind[1], littleEndian: le, channels, rate, dataOffset: 1024 })
}

function htk(s: AudioSniff, b: Uint8Array): RareContainer {
  const period = i32(b, 4, false)
  // a period of 0 or less: libsndfile guesses 16 kHz
  const rate = period > 0 ? Math.trunc(10_000_000 / period) : 16000
  return raw(s, b, { encoding: 'int', bits: 16, littleEndian: false, channels: 1, rate, dataOffset: 12 })
}

function avr(s: AudioSniff, b: Uint8Array): RareContainer {
  if (b.length < 128) return fail(s, `truncated header: ${b.length} bytes, the AVR header needs 128`)
  const channels = (u16be(b, 12) & 1) + 1
  const bits = u16be(b, 14)
  const signed = (u16be(b, 16) & 1) === 1
  s.channels = channels
  s.sampleRate = u32be(b, 22)
  if (bits !== 8 && !(bits === 16 && signed)) return fail(s, `AVR of ${bits} bits, ${signed ? 'signed' : 'unsigned'}, which libsndfile does not read either`)
  return raw(s, b, { encoding: signed ? 'int' : 'uint', bits, littleEndian: false, channels, rate: s.sampleRate, dataOffset: 128, declaredBytes: u32be(b, 26) * channels * (bits / 8) })
}

function wve(s: AudioSniff, b: Uint8Array): RareContainer {
  if (b.length < 32 || ascii(b, 0, 16) !== 'ALawSoundFile**\0') return fail(s, 'truncated header or no "ALawSoundFile**" marker')
  // the data length field is used only when it is the file's: the data always runs to the end (wve_read_header)
  return raw(s, b, { encoding: 'alaw', bits: 8, littleEndian: false, channels: 1, rate: 8000, dataOffset: 32 })
}

/** MAT4 matrix types (`mat4.c`): the marker read big-endian → [encoding, bits], for big-endian and little-endian files. */
const MAT4_BE: Record<number, [PcmEncoding, number]> = { 0x3e8: ['float', 64], 0x3f2: ['float', 32], 0x3fc: ['int', 32], 0x406: ['int', 16] }
const MAT4_LE: Record<number, [PcmEncoding, number]> = { 0: ['float', 64], 0x0a000000: ['float', 32], 0x14000000: ['int', 32], 0x1e000000: ['int', 16] }

function mat4(s: AudioSniff, b: Uint8Array): RareContainer {
  const le = u32be(b, 0) === 0
  const u32 = le ? u32le : u32be
  // the rate: a 1 × 1 double matrix with its name
  const nameBytes = u32(b, 16)
  if (nameBytes >= 64) return fail(s, `MAT4 matrix name of ${nameBytes} bytes (libsndfile reads up to 63)`)
  const rateAt = 20 + nameBytes
  const at = rateAt + 8
  if (b.length < at + 20) return fail(s, `truncated header: ${b.length} bytes`)
  const rate = Math.round(new DataView(b.buffer, b.byteOffset).getFloat64(rateAt, le))
  const marker = u32be(b, at)
  const channels = u32(b, at + 4)
  const frames = u32(b, at + 8)
  const name2 = u32(b, at + 16)
  s.channels = channels
  s.sampleRate = rate
  if (name2 >= 64) return fail(s, `MAT4 matrix name of ${name2} bytes (libsndfile reads up to 63)`)
  const kind = (le ? MAT4_LE : MAT4_BE)[marker]
  if (!kind) return fail(s, `MAT4 matrix type 0x${marker.toString(16).padStart(8, '0')}, which libsndfile does not read either`)
  // a file longer than the matrix: its data ends with the matrix (mat4_read_header's dataend)
  return raw(s, b, { encoding: kind[0], bits: kind[1], littleEndian: le, channels, rate, dataOffset: at + 20 + name2, dataBytes: channels * frames * (kind[1] / 8) })
}

/** MAT5 data types (`mat5.c`'s `MAT5_TYPE_*`) → [encoding, bits]. */
const MAT5_TYPES: Record<number, [PcmEncoding, number]> = { 9: ['float', 64], 7: ['float', 32], 5: ['int', 32], 3: ['int', 16], 2: ['uint', 8] }

/** `lrint`: to the nearest integer, halves to even. */
function lrint(x: number): number {
  const r = Math.round(x)
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r
}

/** MAT5 as `mat5_read_header` reads it: each step below refuses what it refuses. */
function mat5(s: AudioSniff, b: Uint8Array): RareContainer {
  if (b.length < 136) return fail(s, `truncated header: ${b.length} bytes, the MAT5 header needs 136`)
  if (!b.subarray(0, 124).includes(0)) return fail(s, 'MAT5 text header of 124 bytes without its terminating 0 (libsndfile refuses it)')
  const mark = ascii(b, 126, 2)
  if (mark !== 'IM' && mark !== 'MI') return fail(s, `MAT5 byte-order mark "${mark}" (libsndfile reads "IM" and "MI")`)
  const le = mark === 'IM'
  const v = new DataView(b.buffer, b.byteOffset, b.length)
  let at = 128
  const word = () => {
    if (at + 4 > b.length) throw new Error(`truncated header: the MAT5 header runs past the file's ${b.length} bytes`)
    const x = v.getInt32(at, le)
    at += 4
    return x
  }
  try {
    /** An array's tags up to its dimensions and name: its rows and columns, or why libsndfile refuses the tags. */
    const matrix = (): { rows: number; cols: number } | string => {
      if (word() !== 0xe) return 'no MAT5 array (type 14) where libsndfile expects one'
      word()
      if (word() !== 6) return 'no MAT5 array flags (type 6) where libsndfile expects them'
      at += 12
      if (word() !== 5) return 'no MAT5 dimensions (type 5) where libsndfile expects them'
      word()
      const rows = word()
      const cols = word()
      const type = word()
      if (type === 1) {
        const size = word() >>> 0
        if (size > 31) return `MAT5 matrix name of ${size} bytes (libsndfile reads up to 31)`
        at += size + ((8 - (size % 8)) % 8)
      } else if ((type & 0xffff) === 1) {
        if (type >>> 16 > 4) return `MAT5 matrix name of ${type >>> 16} bytes in a small element (at most 4)`
        at += 4
      } else return `MAT5 matrix name of type ${type} (libsndfile reads 1)`
      return { rows, cols }
    }
    let m = matrix()
    if (typeof m === 'string') return fail(s, m)
    let type = word()
    let size = word()
    let rate = 44100
    if (m.rows === 1 && m.cols === 1) {
      // the 1 × 1 samplerate matrix: a double, or an integer packed in the element's tag
      if (type === 9) {
        if (at + 8 > b.length) throw new Error(`truncated header: the MAT5 header runs past the file's ${b.length} bytes`)
        rate = lrint(v.getFloat64(at, le))
        at += 8
      } else if (type === 0x00020004) rate = v.getUint16(at - 4, le)
      else if (type === 0x00040006) rate = size >>> 0
      else return fail(s, `MAT5 sample rate of type 0x${(type >>> 0).toString(16)}, which libsndfile does not read either`)
      m = matrix()
      if (typeof m === 'string') return fail(s, m)
      type = word()
      size = word()
    }
    s.channels = m.rows
    s.sampleRate = rate
    if (m.rows === 0 && m.cols === 0) return fail(s, 'MAT5 matrix of 0 × 0 (libsndfile refuses a zero channel count)')
    const kind = MAT5_TYPES[type]
    if (!kind) return fail(s, `MAT5 data of type ${type}, which libsndfile does not read either`)
    // the data runs to the end of the file, whatever the matrix's size says (pcm_init)
    return raw(s, b, { encoding: kind[0], bits: kind[1], littleEndian: le, channels: m.rows, rate, dataOffset: at, declaredBytes: size >>> 0 })
  } catch (e) {
    return fail(s, (e as Error).message)
  }
}

function pvf(s: AudioSniff, b: Uint8Array): RareContainer {
  // "PVF1\n", then one line of "<channels> <rate> <bits>" (read up to 32 bytes)
  const line = ascii(b, 5, 32)
  const end = line.indexOf('\n')
  const m = /^\s*(-?\d+)\s+(-?\d+)\s+(-?\d+)/.exec(end >= 0 ? line.slice(0, end) : line)
  if (!m || end < 0) return fail(s, 'no "<channels> <rate> <bits>" line after "PVF1"')
  const [channels, rate, bits] = [Number(m[1]), Number(m[2]), Number(m[3])]
  s.channels = channels
  s.sampleRate = rate
  if (bits !== 8 && bits !== 16 && bits !== 32) return fail(s, `PVF of ${bits} bits (libsndfile reads 8, 16, 32)`)
  return raw(s, b, { encoding: 'int', bits, littleEndian: false, channels, rate, dataOffset: 5 + end + 1 })
}

function paf(s: AudioSniff, b: Uint8Array, fileSize: number): RareContainer {
  if (b.length < 2048) return fail(s, `truncated header: ${b.length} bytes, the PAF header needs 2048`)
  const headerLe = ascii(b, 0, 4) === 'fap '
  const u32 = headerLe ? u32le : u32be
  const [version, littleEndian, rate, format, channels] = [u32(b, 4), u32(b, 8) !== 0, u32(b, 12), u32(b, 16), u32(b, 20)]
  s.channels = channels
  s.sampleRate = rate
  if (version !== 0) return fail(s, `PAF version ${version} (libsndfile reads 0)`)
  if (format === 0 || format === 2) return raw(s, b, { encoding: 'int', bits: format === 0 ? 16 : 8, littleEndian, channels, rate, dataOffset: 2048 })
  if (format !== 1) return fail(s, `PAF format ${format}, which libsndfile does not read either`)
  // 24-bit: blocks of 32 bytes per channel holding 10 samples each; a block cut short counts (paf24_init)
  s.codec = 'pcm'
  s.bitsPerSample = 24
  s.declaredFramesRate = rate
  const dataBytes = fileSize - 2048
  const blockBytes = PAF24_BLOCK_BYTES * channels
  const blocks = channels > 0 ? Math.floor(dataBytes / blockBytes) + (dataBytes % PAF24_BLOCK_BYTES ? 1 : 0) : 0
  s.declaredFrames = blocks * PAF24_BLOCK_SAMPLES
  checkSane(s)
  if (channels < 1) return { sniff: s, layout: null }
  return { sniff: s, layout: null, coded: { kind: 'paf24', littleEndian, channels, dataOffset: 2048, dataBytes, frames: s.declaredFrames } }
}

function svx(s: AudioSniff, b: Uint8Array): RareContainer {
  const bits = ascii(b, 8, 4) === '16SV' ? 16 : 8
  let channels = 1
  let rate: number | null = null
  let compression = 0
  for (let at = 12; at + 8 <= b.length;) {
    const id = ascii(b, at, 4)
    const size = u32be(b, at + 4)
    const body = at + 8
    if (id === 'VHDR') {
      if (body + 16 > b.length) return fail(s, 'truncated header: VHDR chunk')
      rate = u16be(b, body + 12)
      compression = b[body + 15]
    } else if (id === 'CHAN' && body + 4 <= b.length) {
      // 2 or 4: one side of a stereo pair, read as mono; 6: stereo (svx_read_header)
      if (u32be(b, body) === 6) channels = 2
    } else if (id === 'BODY') {
      s.sampleRate = rate
      s.channels = channels
      if (rate === null) return fail(s, 'BODY chunk before VHDR chunk')
      if (compression) return fail(s, `${compression === 1 ? 'Fibonacci' : compression === 2 ? 'exponential' : `type ${compression}`} delta compression, which libsndfile does not read either`)
      return raw(s, b, { encoding: 'int', bits, littleEndian: false, channels, rate, dataOffset: body, declaredBytes: size })
    }
    at = body + size
  }
  return fail(s, 'no BODY chunk')
}

function mpc2k(s: AudioSniff, b: Uint8Array): RareContainer {
  if (b.length < 42) return fail(s, `truncated header: ${b.length} bytes, the MPC2K header needs 42`)
  const channels = b[21] ? 2 : 1
  return raw(s, b, { encoding: 'int', bits: 16, littleEndian: true, channels, rate: u16le(b, 40), dataOffset: 42 })
}

const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)

/** Creative VOC as `voc_read_header` reads it (block types: 1 sound data, 5 text, 6 repeat, 8 extended, 9 extended II). */
function voc(s: AudioSniff, b: Uint8Array): RareContainer {
  const size = b.length
  const version = u16le(b, 22)
  if (version !== 0x010a && version !== 0x0114) return fail(s, `VOC version 0x${version.toString(16)} (libsndfile reads 0x10A and 0x114)`)
  let at = 26
  let type = -1
  while (at < size) {
    type = b[at++]
    if (type === 5) at += 3 + u24le(b, at)
    else if (type === 6) at += 5
    else break
  }
  const bad = 'several sound sections or a length that does not fit the file (libsndfile refuses it too)'
  // the samples end before the file's last byte (the terminator block)
  const samples = (f: Omit<RawFields, 'dataBytes' | 'littleEndian'>, end = size - 1) => raw(s, b, { ...f, littleEndian: true, dataBytes: Math.max(0, end - f.dataOffset) })
  if (type === 1) {
    if (at + 5 > size) return fail(s, 'truncated header: VOC sound block')
    const blockSize = u24le(b, at)
    const rate = Math.trunc(1_000_000 / (256 - b[at + 3]))
    at += 5
    if (at + blockSize - 1 > size || size - at - blockSize > 4) return fail(s, bad)
    return samples({ encoding: 'uint', bits: 8, channels: 1, rate, dataOffset: at })
  }
  if (type === 8) {
    if (at + 12 > size) return fail(s, 'truncated header: VOC extended block')
    const rateShort = u16le(b, at + 3)
    const stereo = b[at + 6] !== 0
    const rate = Math.trunc((stereo ? 128_000_000 : 256_000_000) / (65536 - rateShort))
    at += 7
    if (b[at] !== 1) return fail(s, `VOC extended block followed by block type ${b[at]}, not sound data`)
    const blockSize = u24le(b, at + 1)
    at += 6
    if (at + blockSize - 1 !== size) return fail(s, bad)
    return samples({ encoding: 'uint', bits: 8, channels: stereo ? 2 : 1, rate, dataOffset: at })
  }
  if (type === 9) {
    if (at + 15 > size) return fail(s, 'truncated header: VOC extended II block')
    let blockSize = u24le(b, at)
    const rate = u32le(b, at + 3)
    const bits = b[at + 7]
    const channels = b[at + 8]
    let encoding = u16le(b, at + 9)
    at += 15
    if (bits === 16 && encoding === 0) encoding = 4
    if (blockSize * 2 === size - 39) blockSize = size - 31
    // a header written by SFC_UPDATE_HEADER_NOW counts the terminator's byte too: the samples then run to the end
    const end = blockSize + 31 === size + 1 ? size : size - 1
    const kinds: Record<number, [PcmEncoding, number]> = { 0: ['uint', 8], 4: ['int', 16], 6: ['alaw', 8], 7: ['ulaw', 8] }
    const kind = kinds[encoding]
    s.channels = channels
    s.sampleRate = rate
    if (!kind) return fail(s, `VOC encoding ${encoding}, which libsndfile does not read either`)
    return samples({ encoding: kind[0], bits: kind[1], channels, rate, dataOffset: at }, end)
  }
  return fail(s, `VOC block type ${type} where a sound block is expected (libsndfile reads none there)`)
}

/** The containers of this module, for the decoder's dispatch. */
export const RARE_CONTAINERS: ReadonlySet<AudioContainer> = new Set<RareContainerKind>(['ircam', 'htk', 'avr', 'wve', 'mat4', 'pvf', 'paf', 'svx', 'mpc2k', 'voc', 'mat5', 'sds', 'xi'])
