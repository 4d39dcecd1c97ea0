/**
 * Audio sniffing: what an encoded audio file claims to be, read from its magic bytes and header only.
 *
 * Never throws and never allocates from declared sizes; cost is O(header) (plus, for Ogg, a backward scan of at most
 * the last 64 KiB to find the last page's granule position). Everything odd goes into `problems`.
 */

/** Container recognised by its magic bytes. */
export type AudioContainer = 'wav' | 'flac' | 'ogg' | 'mp3' | 'unknown'

/** Codec inside the container: `pcm` integer PCM, `float` IEEE float PCM. */
export type AudioCodec = 'pcm' | 'float' | 'flac' | 'vorbis' | 'opus' | 'mp3'

/** What the header of an encoded audio file declares. */
export interface AudioSniff {
  container: AudioContainer
  codec: AudioCodec | null
  /**
   * Native sample rate in Hz, as the reference decoder (libsndfile) reports it. For Opus this is OpusHead's
   * `input_sample_rate` mapped to a rate Opus can decode at (8/12/16/24/48 kHz; 0 → 48 kHz), not the 48 kHz
   * WebCodecs outputs.
   */
  sampleRate: number | null
  channels: number | null
  /** Bits per sample of the source PCM (WAV, FLAC); `null` for lossy codecs. */
  bitsPerSample: number | null
  /**
   * Samples per channel as declared by the header: WAV data size / block align, FLAC STREAMINFO total samples
   * (`null` when 0 = unknown), Ogg last granule position (Opus: minus pre-skip, counted at **48 kHz**, see
   * `declaredFramesRate`), MP3 Xing/Info frame count × samples per frame minus the LAME encoder delay and padding.
   */
  declaredFrames: number | null
  /** Rate in Hz at which `declaredFrames` counts: equal to `sampleRate` except for Opus (always 48000). */
  declaredFramesRate: number | null
  /** Opus pre-skip in 48 kHz samples; MP3 LAME encoder delay in samples; otherwise `null`. */
  leadingSkip: number | null
  /** MP3 LAME end padding in samples; otherwise `null`. */
  trailingPadding: number | null
  /** Header problems, e.g. `truncated header`, `absurd channel count 1000000`. Empty when the header looks sane. */
  problems: string[]
}

/** Limits beyond which a header value is reported as absurd (libsndfile's SF_MAX_CHANNELS is 1024). */
export const sniffLimits = {
  maxChannels: 1024,
  maxSampleRate: 768_000,
  /** 2^31 samples per channel (37 hours at 16 kHz). */
  maxFrames: 2 ** 31,
} as const

function blank(container: AudioContainer, codec: AudioCodec | null = null): AudioSniff {
  return {
    container, codec, sampleRate: null, channels: null, bitsPerSample: null, declaredFrames: null,
    declaredFramesRate: null, leadingSkip: null, trailingPadding: null, problems: [],
  }
}

function ascii(b: Uint8Array, at: number, n: number): string {
  if (at < 0 || at + n > b.length) return ''
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(b[at + i])
  return s
}

function u16le(b: Uint8Array, at: number): number { return b[at] | (b[at + 1] << 8) }
function u32le(b: Uint8Array, at: number): number { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 2 ** 24 }
function u32be(b: Uint8Array, at: number): number { return b[at] * 2 ** 24 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) }
/** Unsigned 64-bit little-endian as a double (exact below 2^53); -1 stays recognisable as 2^64-1 → returns -1. */
function i64le(b: Uint8Array, at: number): number {
  const lo = u32le(b, at)
  const hi = u32le(b, at + 4)
  if (hi === 0xffffffff && lo === 0xffffffff) return -1
  return hi * 2 ** 32 + lo
}

/** Adds sanity problems common to every container. */
function checkSane(s: AudioSniff): AudioSniff {
  if (s.channels !== null && (s.channels < 1 || s.channels > sniffLimits.maxChannels)) {
    s.problems.push(`absurd channel count ${s.channels}`)
  }
  if (s.sampleRate !== null && (s.sampleRate < 1 || s.sampleRate > sniffLimits.maxSampleRate)) {
    s.problems.push(`absurd sample rate ${s.sampleRate} Hz`)
  }
  if (s.declaredFrames !== null && (s.declaredFrames < 0 || s.declaredFrames >= sniffLimits.maxFrames)) {
    s.problems.push(`absurd declared length ${s.declaredFrames} samples per channel`)
  }
  return s
}

/**
 * Identifies an encoded audio file from its magic bytes and reads its header.
 *
 * @param bytes the whole encoded file (only the header and, for Ogg, the last page are read)
 * @returns what the header declares; never throws (garbage gives `container: 'unknown'`)
 */
export function sniffAudio(bytes: Uint8Array): AudioSniff {
  try {
    return sniffAt(bytes, 0)
  } catch (e) {
    const s = blank('unknown')
    s.problems.push(`sniff failed: ${(e as Error).message}`)
    return s
  }
}

function sniffAt(bytes: Uint8Array, start: number): AudioSniff {
  const b = start === 0 ? bytes : bytes.subarray(start)
  if (b.length === 0) return withProblem(blank('unknown'), 'empty input (0 bytes)')
  const magic = ascii(b, 0, 4)
  if (magic === 'RIFF' || magic === 'RIFX' || magic === 'RF64') return sniffWavLayout(b).sniff
  if (magic === 'fLaC') return checkSane(sniffFlac(b))
  if (magic === 'OggS') return checkSane(sniffOgg(b))
  if (ascii(b, 0, 3) === 'ID3') {
    if (b.length < 10) return withProblem(blank('mp3', 'mp3'), 'truncated header: ID3 tag header needs 10 bytes')
    const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f)
    const skip = 10 + size + (b[5] & 0x10 ? 10 : 0)
    if (skip >= b.length) return withProblem(blank('mp3', 'mp3'), `truncated header: ID3 tag of ${skip} bytes but file has ${b.length}`)
    // an ID3 tag may precede FLAC too (libsndfile accepts it)
    if (ascii(b, skip, 4) === 'fLaC') return checkSane(sniffFlac(b.subarray(skip)))
    return checkSane(sniffMp3(b, skip))
  }
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return checkSane(sniffMp3(b, 0))
  const s = blank('unknown')
  s.problems.push(`unknown magic bytes 0x${hex(b, 0, Math.min(4, b.length))}`)
  return s
}

function withProblem(s: AudioSniff, p: string): AudioSniff {
  s.problems.push(p)
  return s
}

/** Hex of bytes `[at, at+n)` for messages. */
export function hex(b: Uint8Array, at: number, n: number): string {
  let s = ''
  for (let i = at; i < at + n && i < b.length; i++) s += b[i].toString(16).padStart(2, '0')
  return s
}

// ---------------------------------------------------------------- WAV

/** WAVE format tags. */
const WAVE_FORMAT_PCM = 1
const WAVE_FORMAT_IEEE_FLOAT = 3
const WAVE_FORMAT_EXTENSIBLE = 0xfffe

/** Where a WAV file's `data` chunk is, found while sniffing (used by the WAV decoder). */
export interface WavLayout {
  formatTag: number
  blockAlign: number
  /** Byte offset of the first sample. */
  dataOffset: number
  /** Data bytes declared by the chunk header (may exceed the file). */
  dataSize: number
}

/** Walks the RIFF chunks of a WAV file; returns the sniff and, when found, the data layout. */
export function sniffWavLayout(b: Uint8Array): { sniff: AudioSniff; layout: WavLayout | null } {
  const s = blank('wav')
  const magic = ascii(b, 0, 4)
  if (magic !== 'RIFF') {
    s.problems.push(magic === 'RF64' ? 'RF64 (64-bit WAV) is not supported' : 'big-endian RIFX WAV is not supported')
    return { sniff: s, layout: null }
  }
  if (b.length < 12) return { sniff: withProblem(s, `truncated header: ${b.length} bytes, RIFF header needs 12`), layout: null }
  if (ascii(b, 8, 4) !== 'WAVE') return { sniff: withProblem(s, `RIFF form type is "${ascii(b, 8, 4)}", expected "WAVE"`), layout: null }
  let at = 12
  let formatTag = -1
  let blockAlign = 0
  let layout: WavLayout | null = null
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4)
    const size = u32le(b, at + 4)
    const body = at + 8
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > b.length) return { sniff: withProblem(s, `truncated header: fmt chunk of ${size} bytes`), layout: null }
      formatTag = u16le(b, body)
      s.channels = u16le(b, body + 2)
      s.sampleRate = u32le(b, body + 4)
      blockAlign = u16le(b, body + 12)
      s.bitsPerSample = u16le(b, body + 14)
      if (formatTag === WAVE_FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 40 > b.length) return { sniff: withProblem(s, `truncated header: WAVE_FORMAT_EXTENSIBLE fmt chunk of ${size} bytes, needs 40`), layout: null }
        // SubFormat GUID: its first two bytes are the format tag
        formatTag = u16le(b, body + 24)
        const validBits = u16le(b, body + 18)
        if (validBits !== 0 && validBits !== s.bitsPerSample) s.problems.push(`valid bits ${validBits} differ from container bits ${s.bitsPerSample} (decoded as ${s.bitsPerSample}-bit)`)
      }
      if (formatTag === WAVE_FORMAT_PCM) s.codec = 'pcm'
      else if (formatTag === WAVE_FORMAT_IEEE_FLOAT) s.codec = 'float'
      else s.problems.push(`unsupported WAV format tag 0x${formatTag.toString(16)}`)
      const bits = s.bitsPerSample
      if (s.codec === 'pcm' && ![8, 16, 24, 32].includes(bits)) s.problems.push(`unsupported PCM bit depth ${bits}`)
      if (s.codec === 'float' && bits !== 32 && bits !== 64) s.problems.push(`unsupported float bit depth ${bits}`)
      if (s.channels > 0 && blockAlign !== s.channels * Math.ceil(bits / 8)) {
        s.problems.push(`block align ${blockAlign} differs from channels × bytes per sample = ${s.channels * Math.ceil(bits / 8)}`)
      }
    } else if (id === 'data') {
      if (formatTag < 0) return { sniff: withProblem(s, 'data chunk before fmt chunk'), layout: null }
      const available = b.length - body
      const declared = size === 0xffffffff ? available : size
      if (declared > available) s.problems.push(`truncated data: header declares ${declared} bytes, file has ${available}`)
      if (blockAlign > 0) s.declaredFrames = Math.floor(declared / blockAlign)
      s.declaredFramesRate = s.sampleRate
      layout = { formatTag, blockAlign, dataOffset: body, dataSize: declared }
      break
    }
    // chunks are padded to an even size
    at = body + size + (size & 1)
  }
  if (formatTag < 0) s.problems.push('truncated header: no fmt chunk')
  else if (!layout) s.problems.push('no data chunk')
  return { sniff: checkSane(s), layout }
}

// ---------------------------------------------------------------- FLAC

/** Reads FLAC STREAMINFO from `fLaC` + 34-byte block (at offset 8 of `b`). */
function readStreamInfo(s: AudioSniff, b: Uint8Array, at: number): void {
  // STREAMINFO: min/max block (16+16), min/max frame (24+24), rate 20, channels-1 3, bps-1 5, total samples 36, MD5
  const x = at + 10
  s.sampleRate = (b[x] << 12) | (b[x + 1] << 4) | (b[x + 2] >> 4)
  s.channels = ((b[x + 2] >> 1) & 0x07) + 1
  s.bitsPerSample = (((b[x + 2] & 0x01) << 4) | (b[x + 3] >> 4)) + 1
  const total = (b[x + 3] & 0x0f) * 2 ** 32 + u32be(b, x + 4)
  s.declaredFrames = total === 0 ? null : total
  s.declaredFramesRate = s.sampleRate
  if (s.sampleRate === 0) s.problems.push('STREAMINFO sample rate is 0')
}

function sniffFlac(b: Uint8Array): AudioSniff {
  const s = blank('flac', 'flac')
  if (b.length < 42) return withProblem(s, `truncated header: ${b.length} bytes, fLaC + STREAMINFO needs 42`)
  const type = b[4] & 0x7f
  const len = (b[5] << 16) | (b[6] << 8) | b[7]
  if (type !== 0 || len !== 34) return withProblem(s, `first metadata block is type ${type} of ${len} bytes, expected STREAMINFO (type 0, 34 bytes)`)
  readStreamInfo(s, b, 8)
  return s
}

// ---------------------------------------------------------------- Ogg

/** Opus decoding rates; libsndfile decodes at the input rate when Opus supports it. */
const OPUS_RATES = [8000, 12000, 16000, 24000, 48000]

/** The rate libsndfile decodes an Opus stream at, from OpusHead's `input_sample_rate` (0 = unknown → 48 kHz). */
export function opusDecodeRate(inputRate: number): number {
  if (inputRate === 0) return 48000
  return OPUS_RATES.find((r) => r >= inputRate) ?? 48000
}

function sniffOgg(b: Uint8Array): AudioSniff {
  const s = blank('ogg')
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
export function lastGranule(b: Uint8Array): number | null {
  const stop = Math.max(0, b.length - 65536 - 27)
  for (let at = b.length - 27; at >= stop; at--) {
    if (b[at] === 0x4f && b[at + 1] === 0x67 && b[at + 2] === 0x67 && b[at + 3] === 0x53 && b[at + 4] === 0) {
      const g = i64le(b, at + 6)
      if (g >= 0) return g
    }
  }
  return null
}

// ---------------------------------------------------------------- MP3

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
export function mpegFrameHeader(b: Uint8Array, at: number): MpegFrameHeader | null {
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

function sniffMp3(b: Uint8Array, start: number): AudioSniff {
  const s = blank('mp3', 'mp3')
  // find the first frame header that is followed by another one (or the end), within the first 64 KiB
  let at = -1
  let h: MpegFrameHeader | null = null
  const limit = Math.min(b.length - 4, start + 65536)
  for (let i = start; i <= limit; i++) {
    const c = mpegFrameHeader(b, i)
    if (!c) continue
    const next = i + c.frameBytes
    if (c.frameBytes === 0 || next + 4 > b.length || mpegFrameHeader(b, next)) { at = i; h = c; break }
  }
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
