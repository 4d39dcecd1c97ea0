/**
 * FLAC in its native container: the sniffer (STREAMINFO), the frame splitter that feeds WebCodecs and the decoders,
 * and the stream checks that decide what libFLAC refuses and where libsndfile, the training reference's decoder,
 * stops (docs/reference-pipeline.md §10).
 *
 * Not codec-parser: its `parseAll` drops the final frame of our fixtures (28672 of 29873 samples). Here a frame starts
 * at a sync code whose header CRC-8 checks, and ends where the CRC-16 of the bytes so far is 0 and the next valid
 * header starts (or at the end of the file); one forward pass with a running slice-by-8 CRC-16. When the CRC-16 fails
 * at the next header of the same stream, the frame is parsed as libFLAC parses it (flac-decoder.ts) to tell a whole
 * frame followed by junk (a second stream appended, a tag) from a damaged frame, which is dropped as libFLAC drops it.
 */
import { crc16, flacFrameEnd, frameFormat, parseStreamInfo, readFrameHeader, type FlacFrameHeader, type FlacStreamInfo } from './flac-decoder.ts'
import { blankSniff, withProblem, type AudioSniff } from './sniff-result.ts'

/** Bit depths libsndfile 1.2 reads from FLAC (its flac.c `sf_flac_meta_callback`); it refuses to open the others. */
const LIBSNDFILE_FLAC_DEPTHS = [8, 16, 24]

/** Why libsndfile cannot open a FLAC stream of `bits` bits per sample, or `null` when it can. */
function flacDepthUntrainable(bits: number): string | null {
  return LIBSNDFILE_FLAC_DEPTHS.includes(bits) ? null
    : `${bits}-bit FLAC: libsndfile (the training reference's decoder) reads only 8-, 16- and 24-bit FLAC ("unimplemented format"), so training fails on this row`
}

/** Fills `s` from the 34-byte STREAMINFO body at `at` of `b` (native FLAC: 8; Ogg FLAC's first packet: 17). */
export function readStreamInfo(s: AudioSniff, b: Uint8Array, at: number): void {
  const info = parseStreamInfo(b, at)
  s.sampleRate = info.sampleRate
  s.channels = info.channels
  s.bitsPerSample = info.bitsPerSample
  s.declaredFrames = info.totalSamples === 0 ? null : info.totalSamples
  s.declaredFramesRate = s.sampleRate
  s.untrainable = flacDepthUntrainable(info.bitsPerSample)
    ?? (info.totalSamples === 0 ? 'STREAMINFO does not declare the length (total samples 0): libsndfile then reports 2^63 − 1 frames, which training cannot read' : null)
  if (s.sampleRate === 0) s.problems.push('STREAMINFO sample rate is 0')
  if (info.bitsPerSample < 4) s.problems.push(`STREAMINFO declares ${info.bitsPerSample} bits per sample (FLAC allows 4 to 32)`)
}

/** Sniffs a native FLAC file (`fLaC` + STREAMINFO). */
export function sniffFlac(b: Uint8Array): AudioSniff {
  const s = blankSniff('flac', 'flac')
  if (b.length < 42) return withProblem(s, `truncated header: ${b.length} bytes, fLaC + STREAMINFO needs 42`)
  const type = b[4] & 0x7f
  const len = (b[5] << 16) | (b[6] << 8) | b[7]
  if (type !== 0 || len !== 34) return withProblem(s, `first metadata block is type ${type} of ${len} bytes, expected STREAMINFO (type 0, 34 bytes)`)
  readStreamInfo(s, b, 8)
  return s
}

/** Whether the frame header at `at` has the same sync, blocking strategy, rate and channel/bit-depth codes as the first. */
function sameStream(b: Uint8Array, first: number, at: number): boolean {
  return b[at + 1] === b[first + 1] && (b[at + 2] & 0x0f) === (b[first + 2] & 0x0f) && b[at + 3] === b[first + 3]
}

/** A native FLAC stream cut into its parts. */
export interface FlacStream {
  /** `fLaC` + the STREAMINFO block (42 bytes): the WebCodecs `description`. */
  description: Uint8Array
  info: FlacStreamInfo
  /** Byte offset of the first audio frame. */
  audioOffset: number
  /** Whole frames, header to CRC-16 footer, each with its parsed header and its byte offset in the input. */
  frames: Uint8Array[]
  headers: FlacFrameHeader[]
  offsets: number[]
  /** Oddities that do not change what training reads (a tag or a second stream after the declared samples, ...). */
  warnings: string[]
  /**
   * Damage before the last sample STREAMINFO declares: frames dropped for a failing CRC-16, junk between frames, a
   * stream cut inside a frame. libsndfile stops there (its error callback ends the read), so training fails.
   */
  damage: string[]
}

/**
 * Splits a native FLAC file (starting with `fLaC`, or with an ID3 tag before it).
 *
 * @throws Error with a plain description (the caller adds the id) when the metadata is truncated or no frame is found
 */
export function splitFlacFrames(bytes: Uint8Array, start = 0): FlacStream {
  const b = bytes.subarray(start)
  if (b.length < 42 || (b[4] & 0x7f) !== 0) throw new Error('no STREAMINFO block after fLaC')
  const info = parseStreamInfo(b, 8)
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
  const frames: Uint8Array[] = []
  const headers: FlacFrameHeader[] = []
  const offsets: number[] = []
  /** What happened where, by the samples decoded before it: classified against STREAMINFO's total at the end. */
  const events: { samples: number; what: string }[] = []
  let samples = 0
  const push = (from: number, to: number) => {
    const h = readFrameHeader(b, from)!
    frames.push(b.subarray(from, to))
    headers.push(h)
    offsets.push(start + from)
    samples += h.blockSize
  }
  const junk = (from: number, to: number) => {
    const second = to - from >= 4 && b[from] === 0x66 && b[from + 1] === 0x4c && b[from + 2] === 0x61 && b[from + 3] === 0x43
    events.push({ samples, what: `${to - from} bytes of ${second ? 'a second FLAC stream\'s header (concatenated files?)' : 'junk'} at byte ${start + from}` })
  }
  let first = audioOffset
  while (first < b.length && !readFrameHeader(b, first)) first++
  if (first >= b.length) throw new Error(audioOffset >= b.length ? 'no audio frames after the metadata' : `no valid frame header in ${b.length - audioOffset} bytes after the metadata`)
  if (first > audioOffset) events.push({ samples: 0, what: `${first - audioOffset} bytes of junk before the first frame` })
  // candidate boundaries are the 0xFF bytes (found natively by indexOf) that start a valid header; the frame's
  // CRC-16 is extended up to each candidate, so every byte is summed once however many candidates a frame holds
  let frameStart = first
  let crc = 0
  let summed = first
  let i = b.indexOf(0xff, first + 10)
  while (i !== -1) {
    if (i - frameStart >= 10 && (b[i + 1] & 0xfe) === 0xf8 && readFrameHeader(b, i)) {
      crc = crc16(b, summed, i, crc)
      summed = i
      if (crc === 0) {
        // zero bytes after a frame keep its CRC-16 at 0: when the last two bytes are 0, find the frame's real end
        const end = b[i - 1] === 0 && b[i - 2] === 0 ? flacFrameEnd(b, frameStart, i, info) : i
        push(frameStart, end > 0 ? end : i)
        if (end > 0 && end < i) junk(end, i)
        frameStart = i
      } else if (sameStream(b, first, i)) {
        // a header like the stream's own after a frame whose CRC-16 fails: a whole frame and junk, or a damaged frame
        const end = flacFrameEnd(b, frameStart, i, info)
        if (end > 0) {
          push(frameStart, end)
          junk(end, i)
        } else {
          events.push({ samples, what: `the frame at byte ${start + frameStart} fails its CRC-16 (damaged) and was dropped` })
        }
        frameStart = i
        crc = 0
      }
    }
    i = b.indexOf(0xff, i + 1)
  }
  crc = crc16(b, summed, b.length, crc)
  const warnings: string[] = []
  if (crc === 0) push(frameStart, b.length)
  else {
    const end = flacFrameEnd(b, frameStart, b.length, info)
    if (end > 0) {
      push(frameStart, end)
      const tag = b.length - end === 128 && b[end] === 0x54 && b[end + 1] === 0x41 && b[end + 2] === 0x47 ? ' (an ID3v1 tag)' : ''
      events.push({ samples, what: `${b.length - end} bytes after the last frame${tag} at byte ${start + end}` })
    } else {
      events.push({ samples, what: `the stream ends inside a frame (${b.length - frameStart} bytes at byte ${start + frameStart}): truncated` })
    }
  }
  const total = info.totalSamples
  const damage: string[] = []
  for (const e of events) {
    if (total > 0 && e.samples >= total) warnings.push(`${e.what}, after the ${total} samples STREAMINFO declares (libsndfile reads no further)`)
    else if (/^\d+ bytes after the last frame/.test(e.what)) warnings.push(e.what)
    else damage.push(e.what)
  }
  return { description: b.slice(0, 42), info, audioOffset: start + audioOffset, frames, headers, offsets, warnings, damage }
}

/**
 * What libFLAC refuses in a stream: frames whose sample rate, channel count or bit depth differ from STREAMINFO
 * (`flac -d`: "ERROR, bits-per-sample is 24 in frame but 16 in STREAMINFO"), which covers a format that changes
 * mid-stream. libsndfile errors out on a channel change and decodes the others frame by frame, so samples at another
 * depth or rate than the header's would reach training unnoticed.
 *
 * @returns the first contradiction, or `null` when every frame agrees with STREAMINFO
 */
export function flacFormatProblem(s: FlacStream): string | null {
  const { info } = s
  for (let k = 0; k < s.headers.length; k++) {
    const h = s.headers[k]
    const { sampleRate, bitsPerSample } = frameFormat(h, info)
    const what = h.channels !== info.channels
      ? `${h.channels} channel${h.channels === 1 ? '' : 's'} but STREAMINFO declares ${info.channels}: libFLAC refuses such a stream (flac -d fails) and so does libsndfile ("flac channel changed mid stream"), so training fails on this row`
      : sampleRate !== info.sampleRate
        ? `a sample rate of ${sampleRate} Hz but STREAMINFO declares ${info.sampleRate} Hz: libFLAC refuses such a stream (flac -d fails); libsndfile decodes it without a word, at the header's rate`
        : bitsPerSample !== info.bitsPerSample
          ? `${bitsPerSample} bits per sample but STREAMINFO declares ${info.bitsPerSample}: libFLAC refuses such a stream (flac -d fails); libsndfile decodes it without a word, each frame at its own depth`
          : null
    if (what) return `${k === 0 ? 'the first frame' : `frame ${k} (byte ${s.offsets[k]}; the format changes mid-stream)`} has ${what}`
  }
  return null
}

/**
 * Why this stream goes to the TypeScript decoder rather than WebCodecs or the WASM libFLAC build, which are fed
 * frames without STREAMINFO: a bit depth other than 8/16/24 (the WASM build scales only those, and 32 not exactly),
 * headers that defer rate or depth to STREAMINFO, or old-style variable blocking (a fixed-blocking header whose number
 * is a sample number, written by early Flake versions: libFLAC reads it only with STREAMINFO, and the WASM build
 * misreads it as missing frames, leaking memory until it traps on long files).
 *
 * @returns the reason, or `null` for an ordinary stream
 */
export function needsOwnFlacDecoder(s: FlacStream): string | null {
  const bits = s.info.bitsPerSample
  if (!LIBSNDFILE_FLAC_DEPTHS.includes(bits)) return `${bits}-bit`
  const variable = s.info.minBlockSize !== s.info.maxBlockSize
  for (const h of s.headers) {
    if (h.sampleRate === 0 || h.bitsPerSample === 0) return 'frame headers defer to STREAMINFO'
    if (variable && !h.variableBlocking) return 'old-style variable block size'
  }
  return null
}
