/**
 * MP3 (MPEG-1/2/2.5 Layer III): frame headers, the sniffer (first frame, Xing/Info and LAME tags) and the frame
 * splitter for WebCodecs (after any ID3v2 tag; stops at an ID3v1/APE tag), noting whether the first frame is a
 * Xing/Info tag frame (silent, not audio: decoders skip it).
 */
import { ascii, u32be } from './bytes.ts'
import { blankSniff, withProblem, type AudioSniff } from './sniff-result.ts'

const MP3_BITRATES: Record<string, number[]> = {
  // kbit/s by [version group][layer], index 0 = free, 15 = bad
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}

/** Parsed MPEG audio frame header. */
export interface MpegFrameHeader {
  /** 1 = MPEG-1, 2 = MPEG-2, 2.5 = MPEG-2.5 */
  version: 1 | 2 | 2.5
  layer: 1 | 2 | 3
  sampleRate: number
  channels: number
  /** Frame length in bytes (0 for free-format). */
  frameBytes: number
  samplesPerFrame: number
}

/** Parses the 4-byte MPEG audio frame header at `at`, or returns `null` when it is not a valid one. */
function mpegFrameHeader(b: Uint8Array, at: number): MpegFrameHeader | null {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return null
  const v = (b[at + 1] >> 3) & 3
  const l = (b[at + 1] >> 1) & 3
  const bri = b[at + 2] >> 4
  const sri = (b[at + 2] >> 2) & 3
  if (v === 1 || l === 0 || bri === 15 || sri === 3) return null
  const version = v === 3 ? 1 : v === 2 ? 2 : 2.5
  const layer = (4 - l) as 1 | 2 | 3
  const base = [44100, 48000, 32000][sri]
  const sampleRate = version === 1 ? base : version === 2 ? base / 2 : base / 4
  const kbps = MP3_BITRATES[`${version === 1 ? 1 : 2}-${layer}`][bri]
  const padding = (b[at + 2] >> 1) & 1
  const channels = (b[at + 3] >> 6) === 3 ? 1 : 2
  const samplesPerFrame = layer === 1 ? 384 : layer === 2 ? 1152 : version === 1 ? 1152 : 576
  let frameBytes = 0
  if (kbps > 0) {
    frameBytes = layer === 1
      ? (Math.floor(12 * kbps * 1000 / sampleRate) + padding) * 4
      : Math.floor(samplesPerFrame / 8 * kbps * 1000 / sampleRate) + padding
  }
  return { version, layer, sampleRate, channels, frameBytes, samplesPerFrame }
}

/**
 * The first MPEG audio frame at or after `start`: the first frame header followed by another one (or the end),
 * within 64 KiB.
 * @returns its byte offset and header (`frameBytes`: its length in bytes, padding included), or null
 */
export function firstMpegFrame(b: Uint8Array, start: number): { at: number; header: MpegFrameHeader } | null {
  const limit = Math.min(b.length - 4, start + 65536)
  for (let i = start; i <= limit; i++) {
    const c = mpegFrameHeader(b, i)
    if (!c) continue
    const next = i + c.frameBytes
    if (c.frameBytes === 0 || next + 4 > b.length || mpegFrameHeader(b, next)) return { at: i, header: c }
  }
  return null
}

/**
 * The length in frames (per channel) that mpg123's `mpg123_length` reports for a stream without a Xing/Info frame
 * count, which libsndfile (`mpeg_decode.c`) gives as the frames of an MPEG Layer III WAV file: mpg123's estimate,
 * the file's size over the first frame's size in bytes, times the samples per frame, truncated. The size is the
 * whole file's, header chunks included: measured with Debian's libsndfile 1.2.0 on ffmpeg-written files (a CBR file
 * of 10970 bytes with 208-byte first frame of 576 samples: 30378 frames; its frames decode to 29952).
 * @param fileBytes the whole file's size, bytes
 * @param first the first MPEG frame's header (`firstMpegFrame`)
 */
export function mpg123EstimatedFrames(fileBytes: number, first: MpegFrameHeader): number {
  return first.frameBytes > 0 ? Math.floor(fileBytes / first.frameBytes * first.samplesPerFrame) : 0
}

/** Reads the first MPEG frame at or after `start` and its Xing/Info/LAME tags. */
export function sniffMp3(b: Uint8Array, start: number): AudioSniff {
  const s = blankSniff('mp3', 'mp3')
  const first = firstMpegFrame(b, start)
  const at = first?.at ?? -1
  const h = first?.header ?? null
  if (!h) return withProblem(s, start > 0 ? 'ID3 tag not followed by an MPEG audio frame' : 'truncated header: no valid MPEG audio frame')
  if (h.layer !== 3) s.codec = null
  if (h.layer !== 3) s.problems.push(`MPEG layer ${h.layer} audio is not MP3 (layer 3)`)
  if (at + h.frameBytes > b.length) s.problems.push(`truncated stream: first MPEG frame needs ${h.frameBytes} bytes, ${b.length - at} left`)
  s.sampleRate = h.sampleRate
  s.channels = h.channels
  s.declaredFramesRate = h.sampleRate
  // Xing/Info tag sits after the side information of the first frame
  const side = h.version === 1 ? (h.channels === 1 ? 17 : 32) : (h.channels === 1 ? 9 : 17)
  const x = at + 4 + side
  const tag = ascii(b, x, 4)
  if (tag === 'Xing' || tag === 'Info') {
    const flags = u32be(b, x + 4)
    let p = x + 8
    let frames: number | null = null
    if (flags & 1) { frames = u32be(b, p); p += 4 }
    if (flags & 2) p += 4
    if (flags & 4) p += 100
    if (flags & 8) p += 4
    // LAME extension: 9-byte encoder string, ..., delay/padding 12+12 bits at offset 21
    let delay = 0
    let padding = 0
    if (p + 24 <= b.length && /^(LAME|Lavc|Lavf|L3.99|GOGO)/.test(ascii(b, p, 4))) {
      delay = (b[p + 21] << 4) | (b[p + 22] >> 4)
      padding = ((b[p + 22] & 0x0f) << 8) | b[p + 23]
      s.leadingSkip = delay
      s.trailingPadding = padding
    }
    if (frames !== null) s.declaredFrames = Math.max(0, frames * h.samplesPerFrame - delay - padding)
  }
  return s
}

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
