/**
 * Splits a native FLAC stream into frames (for WebCodecs and the WASM decoder).
 *
 * Not codec-parser: its `parseAll` drops the final frame of our fixtures (28672 of 29873 samples). Here a frame
 * starts at a sync code whose header CRC-8 checks, and ends where the CRC-16 of the bytes so far is 0 and the next
 * valid header starts (or at the end of the file); one forward pass with a running slice-by-8 CRC-16. A frame whose CRC-16
 * fails is dropped when a header of the same stream follows it (resync).
 */

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

/** Extends the CRC-16 `crc` over `b[from, to)`. */
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

/** Length of a valid FLAC frame header at `at` (CRC-8 included), or 0 when there is none. */
export function flacFrameHeaderLength(b: Uint8Array, at: number): number {
  if (at + 6 > b.length || b[at] !== 0xff || (b[at + 1] & 0xfe) !== 0xf8) return 0
  const blockCode = b[at + 2] >> 4
  const rateCode = b[at + 2] & 0x0f
  const chanCode = b[at + 3] >> 4
  const bpsCode = (b[at + 3] >> 1) & 0x07
  if (blockCode === 0 || rateCode === 15 || chanCode > 10 || bpsCode === 3 || (b[at + 3] & 1)) return 0
  // UTF-8-like coded frame/sample number
  let p = at + 4
  const lead = b[p]
  let extra = 0
  if (lead < 0x80) extra = 0
  else if ((lead & 0xe0) === 0xc0) extra = 1
  else if ((lead & 0xf0) === 0xe0) extra = 2
  else if ((lead & 0xf8) === 0xf0) extra = 3
  else if ((lead & 0xfc) === 0xf8) extra = 4
  else if ((lead & 0xfe) === 0xfc) extra = 5
  else if (lead === 0xfe) extra = 6
  else return 0
  p += 1 + extra
  if (blockCode === 6) p += 1
  else if (blockCode === 7) p += 2
  if (rateCode === 12) p += 1
  else if (rateCode === 13 || rateCode === 14) p += 2
  if (p >= b.length) return 0
  let crc = 0
  for (let i = at; i < p; i++) crc = crc8Table[crc ^ b[i]]
  return crc === b[p] ? p + 1 - at : 0
}

/** Whether the frame header at `at` has the same sync, blocking strategy, rate and channel/bit-depth codes as the first. */
function sameStream(b: Uint8Array, first: number, at: number): boolean {
  return b[at + 1] === b[first + 1] && (b[at + 2] & 0x0f) === (b[first + 2] & 0x0f) && b[at + 3] === b[first + 3]
}

/** A native FLAC stream cut into its parts. */
export interface FlacStream {
  /** `fLaC` + the STREAMINFO block (42 bytes): the WebCodecs `description`. */
  description: Uint8Array
  /** Byte offset of the first audio frame. */
  audioOffset: number
  /** Whole frames, header to CRC-16 footer. */
  frames: Uint8Array[]
  /** Oddities that did not stop the split (junk bytes, a last frame whose CRC-16 fails). */
  warnings: string[]
}

/**
 * Splits a native FLAC file (starting with `fLaC`, or with an ID3 tag before it).
 *
 * @throws Error with a plain description (the caller adds the id) when the metadata is truncated or no frame is found
 */
export function splitFlacFrames(bytes: Uint8Array, start = 0): FlacStream {
  const b = bytes.subarray(start)
  let at = 4
  let last = false
  while (!last) {
    if (at + 4 > b.length) throw new Error(`truncated metadata: block header at byte ${at} is past the end (${b.length} bytes)`)
    last = (b[at] & 0x80) !== 0
    const len = (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]
    at += 4 + len
    if (at > b.length) throw new Error(`truncated metadata: block of ${len} bytes ends at byte ${at}, file has ${b.length}`)
  }
  const audioOffset = at
  const warnings: string[] = []
  const frames: Uint8Array[] = []
  let first = audioOffset
  while (first < b.length && !flacFrameHeaderLength(b, first)) first++
  if (first >= b.length) throw new Error(audioOffset >= b.length ? 'no audio frames after the metadata' : `no valid frame header in ${b.length - audioOffset} bytes after the metadata`)
  if (first > audioOffset) warnings.push(`${first - audioOffset} bytes of junk before the first frame`)
  // candidate boundaries are the 0xFF bytes (found natively by indexOf) that start a valid header; the frame's
  // CRC-16 is extended up to each candidate, so every byte is summed once however many candidates a frame holds
  let frameStart = first
  let crc = 0
  let summed = first
  let dropped = 0
  let i = b.indexOf(0xff, first + 10)
  while (i !== -1) {
    if (i - frameStart >= 10 && flacFrameHeaderLength(b, i)) {
      crc = crc16(b, summed, i, crc)
      summed = i
      if (crc === 0) {
        frames.push(b.subarray(frameStart, i))
        frameStart = i
      } else if (sameStream(b, first, i)) {
        // a header like the stream's own after a frame whose CRC-16 fails: drop the damaged frame and resync (as libFLAC)
        dropped++
        frameStart = i
        crc = 0
      }
    }
    i = b.indexOf(0xff, i + 1)
  }
  crc = crc16(b, summed, b.length, crc)
  if (dropped) warnings.push(`${dropped} frame${dropped === 1 ? ' fails' : 's fail'} CRC-16 and ${dropped === 1 ? 'was' : 'were'} dropped`)
  if (frameStart < b.length) {
    if (crc !== 0) warnings.push(`last frame (${b.length - frameStart} bytes at byte ${start + frameStart}) fails its CRC-16: truncated stream?`)
    frames.push(b.subarray(frameStart))
  }
  return { description: b.slice(0, 42), audioOffset: start + audioOffset, frames, warnings }
}
