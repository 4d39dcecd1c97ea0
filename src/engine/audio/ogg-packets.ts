/**
 * Minimal Ogg demuxer: pages → packets of the first logical stream (RFC 3533), with page CRC-32 checks.
 * Used to feed WebCodecs (which wants the codec headers as `description` and one chunk per packet).
 */

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

function u32(b: Uint8Array, at: number): number { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0 }

/**
 * Reads the first logical stream of an Ogg file.
 *
 * @throws Error (plain description; the caller adds the id) when there is no page at all
 */
export function readOggPackets(b: Uint8Array): OggStream {
  const warnings: string[] = []
  const packets: OggPacket[] = []
  let serial = -1
  let lastGranule = -1
  let pending: Uint8Array[] = []
  let at = 0
  let pageNo = 0
  while (at + 27 <= b.length) {
    if (b[at] !== 0x4f || b[at + 1] !== 0x67 || b[at + 2] !== 0x67 || b[at + 3] !== 0x53) {
      // resync to the next capture pattern
      const next = findCapture(b, at + 1)
      warnings.push(`${next - at} bytes of junk at byte ${at}`)
      at = next
      continue
    }
    const nseg = b[at + 26]
    const headerLen = 27 + nseg
    if (at + headerLen > b.length) { warnings.push(`truncated page header at byte ${at}`); break }
    let bodyLen = 0
    for (let i = 0; i < nseg; i++) bodyLen += b[at + 27 + i]
    const end = at + headerLen + bodyLen
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
    const pageSerial = u32(b, at + 14)
    if (serial === -1) serial = pageSerial
    if (pageSerial !== serial) { at = end; pageNo++; continue }
    if (!crcOk(b, at, end)) {
      warnings.push(`page ${pageNo} at byte ${at} fails its CRC-32 and was skipped`)
      pending = []
      at = end
      pageNo++
      continue
    }
    const lo = u32(b, at + 6)
    const hi = u32(b, at + 10)
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
  if (serial === -1) throw new Error('no Ogg page found')
  if (pending.length) warnings.push('stream ends inside a packet (truncated)')
  return { serial, packets, lastGranule, warnings }
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
  return crc === u32(b, start + 22)
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
