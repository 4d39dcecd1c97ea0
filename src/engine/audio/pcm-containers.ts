/**
 * The other uncompressed containers libsndfile reads (the training reference decodes with it): AIFF and AIFC
 * (`FORM`, big-endian; AIFC `NONE`, `sowt`, `fl32`, `fl64`, `ulaw`, `alaw`), Core Audio Format (`caff`: `lpcm`,
 * `ulaw`, `alaw`), Sony Wave64 (`riff` GUID chunks, 64-bit sizes) and NIST SPHERE (`NIST_1A` text header; PCM,
 * µ-law, A-law; not its shorten compression, which libsndfile does not read either). Each gives the sniff and the
 * sample layout; `decodePcm` (pcm.ts) reads the samples. Layouts from the formats' specifications as libsndfile
 * implements them (`aiff.c`, `caf.c`, `w64.c`, `nist.c`). Sun/NeXT AU (au.ts) and libsndfile's rarer containers (rare-containers.ts) are dispatched from here.
 */
import { ascii, u16le, u32be, u32le, u64le } from './bytes.ts'
import { decodePcm, type PcmEncoding, type PcmLayout } from './pcm.ts'
import { blankSniff, blockingProblems, checkSane, withProblem, type AudioCodec, type AudioContainer, type AudioSniff } from './sniff-result.ts'
import { audioError, type DecodedAudio } from './types.ts'
import { decodeCoded, type CodedLayout } from './coded.ts'
import { ima4Frames } from './adpcm.ts'
import { AlacDecoder, parseAlacCookie, parseAlacPackets, type AlacConfig } from './alac.ts'
import { isAu, sniffAu } from './au.ts'
import { rareContainerOf, sniffRareContainer, type RareContainerKind } from './rare-containers.ts'
import { GSM_FRAME_SAMPLES, GSM_WAV49_BLOCK_BYTES, GSM_WAV49_BLOCK_SAMPLES, gsmBlocks } from './gsm610.ts'

/**
 * A container's sniff and, when its header was read to the samples, their layout: `layout` for raw samples,
 * `coded` for a compressed codec libsndfile reads in that container (coded.ts).
 */
export interface PcmContainer { sniff: AudioSniff; layout: PcmLayout | null; coded?: CodedLayout }

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1]
const u64be = (b: Uint8Array, at: number) => u32be(b, at) * 2 ** 32 + u32be(b, at + 4)

/** The codec name of an encoding, for the sniff. */
function codecOf(encoding: PcmEncoding): AudioCodec {
  return encoding === 'float' ? 'float' : encoding === 'ulaw' || encoding === 'alaw' ? encoding : 'pcm'
}

/** Fills `s` from a layout found at `dataOffset` holding `dataBytes` (which may run past the file), and returns both. */
function finish(s: AudioSniff, b: Uint8Array, f: { encoding: PcmEncoding; bits: number; littleEndian: boolean; channels: number; rate: number; dataOffset: number; dataBytes: number; blockAlign?: number }): PcmContainer {
  s.codec = codecOf(f.encoding)
  s.channels = f.channels
  s.sampleRate = f.rate
  s.bitsPerSample = f.bits
  s.declaredFramesRate = f.rate
  const blockAlign = f.blockAlign ?? f.channels * Math.ceil(f.bits / 8)
  const valid = (f.encoding === 'int' && [8, 16, 24, 32].includes(f.bits)) || (f.encoding === 'float' && (f.bits === 32 || f.bits === 64)) ||
    ((f.encoding === 'ulaw' || f.encoding === 'alaw' || f.encoding === 'uint') && f.bits === 8)
  if (!valid) s.problems.push(`unsupported sample format: ${f.bits}-bit ${f.encoding}`)
  const available = Math.max(0, b.length - f.dataOffset)
  if (Number.isFinite(f.dataBytes) && f.dataBytes > available) s.problems.push(`truncated data: header declares ${f.dataBytes} bytes, file has ${available}`)
  const frames = blockAlign > 0 ? Math.floor(Math.min(f.dataBytes, available) / blockAlign) : 0
  s.declaredFrames = frames
  checkSane(s)
  if (!valid || f.channels < 1 || blockAlign <= 0) return { sniff: s, layout: null }
  return { sniff: s, layout: { encoding: f.encoding, bits: f.bits, littleEndian: f.littleEndian, channels: f.channels, dataOffset: f.dataOffset, blockAlign, frames, dataBytes: f.dataBytes } }
}

/** IEEE 754 80-bit extended (AIFF's sample rate). */
function extended80(b: Uint8Array, at: number): number {
  const exp = u16be(b, at) & 0x7fff
  const sign = b[at] & 0x80 ? -1 : 1
  const mantissa = u32be(b, at + 2) * 2 ** 32 + u32be(b, at + 6)
  if (exp === 0 && mantissa === 0) return 0
  return sign * mantissa * 2 ** (exp - 16383 - 63)
}

/**
 * AIFF / AIFC (`FORM` … `AIFF`|`AIFC`): `COMM` (channels, frames, bits, rate, AIFC compression) and `SSND`.
 * @param fileSize the whole file's bytes when `b` is only its head (coded data is counted to the file's end)
 */
export function sniffAiff(b: Uint8Array, fileSize = b.length): PcmContainer {
  const s = blankSniff('aiff')
  if (b.length < 12) return { sniff: withProblem(s, `truncated header: ${b.length} bytes, FORM header needs 12`), layout: null }
  const aifc = ascii(b, 8, 4) === 'AIFC'
  let comm: { channels: number; frames: number; bits: number; rate: number; compression: string } | null = null
  let at = 12
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4)
    const size = u32be(b, at + 4)
    const body = at + 8
    if (id === 'COMM') {
      if (body + 18 > b.length) return { sniff: withProblem(s, 'truncated header: COMM chunk'), layout: null }
      comm = { channels: u16be(b, body), frames: u32be(b, body + 2), bits: u16be(b, body + 6), rate: extended80(b, body + 8), compression: aifc && size >= 22 ? ascii(b, body + 18, 4) : 'NONE' }
    } else if (id === 'SSND') {
      if (!comm) return { sniff: withProblem(s, 'SSND chunk before COMM chunk'), layout: null }
      const offset = u32be(b, body)
      const kinds: Record<string, [PcmEncoding, number | null, boolean]> = {
        NONE: ['int', null, false], twos: ['int', null, false], sowt: ['int', null, true], raw: ['uint', 8, false],
        fl32: ['float', 32, false], FL32: ['float', 32, false], fl64: ['float', 64, false], FL64: ['float', 64, false],
        ulaw: ['ulaw', 8, false], ULAW: ['ulaw', 8, false], alaw: ['alaw', 8, false], ALAW: ['alaw', 8, false],
      }
      if (aifc && (comm.compression === 'ima4' || comm.compression === 'DWVW' || comm.compression === 'GSM ')) return codedAiff(s, comm, body + 8 + offset, size - 8 - offset, fileSize)
      const kind = kinds[comm.compression.trim()] ?? kinds[comm.compression]
      if (!kind) return { sniff: withProblem(s, `unsupported AIFC compression "${comm.compression}"`), layout: null }
      const [encoding, bits, littleEndian] = kind
      const sampleBits = bits ?? Math.ceil(comm.bits / 8) * 8
      const dataOffset = body + 8 + offset
      const frameBytes = comm.channels * sampleBits / 8
      const r = finish(s, b, { encoding, bits: sampleBits, littleEndian, channels: comm.channels, rate: comm.rate, dataOffset, dataBytes: Math.min(size - 8 - offset, comm.frames * frameBytes) })
      return r
    }
    at = body + size + (size & 1)
  }
  return { sniff: withProblem(s, comm ? 'no SSND chunk' : 'truncated header: no COMM chunk'), layout: null }
}

/**
 * AIFC's coded sound data, where libsndfile (`aiff.c`) reads it: from after the SSND chunk's offset and block size,
 * `ima4` for the chunk's bytes (34-byte packets of 64 samples per channel), `GSM ` for them too (33-byte frames of
 * 160 samples), `DWVW` on to the end of the file.
 */
function codedAiff(s: AudioSniff, comm: { channels: number; frames: number; bits: number; rate: number; compression: string }, dataOffset: number, declared: number, fileSize: number): PcmContainer {
  s.channels = comm.channels
  s.sampleRate = comm.rate
  s.declaredFramesRate = comm.rate
  const available = Math.max(0, fileSize - dataOffset)
  if (declared > available) s.problems.push(`truncated data: header declares ${declared} bytes, file has ${available}`)
  const dataBytes = Math.min(Math.max(0, declared), available)
  let coded: CodedLayout
  if (comm.compression === 'ima4') {
    s.codec = 'ima_adpcm'
    s.bitsPerSample = 4
    coded = { kind: 'ima4', channels: comm.channels, dataOffset, dataBytes, frames: comm.channels > 0 ? ima4Frames(dataBytes, comm.channels) : 0 }
  } else if (comm.compression === 'GSM ') {
    s.codec = 'gsm610'
    if (comm.channels !== 1) s.problems.push(`GSM 6.10 with ${comm.channels} channels (libsndfile reads mono)`)
    // libsndfile's count: every frame's 160 samples, capped at COMM's (gsm610_init, aiff.c)
    coded = { kind: 'gsm610', wav49: false, channels: 1, dataOffset, dataBytes, frames: Math.min(comm.frames, gsmBlocks(dataBytes, false) * GSM_FRAME_SAMPLES) }
  } else {
    s.codec = 'dwvw'
    s.bitsPerSample = comm.bits
    // aiff.c sets up no decoder for 12-bit DWVW (its DWVW_12 case skips dwvw_init): libsndfile 1.2 cannot read it
    if (comm.bits === 12) s.problems.push('12-bit DWVW, which libsndfile 1.2 does not read (aiff.c sets up no decoder for it)')
    else if (comm.bits < 8 || comm.bits > 24) s.problems.push(`DWVW of ${comm.bits} bits (libsndfile reads 8–24)`)
    coded = { kind: 'dwvw', bits: comm.bits, channels: comm.channels, dataOffset, dataBytes: available, frames: comm.frames }
  }
  s.declaredFrames = coded.frames
  checkSane(s)
  if (comm.channels < 1) return { sniff: withProblem(s, `${comm.channels} channels`), layout: null }
  return { sniff: s, layout: null, coded }
}

/** Core Audio Format (`caff`): `desc` (rate, format, flags, bytes per packet, channels, bits) and `data`. */
export function sniffCaf(b: Uint8Array): PcmContainer {
  const s = blankSniff('caf')
  let desc: { rate: number; format: string; flags: number; bytesPerPacket: number; framesPerPacket: number; channels: number; bits: number } | null = null
  /** ALAC: the cookie, the packet table and the data, wherever they are in the file. */
  let kuki: Uint8Array | null = null
  let pakt: Uint8Array | null = null
  let alacData: { offset: number; bytes: number } | null = null
  let at = 8
  while (at + 12 <= b.length) {
    const id = ascii(b, at, 4)
    let size = u64be(b, at + 4)
    const body = at + 12
    if (id === 'desc') {
      if (body + 32 > b.length) return { sniff: withProblem(s, 'truncated header: desc chunk'), layout: null }
      const rate = new DataView(b.buffer, b.byteOffset + body, 8).getFloat64(0, false)
      desc = { rate, format: ascii(b, body + 8, 4), flags: u32be(b, body + 12), bytesPerPacket: u32be(b, body + 16), framesPerPacket: u32be(b, body + 20), channels: u32be(b, body + 24), bits: u32be(b, body + 28) }
    } else if (id === 'kuki') {
      kuki = b.subarray(body, Math.min(b.length, body + size))
    } else if (id === 'pakt') {
      // libsndfile reads the packet sizes after the chunk's 24-byte header (alac.c): the body from its start
      pakt = b.subarray(body, Math.min(b.length, body + size))
    } else if (id === 'data' && desc?.format === 'alac') {
      if (b[at + 4] === 0xff && size >= 2 ** 63) size = b.length - body
      alacData = { offset: body + 4, bytes: Math.max(0, Math.min(size, b.length - body) - 4) }
      if (alacData.offset + alacData.bytes >= b.length) break
    } else if (id === 'data') {
      if (!desc) return { sniff: withProblem(s, 'data chunk before desc chunk'), layout: null }
      // a size of -1 (all ones) runs to the end of the file; the chunk starts with a 4-byte edit count
      if (b[at + 4] === 0xff && size >= 2 ** 63) size = Infinity
      const encoding: PcmEncoding | null = desc.format === 'lpcm' ? (desc.flags & 1 ? 'float' : 'int') : desc.format === 'ulaw' ? 'ulaw' : desc.format === 'alaw' ? 'alaw' : null
      if (!encoding) return { sniff: withProblem(s, `unsupported CAF format "${desc.format}"`), layout: null }
      return finish(s, b, {
        encoding, bits: encoding === 'ulaw' || encoding === 'alaw' ? 8 : desc.bits, littleEndian: (desc.flags & 2) !== 0, channels: desc.channels, rate: desc.rate,
        dataOffset: body + 4, dataBytes: size - 4, blockAlign: desc.bytesPerPacket || undefined,
      })
    }
    at = body + size
  }
  if (desc?.format === 'alac') return alacCaf(s, desc, kuki, pakt, alacData, b)
  return { sniff: withProblem(s, desc ? 'no data chunk' : 'truncated header: no desc chunk'), layout: null }
}

/**
 * ALAC in CAF as libsndfile reads it (alac.c `alac_reader_init`): the cookie's config, the packet table's sizes,
 * and its frame count: every packet's frames but the last, plus what the last decodes to.
 */
function alacCaf(s: AudioSniff, desc: { rate: number; flags: number; framesPerPacket: number; channels: number; bits: number }, kuki: Uint8Array | null, pakt: Uint8Array | null, data: { offset: number; bytes: number } | null, b: Uint8Array): PcmContainer {
  s.codec = 'alac'
  s.channels = desc.channels
  s.sampleRate = desc.rate
  s.declaredFramesRate = desc.rate
  s.bitsPerSample = desc.bits
  // caf.c takes the depth from the desc chunk's format flags (1–4: 16, 20, 24, 32 bits) and refuses other values
  if (desc.flags < 1 || desc.flags > 4) return { sniff: withProblem(s, `ALAC format flags ${desc.flags}, which libsndfile 1.2 refuses (it reads 1–4, the bit depth's code; ffmpeg writes 0)`), layout: null }
  if (!kuki || !pakt || !data) return { sniff: withProblem(s, `ALAC without its ${!kuki ? 'kuki (magic cookie)' : !pakt ? 'pakt (packet table)' : 'data'} chunk`), layout: null }
  let config: AlacConfig
  try {
    config = parseAlacCookie(kuki)
  } catch (e) {
    return { sniff: withProblem(s, (e as Error).message.replace(/^audio: /, '')), layout: null }
  }
  if (config.channels !== desc.channels) return { sniff: withProblem(s, `ALAC cookie declares ${config.channels} channels, the desc chunk ${desc.channels}`), layout: null }
  const sizes = parseAlacPackets(pakt)
  let frames = 0
  if (sizes.length) {
    const lastAt = sizes.slice(0, -1).reduce((n, x) => n + x, 0)
    const last = sizes[sizes.length - 1]
    frames = desc.framesPerPacket * (sizes.length - 1)
    if (lastAt + last <= data.bytes) {
      try {
        frames += new AlacDecoder(config).packet(b.subarray(data.offset + lastAt, data.offset + lastAt + last), new Int32Array(config.frameLength * config.channels))
      } catch (e) {
        s.problems.push(`the last ALAC packet does not decode (${(e as Error).message.replace(/^audio: /, '')})`)
      }
    } else s.problems.push(`truncated data: the packet table lists ${lastAt + last} bytes, the file has ${data.bytes}`)
  }
  s.declaredFrames = frames
  checkSane(s)
  return { sniff: s, layout: null, coded: { kind: 'alac', config, sizes, channels: desc.channels, dataOffset: data.offset, dataBytes: data.bytes, frames } }
}

/** The 16-byte GUID that starts a Wave64 file: `riff` + 2E91CF11-A5D6-28DB-04C1-00000000 (bytes as stored). */
const W64_RIFF = [0x72, 0x69, 0x66, 0x66, 0x2e, 0x91, 0xcf, 0x11, 0xa5, 0xd6, 0x28, 0xdb, 0x04, 0xc1, 0x00, 0x00]

/** Whether `b` starts as a Sony Wave64 file. */
export function isW64(b: Uint8Array): boolean {
  return b.length >= 16 && W64_RIFF.every((x, i) => b[i] === x)
}

/**
 * Sony Wave64: GUID chunks with 64-bit sizes (which count the 24-byte chunk header), 8-byte aligned; WAV's `fmt `.
 * @param fileSize the whole file's bytes when `b` is only its head (GSM data is counted to the file's end)
 */
export function sniffW64(b: Uint8Array, fileSize = b.length): PcmContainer {
  const s = blankSniff('w64')
  if (b.length < 40 || ascii(b, 24, 4) !== 'wave') return { sniff: withProblem(s, 'truncated header or no "wave" GUID'), layout: null }
  let fmt: { tag: number; channels: number; rate: number; blockAlign: number; bits: number } | null = null
  let at = 40
  while (at + 24 <= b.length) {
    const id = ascii(b, at, 4)
    const size = u64le(b, at + 16)
    const body = at + 24
    if (size < 24) return { sniff: withProblem(s, `chunk "${id.trim()}" of ${size} bytes`), layout: null }
    if (id === 'fmt ') {
      if (body + 16 > b.length) return { sniff: withProblem(s, 'truncated header: fmt chunk'), layout: null }
      let tag = u16le(b, body)
      if (tag === 0xfffe && body + 26 <= b.length) tag = u16le(b, body + 24)
      fmt = { tag, channels: u16le(b, body + 2), rate: u32le(b, body + 4), blockAlign: u16le(b, body + 12), bits: u16le(b, body + 14) }
    } else if (id === 'data') {
      if (!fmt) return { sniff: withProblem(s, 'data chunk before fmt chunk'), layout: null }
      if (fmt.tag === WAVE_FORMAT_GSM610) return gsmWavLike(s, fileSize, fmt, body, size - 24)
      const encoding = wavEncoding(fmt.tag, fmt.bits)
      if (!encoding) return { sniff: withProblem(s, `unsupported WAV format tag 0x${fmt.tag.toString(16)}`), layout: null }
      return finish(s, b, { encoding, bits: fmt.bits, littleEndian: true, channels: fmt.channels, rate: fmt.rate, dataOffset: body, dataBytes: size - 24, blockAlign: fmt.blockAlign })
    }
    at += Math.ceil(size / 8) * 8
  }
  return { sniff: withProblem(s, fmt ? 'no data chunk' : 'truncated header: no fmt chunk'), layout: null }
}

/** WAVE format tag of GSM 06.10 (Microsoft's WAV49 packing). */
export const WAVE_FORMAT_GSM610 = 0x31

/**
 * GSM 06.10 in WAV or Wave64 as libsndfile reads it (`wavlike_read_fmt_chunk`, `gsm610_init`): mono, 65-byte blocks
 * of 320 samples; every block counts, one cut short too.
 */
export function gsmWavLike(s: AudioSniff, fileSize: number, fmt: { channels: number; rate: number; blockAlign: number }, dataOffset: number, declared: number): PcmContainer {
  s.codec = 'gsm610'
  s.channels = fmt.channels
  s.sampleRate = fmt.rate
  s.declaredFramesRate = fmt.rate
  if (fmt.channels !== 1 || fmt.blockAlign !== GSM_WAV49_BLOCK_BYTES) s.problems.push(`GSM 6.10 with ${fmt.channels} channels and blocks of ${fmt.blockAlign} bytes (libsndfile reads mono, 65-byte blocks)`)
  const available = Math.max(0, fileSize - dataOffset)
  if (declared > available) s.problems.push(`truncated data: header declares ${declared} bytes, file has ${available}`)
  const dataBytes = Math.min(Math.max(0, declared), available)
  const frames = gsmBlocks(dataBytes, true) * GSM_WAV49_BLOCK_SAMPLES
  s.declaredFrames = frames
  checkSane(s)
  return { sniff: s, layout: null, coded: { kind: 'gsm610', wav49: true, channels: 1, dataOffset, dataBytes, frames } }
}

/** WAV format tag (and bit depth) → encoding: PCM (8-bit unsigned), IEEE float, A-law (6), µ-law (7). */
export function wavEncoding(tag: number, bits: number): PcmEncoding | null {
  if (tag === 1) return bits === 8 ? 'uint' : 'int'
  if (tag === 3) return 'float'
  if (tag === 6) return 'alaw'
  if (tag === 7) return 'ulaw'
  return null
}

/** NIST SPHERE (`NIST_1A`): a text header of `name -type value` lines, its size on the second line. */
export function sniffSphere(b: Uint8Array): PcmContainer {
  const s = blankSniff('sphere')
  const headerSize = Number.parseInt(ascii(b, 8, 8).trim(), 10)
  if (!Number.isFinite(headerSize) || headerSize < 16 || headerSize > b.length) return { sniff: withProblem(s, `bad header size "${ascii(b, 8, 8).trim()}"`), layout: null }
  const fields = new Map<string, string>()
  for (const line of ascii(b, 0, headerSize).split('\n')) {
    const m = /^(\S+)\s+-(i|r|s\d+)\s+(.*)$/.exec(line.trim())
    if (m) fields.set(m[1], m[3].trim())
    if (line.trim() === 'end_head') break
  }
  const channels = Number(fields.get('channel_count') ?? 1)
  const rate = Number(fields.get('sample_rate'))
  const bytesPer = Number(fields.get('sample_n_bytes') ?? 2)
  const coding = (fields.get('sample_coding') ?? 'pcm').toLowerCase()
  const order = fields.get('sample_byte_format') ?? '01'
  if (!Number.isFinite(rate) || rate <= 0) return { sniff: withProblem(s, 'no sample_rate in the header'), layout: null }
  if (coding.includes('shorten') || coding.includes('wavpack') || coding.includes('shortpack')) return { sniff: withProblem(s, `compressed SPHERE ("${coding}") is not read by libsndfile`), layout: null }
  const encoding: PcmEncoding | null = coding.startsWith('pcm') ? 'int' : coding.startsWith('ulaw') || coding.startsWith('mu-law') ? 'ulaw' : coding.startsWith('alaw') ? 'alaw' : null
  if (!encoding) return { sniff: withProblem(s, `unsupported sample_coding "${coding}"`), layout: null }
  const declared = fields.has('sample_count') ? Number(fields.get('sample_count')) * channels * bytesPer : Infinity
  return finish(s, b, { encoding, bits: bytesPer * 8, littleEndian: order !== '10', channels, rate, dataOffset: headerSize, dataBytes: declared })
}

/**
 * The raw-sample container `b` starts as (by its magic bytes), or null.
 * @param fileSize the whole file's bytes when `b` is only its head (HTK is recognised by its length)
 */
export function pcmContainerOf(b: Uint8Array, fileSize = b.length): AudioContainer | null {
  const magic = ascii(b, 0, 4)
  if (magic === 'FORM' && (ascii(b, 8, 4) === 'AIFF' || ascii(b, 8, 4) === 'AIFC')) return 'aiff'
  if (magic === 'caff') return 'caf'
  if (isW64(b)) return 'w64'
  if (ascii(b, 0, 8) === 'NIST_1A\n') return 'sphere'
  if (isAu(b)) return 'au'
  return rareContainerOf(b, fileSize)
}

/**
 * The sniff and layout of a container `pcmContainerOf` recognized.
 * @param fileSize the whole file's bytes when `b` is only its head (coded data is counted to the file's end)
 */
export function readPcmContainer(b: Uint8Array, container: AudioContainer, fileSize = b.length): PcmContainer {
  switch (container) {
    case 'aiff': return sniffAiff(b, fileSize)
    case 'caf': return sniffCaf(b)
    case 'w64': return sniffW64(b, fileSize)
    case 'au': return sniffAu(b, fileSize)
    case 'sphere': return sniffSphere(b)
    default: return sniffRareContainer(b, container as RareContainerKind, fileSize)
  }
}

/**
 * Decodes an AIFF/AIFC, CAF, Wave64, NIST SPHERE, Sun/NeXT AU or rarer (rare-containers.ts) file as libsndfile reads it (the frames the file holds, when its
 * data is cut short).
 * @throws MixscopeError `audio: <id> (<container>/<codec>): …` for what libsndfile does not read either, or a length
 * over `maxSamples`
 */
export function decodePcmContainer(bytes: Uint8Array, id: string | undefined, maxSamples: number): DecodedAudio {
  const container = pcmContainerOf(bytes) ?? 'unknown'
  const found = readPcmContainer(bytes, container)
  const { sniff, layout } = found
  const { coded } = found
  const fatal = blockingProblems(sniff)
  const fail = (what: string) => audioError(id, sniff.container, sniff.codec, what)
  if (coded && !fatal.length) {
    if (coded.frames * coded.channels > maxSamples) throw fail(`${coded.frames} frames × ${coded.channels} channels is over the limit of ${maxSamples} samples`)
    const channels = decodeCoded(bytes, coded)
    return {
      sampleRate: sniff.sampleRate!, channels, frames: channels[0].length, decoder: `${sniff.container}/${sniff.codec}`, container: sniff.container,
      codec: sniff.codec, warnings: sniff.problems.filter((p) => !fatal.includes(p)), trainable: !sniff.untrainable, untrainable: sniff.untrainable,
    }
  }
  if (!layout || fatal.length) throw fail(fatal.join('; ') || 'no sample data')
  if (layout.frames * layout.channels > maxSamples) throw fail(`${layout.frames} frames × ${layout.channels} channels is over the limit of ${maxSamples} samples`)
  const warnings = sniff.problems.filter((p) => !fatal.includes(p))
  return {
    sampleRate: sniff.sampleRate!, channels: decodePcm(bytes, layout), frames: layout.frames, decoder: sniff.container, container: sniff.container,
    codec: sniff.codec, warnings, trainable: true, untrainable: null,
  }
}
