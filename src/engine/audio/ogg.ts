/**
 * Ogg (RFC 3533): the sniffer (Vorbis, Opus and FLAC identification headers, the last page's granule position) and a
 * minimal demuxer (pages → packets of the first logical stream, with page CRC-32 checks) that feeds WebCodecs (which
 * wants the codec headers as `description` and one chunk per packet) and libopus.
 */
import { ascii, hex, u16le, u32le, u64le } from './bytes.ts'
import { readStreamInfo } from './flac.ts'
import { blankSniff, withProblem, type AudioSniff } from './sniff-result.ts'

const crc32Table = new Uint32Array(256)
for (let i = 0; i < 256; i++) {
  let c = i << 24
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1
  crc32Table[i] = c >>> 0
}

/** One Ogg packet. */
export interface OggPacket {
  data: Uint8Array
  /** Granule position of the page this packet ends on when it is the last packet ending there, else -1. */
  granule: number
}

/** The packets of one logical Ogg stream. */
export interface OggStream {
  serial: number
  packets: OggPacket[]
  /** Granule position of the last page of the stream (-1 when none was set). */
  lastGranule: number
  /** Pages skipped for bad CRC, other streams, a truncated last page, ... */
  warnings: string[]
}

/**
 * Reads the first logical stream of an Ogg file.
 *
 * @throws Error (plain description; the caller adds the id) when there is no page at all
 */
export function readOggPackets(b: Uint8Array): OggStream {
  const state = oggReadState()
  readOggPages(b, state, true)
  if (state.serial === -1) throw new Error('no Ogg page found')
  if (state.pending.length) state.warnings.push('stream ends inside a packet (truncated)')
  return { serial: state.serial, packets: state.packets, lastGranule: state.lastGranule, warnings: state.warnings }
}

/** Where `readOggPages` is in a stream read a window at a time. */
export interface OggReadState {
  serial: number
  lastGranule: number
  /** The pieces of a packet not yet ended. */
  pending: Uint8Array[]
  pageNo: number
  /** Packets read and not yet taken (the caller empties it). */
  packets: OggPacket[]
  warnings: string[]
}

/** A fresh `OggReadState`. */
export function oggReadState(): OggReadState {
  return { serial: -1, lastGranule: -1, pending: [], pageNo: 0, packets: [], warnings: [] }
}

/**
 * Reads the pages in `b` into `state.packets`, as `readOggPackets` reads a whole file: a window of it at a time
 * (streamed-decode.ts) gives the same packets.
 * @param b the bytes from where the previous call stopped
 * @param final whether `b` runs to the end of the file; if not, reading stops before a page not wholly in `b`
 * @returns the bytes of `b` used (the rest starts the next window)
 */
export function readOggPages(b: Uint8Array, state: OggReadState, final: boolean): number {
  const { warnings, packets } = state
  let { serial, lastGranule, pending, pageNo } = state
  let at = 0
  const stop = (where: number) => {
    Object.assign(state, { serial, lastGranule, pending, pageNo })
    return where
  }
  while (at + 27 <= b.length) {
    if (b[at] !== 0x4f || b[at + 1] !== 0x67 || b[at + 2] !== 0x67 || b[at + 3] !== 0x53) {
      // resync to the next capture pattern
      const next = findCapture(b, at + 1)
      // not final: the capture pattern may start in the last 3 bytes, cut by the window
      if (!final && next >= b.length) return stop(Math.max(at + 1, b.length - 3))
      warnings.push(`${next - at} bytes of junk at byte ${at}`)
      at = next
      continue
    }
    const nseg = b[at + 26]
    const headerLen = 27 + nseg
    if (at + headerLen > b.length && !final) return stop(at)
    if (at + headerLen > b.length) { warnings.push(`truncated page header at byte ${at}`); break }
    let bodyLen = 0
    for (let i = 0; i < nseg; i++) bodyLen += b[at + 27 + i]
    const end = at + headerLen + bodyLen
    if (end > b.length && !final) return stop(at)
    if (end > b.length) {
      // the file ends inside this page: keep the packets that are complete (no CRC to check them by)
      const before = packets.length
      if ((b[at + 5] & 1) === 0) pending = []
      let body = at + headerLen
      for (let i = 0; i < nseg && body + b[at + 27 + i] <= b.length; i++) {
        const len = b[at + 27 + i]
        pending.push(b.subarray(body, body + len))
        body += len
        if (len < 255) { packets.push({ data: concat(pending), granule: -1 }); pending = [] }
      }
      pending = []
      warnings.push(`truncated page at byte ${at}: ${end - b.length} bytes missing, ${packets.length - before} complete packets kept`)
      break
    }
    const pageSerial = u32le(b, at + 14)
    if (serial === -1) serial = pageSerial
    if (pageSerial !== serial) { at = end; pageNo++; continue }
    if (!crcOk(b, at, end)) {
      warnings.push(`page ${pageNo} at byte ${at} fails its CRC-32 and was skipped`)
      pending = []
      at = end
      pageNo++
      continue
    }
    const lo = u32le(b, at + 6)
    const hi = u32le(b, at + 10)
    const granule = hi === 0xffffffff && lo === 0xffffffff ? -1 : hi * 2 ** 32 + lo
    if ((b[at + 5] & 1) === 0 && pending.length) { warnings.push(`page ${pageNo}: unfinished packet dropped`); pending = [] }
    let body = at + headerLen
    let lastEnded = -1
    for (let i = 0; i < nseg; i++) {
      const len = b[at + 27 + i]
      pending.push(b.subarray(body, body + len))
      body += len
      if (len < 255) {
        packets.push({ data: concat(pending), granule: -1 })
        lastEnded = packets.length - 1
        pending = []
      }
    }
    if (lastEnded >= 0) packets[lastEnded].granule = granule
    if (granule >= 0) lastGranule = granule
    at = end
    pageNo++
  }
  return stop(final ? b.length : at)
}

function findCapture(b: Uint8Array, from: number): number {
  for (let i = from; i + 4 <= b.length; i++) if (b[i] === 0x4f && b[i + 1] === 0x67 && b[i + 2] === 0x67 && b[i + 3] === 0x53) return i
  return b.length
}

function crcOk(b: Uint8Array, start: number, end: number): boolean {
  let crc = 0
  for (let i = start; i < end; i++) {
    const byte = i >= start + 22 && i < start + 26 ? 0 : b[i]
    crc = ((crc << 8) ^ crc32Table[((crc >>> 24) ^ byte) & 0xff]) >>> 0
  }
  return crc === u32le(b, start + 22)
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

/**
 * Xiph lacing of the three Vorbis header packets, the WebCodecs Vorbis `description`
 * (https://www.w3.org/TR/webcodecs-vorbis-codec-registration/): `[count−1]`, the lengths of all but the last packet
 * as runs of 255 plus a remainder, then the packets.
 */
export function xiphLace(packets: Uint8Array[]): Uint8Array {
  const head: number[] = [packets.length - 1]
  for (const p of packets.slice(0, -1)) {
    let n = p.length
    while (n >= 255) { head.push(255); n -= 255 }
    head.push(n)
  }
  return concat([new Uint8Array(head), ...packets])
}

/** libsndfile 1.2 (the training reference's decoder) has no FLAC-in-Ogg reader: training fails on such a row. */
export const OGG_FLAC_UNTRAINABLE = 'FLAC in Ogg: libsndfile (the training reference\'s decoder) cannot decode it, so training fails on this row'

/** Opus decoding rates; libsndfile decodes at the input rate when Opus supports it. */
const OPUS_RATES = [8000, 12000, 16000, 24000, 48000]

/** The rate libsndfile decodes an Opus stream at, from OpusHead's `input_sample_rate` (0 = unknown → 48 kHz). */
function opusDecodeRate(inputRate: number): number {
  if (inputRate === 0) return 48000
  return OPUS_RATES.find((r) => r >= inputRate) ?? 48000
}

/** Reads an Ogg file's first page (the codec's identification header) and its last page. */
export function sniffOgg(b: Uint8Array): AudioSniff {
  const s = blankSniff('ogg')
  if (b.length < 27) return withProblem(s, `truncated header: ${b.length} bytes, an Ogg page header needs 27`)
  const segments = b[26]
  const body = 27 + segments
  if (body > b.length) return withProblem(s, 'truncated header: first Ogg page segment table')
  let first = 0
  for (let i = 0; i < segments; i++) first += b[27 + i]
  const p = b.subarray(body, Math.min(b.length, body + first))
  let granuleScale = 0
  if (ascii(p, 0, 8) === 'OpusHead') {
    s.codec = 'opus'
    if (p.length < 19) return withProblem(s, `truncated header: OpusHead of ${p.length} bytes, needs 19`)
    s.channels = p[9]
    s.leadingSkip = u16le(p, 10)
    const inputRate = u32le(p, 12)
    s.sampleRate = opusDecodeRate(inputRate)
    s.declaredFramesRate = 48000
    granuleScale = 1
  } else if (p[0] === 1 && ascii(p, 1, 6) === 'vorbis') {
    s.codec = 'vorbis'
    if (p.length < 30) return withProblem(s, `truncated header: Vorbis identification header of ${p.length} bytes, needs 30`)
    s.channels = p[11]
    s.sampleRate = u32le(p, 12)
    s.declaredFramesRate = s.sampleRate
    granuleScale = 1
  } else if (p[0] === 0x7f && ascii(p, 1, 4) === 'FLAC') {
    s.codec = 'flac'
    // 0x7F "FLAC" major minor header-count(2), then "fLaC", the block header (4) and STREAMINFO at 17
    if (p.length < 9 + 42 || ascii(p, 9, 4) !== 'fLaC') return withProblem(s, 'truncated header: Ogg FLAC mapping header')
    readStreamInfo(s, p, 17)
    s.declaredFrames = null
    s.untrainable = OGG_FLAC_UNTRAINABLE
    granuleScale = 1
  } else {
    return withProblem(s, `unknown Ogg stream, first packet starts 0x${hex(p, 0, 8)}`)
  }
  const granule = lastGranule(b)
  const end = lastPageEnd(b)
  if (granule === null) s.problems.push('no final Ogg page found in the last 64 KiB (truncated stream?)')
  else if (end.truncatedAt >= 0) s.problems.push(`truncated stream: the Ogg page at byte ${end.truncatedAt} is cut off by the end of the file`)
  else if (!end.eos) s.problems.push('truncated stream: the last Ogg page has no end-of-stream flag')
  if (granule !== null && granuleScale) {
    const frames = granule - (s.codec === 'opus' ? s.leadingSkip ?? 0 : 0)
    s.declaredFrames = frames
    if (frames < 0) s.problems.push(`last granule ${granule} is below the pre-skip ${s.leadingSkip}`)
  }
  return s
}

/** Whether the last Ogg page (found searching backwards at most 64 KiB) is complete and flagged end-of-stream. */
function lastPageEnd(b: Uint8Array): { eos: boolean; truncatedAt: number } {
  const stop = Math.max(0, b.length - 65536 - 27)
  for (let at = b.length - 4; at >= stop; at--) {
    if (b[at] === 0x4f && b[at + 1] === 0x67 && b[at + 2] === 0x67 && b[at + 3] === 0x53) {
      if (at + 27 > b.length || at + 27 + b[at + 26] > b.length) return { eos: false, truncatedAt: at }
      let body = 0
      for (let i = 0; i < b[at + 26]; i++) body += b[at + 27 + i]
      if (at + 27 + b[at + 26] + body > b.length) return { eos: false, truncatedAt: at }
      return { eos: (b[at + 5] & 4) !== 0, truncatedAt: -1 }
    }
  }
  return { eos: false, truncatedAt: -1 }
}

/** Granule position of the last Ogg page (searching backwards at most 64 KiB + a page header), or `null`. */
function lastGranule(b: Uint8Array): number | null {
  const stop = Math.max(0, b.length - 65536 - 27)
  for (let at = b.length - 27; at >= stop; at--) {
    if (b[at] === 0x4f && b[at + 1] === 0x67 && b[at + 2] === 0x67 && b[at + 3] === 0x53 && b[at + 4] === 0) {
      const g = u64le(b, at + 6)
      if (g >= 0) return g
    }
  }
  return null
}
