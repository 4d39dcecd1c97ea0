/**
 * Splits an MP3 file into MPEG audio frames (after any ID3v2 tag; stops at an ID3v1/APE tag), noting whether the
 * first frame is a Xing/Info tag frame (silent, not audio: decoders skip it).
 */
import { mpegFrameHeader } from './sniff.ts'

/** An MP3 stream cut into frames. */
export interface Mp3Stream {
  frames: Uint8Array[]
  /** The first frame carries a Xing/Info tag (and is left out of `frames`). */
  hadTagFrame: boolean
  warnings: string[]
}

/** @throws Error (plain description) when there is no MPEG frame or the stream is free-format */
export function splitMp3Frames(b: Uint8Array): Mp3Stream {
  let at = 0
  if (b.length >= 10 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) {
    const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f)
    at = 10 + size + (b[5] & 0x10 ? 10 : 0)
  }
  const warnings: string[] = []
  const frames: Uint8Array[] = []
  let hadTagFrame = false
  while (at + 4 <= b.length) {
    const h = mpegFrameHeader(b, at)
    if (!h) {
      if (isTrailerTag(b, at)) break
      const from = at
      while (at + 4 <= b.length && !mpegFrameHeader(b, at)) at++
      warnings.push(`${at - from} bytes that are not MPEG frames at byte ${from}`)
      continue
    }
    if (h.frameBytes === 0) throw new Error(`free-format MPEG stream at byte ${at} is not supported`)
    const end = at + h.frameBytes
    if (end > b.length) { warnings.push(`last frame truncated: ${end - b.length} of ${h.frameBytes} bytes missing`); break }
    const frame = b.subarray(at, end)
    if (frames.length === 0 && !hadTagFrame && hasXing(frame, h.version, h.channels)) hadTagFrame = true
    else frames.push(frame)
    at = end
  }
  if (frames.length === 0) throw new Error('no MPEG audio frame found')
  return { frames, hadTagFrame, warnings }
}

function hasXing(frame: Uint8Array, version: number, channels: number): boolean {
  const x = 4 + (version === 1 ? (channels === 1 ? 17 : 32) : (channels === 1 ? 9 : 17))
  const tag = String.fromCharCode(frame[x], frame[x + 1], frame[x + 2], frame[x + 3])
  return tag === 'Xing' || tag === 'Info'
}

function isTrailerTag(b: Uint8Array, at: number): boolean {
  const s = String.fromCharCode(...b.subarray(at, at + 8))
  return s.startsWith('TAG') || s === 'APETAGEX'
}
