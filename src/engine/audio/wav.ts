/**
 * WAV (RIFF/WAVE, RF64 with its `ds64` 64-bit sizes, and RIFX: the same chunks with big-endian sizes, header fields
 * and samples, as libsndfile's `wav.c` reads them): the header walk (`sniffWavLayout`, also the sniffer's) and
 * the decoder, parsed directly: PCM 8-bit unsigned, 16/24/32-bit signed, IEEE float 32/64, G.711 A-law and µ-law,
 * G.721 ADPCM (g72x.ts), IMA / Microsoft ADPCM (adpcm.ts), GSM 06.10 (gsm610.ts),
 * WAVE_FORMAT_EXTENSIBLE (MPEG Layer III, tag 0x55, is found here and decoded by decode.ts as an MP3 file), any extra chunks (fact, LIST, ...) with odd-size padding. Values as libsndfile: integer
 * / 2^(bits−1), G.711 through its 16-bit tables (pcm.ts).
 */
import { ascii, u16le, u32be, u32le, u64le } from './bytes.ts'
import { adpcmBlocks, adpcmSamplesPerBlock, decodeAdpcm } from './adpcm.ts'
import { decodeG72x, g72xBlockBytes, g72xFrames } from './g72x.ts'
import { decodeGsm610, GSM_WAV49_BLOCK_BYTES, GSM_WAV49_BLOCK_SAMPLES, gsmBlocks } from './gsm610.ts'
import { decodePcm } from './pcm.ts'
import { wavEncoding } from './pcm-containers.ts'
import { blankSniff, blockingProblems, checkSane, withProblem, type AudioSniff } from './sniff-result.ts'
import { audioError, type DecodedAudio } from './types.ts'

/** WAVE format tags. */
const WAVE_FORMAT_PCM = 1
const WAVE_FORMAT_IEEE_FLOAT = 3
const WAVE_FORMAT_ALAW = 6
const WAVE_FORMAT_MULAW = 7
const WAVE_FORMAT_EXTENSIBLE = 0xfffe
const WAVE_FORMAT_ADPCM = 0x02
const WAVE_FORMAT_IMA_ADPCM = 0x11
const WAVE_FORMAT_GSM610 = 0x31
/** MPEG Layer III in a WAV: libsndfile (≥ 1.1, `wavlike_read_fmt_chunk` → `mpeg_decoder_init`) reads its data chunk with mpg123. */
const WAVE_FORMAT_MPEGLAYER3 = 0x55
/** G.721 32 kbit/s ADPCM: libsndfile reads it mono (`g72x.c`, SFE_G72X_NOT_MONO otherwise). */
const WAVE_FORMAT_G721_ADPCM = 0x40

/**
 * WAVE format tags libsndfile reads that mixscope does not decode, named in the message that skips them (the
 * registered names, RFC 2361).
 */
const UNDECODED_TAGS: Record<number, string> = {
  // measured with libsndfile 1.2.0: sf_open fails on a G.721 WAV with its tag patched to 0x14 (wav.c reads G.721 only)
  0x14: 'G.723 ADPCM, which libsndfile refuses too',
  // measured with libsndfile 1.2.0: sf_open fails on an ffmpeg `-c:a mp2 -f wav` file (tag 0x50)
  0x50: 'MPEG layer 1/2, which libsndfile refuses too',
}

/** Where a WAV file's `data` chunk is, found while sniffing (used by the WAV decoder). */
export interface WavLayout {
  formatTag: number
  blockAlign: number
  /** Byte offset of the first sample. */
  dataOffset: number
  /** Data bytes declared by the chunk header (may exceed the file). */
  dataSize: number
  /** false for RIFX: big-endian samples. */
  littleEndian: boolean
  /** IMA / Microsoft ADPCM: frames per block (from the fmt chunk's extension). */
  samplesPerBlock?: number
}

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1]

/** Walks the RIFF chunks of a WAV file; returns the sniff and, when found, the data layout. */
export function sniffWavLayout(b: Uint8Array): { sniff: AudioSniff; layout: WavLayout | null } {
  const s = blankSniff('wav')
  const magic = ascii(b, 0, 4)
  if (magic !== 'RIFF' && magic !== 'RF64' && magic !== 'RIFX') return { sniff: withProblem(s, `not a RIFF/RIFX/RF64 file: "${magic}"`), layout: null }
  const le = magic !== 'RIFX'
  const u16 = le ? u16le : u16be
  const u32 = le ? u32le : u32be
  /** RF64's data size from its `ds64` chunk (the `data` chunk's own size is then 0xFFFFFFFF). */
  let ds64Data: number | null = null
  if (b.length < 12) return { sniff: withProblem(s, `truncated header: ${b.length} bytes, RIFF header needs 12`), layout: null }
  if (ascii(b, 8, 4) !== 'WAVE') return { sniff: withProblem(s, `RIFF form type is "${ascii(b, 8, 4)}", expected "WAVE"`), layout: null }
  let at = 12
  let formatTag = -1
  let blockAlign = 0
  let layout: WavLayout | null = null
  /** ADPCM: frames per block (0 for the other codecs). */
  let adpcmPerBlock = 0
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4)
    const size = u32(b, at + 4)
    const body = at + 8
    if (id === 'ds64' && magic === 'RF64' && body + 16 <= b.length) {
      ds64Data = u64le(b, body + 8)
    } else if (id === 'fmt ') {
      if (size < 16 || body + 16 > b.length) return { sniff: withProblem(s, `truncated header: fmt chunk of ${size} bytes`), layout: null }
      formatTag = u16(b, body)
      s.channels = u16(b, body + 2)
      s.sampleRate = u32(b, body + 4)
      blockAlign = u16(b, body + 12)
      s.bitsPerSample = u16(b, body + 14)
      if (formatTag === WAVE_FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 40 > b.length) return { sniff: withProblem(s, `truncated header: WAVE_FORMAT_EXTENSIBLE fmt chunk of ${size} bytes, needs 40`), layout: null }
        // SubFormat GUID: its first two bytes are the format tag
        formatTag = u16(b, body + 24)
        const validBits = u16(b, body + 18)
        if (validBits !== 0 && validBits !== s.bitsPerSample) s.problems.push(`valid bits ${validBits} differ from container bits ${s.bitsPerSample} (decoded as ${s.bitsPerSample}-bit)`)
      }
      if (formatTag === WAVE_FORMAT_PCM) s.codec = 'pcm'
      else if (formatTag === WAVE_FORMAT_IEEE_FLOAT) s.codec = 'float'
      else if (formatTag === WAVE_FORMAT_ALAW) s.codec = 'alaw'
      else if (formatTag === WAVE_FORMAT_MULAW) s.codec = 'ulaw'
      else if (formatTag === WAVE_FORMAT_IMA_ADPCM || formatTag === WAVE_FORMAT_ADPCM) {
        s.codec = formatTag === WAVE_FORMAT_IMA_ADPCM ? 'ima_adpcm' : 'ms_adpcm'
        // fmt extension: cbSize, then wSamplesPerBlock
        const perBlock = size >= 20 && body + 20 <= b.length ? u16(b, body + 18) : 0
        const implied = s.channels > 0 ? adpcmSamplesPerBlock(s.codec, blockAlign, s.channels) : 0
        if (s.codec === 'ms_adpcm' && s.channels > 2) s.problems.push(`Microsoft ADPCM with ${s.channels} channels (libsndfile reads 1 or 2)`)
        else if (perBlock !== implied || implied < 2) s.problems.push(`${s.codec === 'ima_adpcm' ? 'IMA' : 'Microsoft'} ADPCM: ${perBlock} samples per block, the block of ${blockAlign} bytes holds ${implied}`)
        adpcmPerBlock = perBlock
        s.bitsPerSample = 4
      } else if (formatTag === WAVE_FORMAT_GSM610) {
        s.codec = 'gsm610'
        // libsndfile reads mono, 65-byte blocks of 320 samples only (wavlike_read_fmt_chunk)
        const perBlock = size >= 20 && body + 20 <= b.length ? u16(b, body + 18) : 0
        if (s.channels !== 1 || blockAlign !== GSM_WAV49_BLOCK_BYTES || perBlock !== GSM_WAV49_BLOCK_SAMPLES) {
          s.problems.push(`GSM 6.10 with ${s.channels} channels, blocks of ${blockAlign} bytes and ${perBlock} samples (libsndfile reads mono, 65-byte blocks of 320)`)
        }
      } else if (formatTag === WAVE_FORMAT_G721_ADPCM) {
        s.codec = 'g721'
        if (s.channels !== 1) s.problems.push(`G.721 ADPCM with ${s.channels} channels (libsndfile reads mono only)`)
      } else if (formatTag === WAVE_FORMAT_MPEGLAYER3) {
        // the MPEG frames carry their own layout: the fmt chunk's block align and bits are not checked
        s.codec = 'mp3'
      } else s.problems.push(`unsupported WAV format tag 0x${formatTag.toString(16)}${UNDECODED_TAGS[formatTag] ? ` (${UNDECODED_TAGS[formatTag]})` : ''}`)
      const bits = s.bitsPerSample
      if (s.codec === 'pcm' && ![8, 16, 24, 32].includes(bits)) s.problems.push(`unsupported PCM bit depth ${bits}`)
      if (s.codec === 'float' && bits !== 32 && bits !== 64) s.problems.push(`unsupported float bit depth ${bits}`)
      if ((s.codec === 'alaw' || s.codec === 'ulaw') && bits !== 8) s.problems.push(`unsupported G.711 bit depth ${bits}`)
      if (s.channels > 0 && adpcmPerBlock === 0 && s.codec !== 'gsm610' && s.codec !== 'mp3' && s.codec !== 'g721' && blockAlign !== s.channels * Math.ceil(bits / 8)) {
        s.problems.push(`block align ${blockAlign} differs from channels × bytes per sample = ${s.channels * Math.ceil(bits / 8)}`)
      }
    } else if (id === 'data') {
      if (formatTag < 0) return { sniff: withProblem(s, 'data chunk before fmt chunk'), layout: null }
      const available = b.length - body
      const declared = size === 0xffffffff ? (ds64Data !== null && ds64Data >= 0 ? ds64Data : available) : size
      if (declared > available) s.problems.push(`truncated data: header declares ${declared} bytes, file has ${available}`)
      // libsndfile counts the frames that are there when the chunk is cut short (so training reads those); ADPCM:
      // every block, the last one even when cut short, at the samples per block
      // MP3: the length is known once decoded (mpg123's count, as the MP3 file's)
      if (s.codec === 'mp3') s.declaredFrames = null
      else if (s.codec === 'g721') s.declaredFrames = g72xFrames('g721_32', Math.min(declared, available))
      else if (s.codec === 'gsm610') s.declaredFrames = gsmBlocks(gsmDataBytes(declared, available), true) * GSM_WAV49_BLOCK_SAMPLES
      else if (blockAlign > 0) {
        s.declaredFrames = adpcmPerBlock
          ? adpcmBlocks(s.codec === 'ima_adpcm' ? 'ima_adpcm' : 'ms_adpcm', { blockAlign, dataBytes: Math.min(declared, available) }) * adpcmPerBlock
          : Math.floor(Math.min(declared, available) / blockAlign)
      }
      s.declaredFramesRate = s.sampleRate
      layout = { formatTag, blockAlign, dataOffset: body, dataSize: declared, littleEndian: le, ...(adpcmPerBlock ? { samplesPerBlock: adpcmPerBlock } : {}) }
      break
    }
    // chunks are padded to an even size
    at = body + size + (size & 1)
  }
  if (formatTag < 0) s.problems.push('truncated header: no fmt chunk')
  else if (!layout) s.problems.push('no data chunk')
  return { sniff: checkSane(s), layout }
}

/**
 * The data length libsndfile's WAV reader gives GSM 06.10 (wav.c): the chunk's size within the file, plus its pad
 * byte when the size is odd (so a 65-byte multiple plus a pad makes one more block, read over the previous one).
 */
export function gsmDataBytes(declared: number, available: number): number {
  return Math.min(declared, available) + (declared % 2)
}

/** GSM 06.10 WAV (WAV49 blocks, gsm610.ts), with libsndfile's frame count (`sniff.declaredFrames`). */
function decodeGsmWav(bytes: Uint8Array, id: string | undefined, maxSamples: number, sniff: AudioSniff, layout: WavLayout): DecodedAudio {
  const fatal = blockingProblems(sniff)
  if (fatal.length) throw audioError(id, 'wav', 'gsm610', fatal.join('; '))
  const frames = sniff.declaredFrames ?? 0
  if (frames > maxSamples) throw audioError(id, 'wav', 'gsm610', `${frames} frames × 1 channel is over the limit of ${maxSamples} samples`)
  const warnings = sniff.problems.filter((p) => !fatal.includes(p))
  return { sampleRate: sniff.sampleRate!, channels: [decodeGsm610(bytes.subarray(layout.dataOffset), gsmDataBytes(layout.dataSize, bytes.length - layout.dataOffset), true, frames)], frames, decoder: 'wav/gsm610', container: 'wav', codec: 'gsm610', warnings, trainable: true, untrainable: null }
}

/**
 * G.721 WAV (g72x.ts): libsndfile's length, every 60-byte block of the data there is (the declared size, or less when
 * the file ends first), the last one even when cut short.
 */
function decodeG721Wav(bytes: Uint8Array, id: string | undefined, maxSamples: number, sniff: AudioSniff, layout: WavLayout): DecodedAudio {
  const fatal = blockingProblems(sniff)
  if (fatal.length) throw audioError(id, 'wav', 'g721', fatal.join('; '))
  const frames = sniff.declaredFrames ?? 0
  if (frames > maxSamples) throw audioError(id, 'wav', 'g721', `${frames} frames × 1 channel is over the limit of ${maxSamples} samples`)
  const dataBytes = Math.min(layout.dataSize, bytes.length - layout.dataOffset)
  const warnings = sniff.problems.filter((p) => !fatal.includes(p))
  if (dataBytes % g72xBlockBytes('g721_32')) warnings.push(`data ends with a partial block (${dataBytes % g72xBlockBytes('g721_32')} bytes, completed from the previous block as libsndfile does)`)
  return { sampleRate: sniff.sampleRate!, channels: [decodeG72x('g721_32', bytes.subarray(layout.dataOffset, layout.dataOffset + dataBytes), dataBytes)], frames, decoder: 'wav/g721', container: 'wav', codec: 'g721', warnings, trainable: true, untrainable: null }
}

/** A WAV file's data, checked: what both decoders read. */
interface WavData {
  sniff: AudioSniff
  layout: WavLayout
  channels: number
  bits: number
  frames: number
  warnings: string[]
}

function wavData(bytes: Uint8Array, id: string | undefined, maxSamples: number): WavData {
  const { sniff, layout } = sniffWavLayout(bytes)
  const fail = (what: string) => audioError(id, 'wav', sniff.codec, what)
  const fatal = blockingProblems(sniff)
  if (!layout || fatal.length || !sniff.codec) throw fail(fatal.join('; ') || 'no data chunk')
  const channels = sniff.channels!
  const available = Math.min(layout.dataSize, bytes.length - layout.dataOffset)
  const frames = layout.samplesPerBlock
    ? adpcmBlocks(sniff.codec === 'ima_adpcm' ? 'ima_adpcm' : 'ms_adpcm', { blockAlign: layout.blockAlign, dataBytes: available }) * layout.samplesPerBlock
    : Math.floor(available / layout.blockAlign)
  if (frames * channels > maxSamples) throw fail(`${frames} frames × ${channels} channels is over the limit of ${maxSamples} samples`)
  const warnings = sniff.problems.filter((p) => !fatal.includes(p))
  if (available % layout.blockAlign) {
    const part = available % layout.blockAlign
    warnings.push(!layout.samplesPerBlock ? `data ends with a partial frame (${part} bytes ignored)`
      : sniff.codec === 'ima_adpcm' ? `data ends with a partial block (${part} bytes, completed from the previous block as libsndfile does)`
        : `data ends with a partial block (${part} bytes ignored, as libsndfile does)`)
  }
  return { sniff, layout, channels, bits: sniff.bitsPerSample!, frames, warnings }
}

/** The 16-bit PCM samples of `data` as an Int16Array (a view, or a copy when not 2-byte aligned); null for any other format. */
function pcm16Of(bytes: Uint8Array, d: WavData): Int16Array | null {
  if (d.sniff.codec !== 'pcm' || d.bits !== 16 || d.layout.blockAlign !== 2 * d.channels || !littleEndian || !d.layout.littleEndian) return null
  const start = bytes.byteOffset + d.layout.dataOffset
  return start % 2 === 0
    ? new Int16Array(bytes.buffer, start, d.frames * d.channels)
    : new Int16Array(bytes.slice(d.layout.dataOffset, d.layout.dataOffset + d.frames * d.layout.blockAlign).buffer)
}

/**
 * Decodes a RIFF/WAVE file.
 *
 * @param bytes the whole file
 * @param id example id for error messages
 * @param maxSamples refuse files whose data holds more samples (frames × channels) than this
 * @throws MixscopeError `audio: <id> (wav): ...` for unsupported formats, missing chunks or absurd headers
 */
export function decodeWav(bytes: Uint8Array, id: string | undefined, maxSamples: number): DecodedAudio {
  const gsm = sniffWavLayout(bytes)
  if (gsm.sniff.codec === 'gsm610' && gsm.layout) return decodeGsmWav(bytes, id, maxSamples, gsm.sniff, gsm.layout)
  if (gsm.sniff.codec === 'g721' && gsm.layout) return decodeG721Wav(bytes, id, maxSamples, gsm.sniff, gsm.layout)
  const d = wavData(bytes, id, maxSamples)
  const { sniff, layout, channels, bits, frames } = d
  if (layout.samplesPerBlock) {
    const adpcm = decodeAdpcm(bytes, {
      kind: sniff.codec === 'ima_adpcm' ? 'ima_adpcm' : 'ms_adpcm', channels, blockAlign: layout.blockAlign, samplesPerBlock: layout.samplesPerBlock,
      dataOffset: layout.dataOffset, dataBytes: Math.min(layout.dataSize, bytes.length - layout.dataOffset),
    }, frames)
    return { sampleRate: sniff.sampleRate!, channels: adpcm, frames, decoder: 'wav', container: 'wav', codec: sniff.codec!, warnings: d.warnings, trainable: true, untrainable: null }
  }
  const pcm = pcm16Of(bytes, d)
  const out = pcm ? Array.from({ length: channels }, () => new Float32Array(frames)) : null
  if (pcm && out) {
    // the common case through an Int16Array (the same values: v / 32768 is exact in float32), a few times faster
    // than a DataView read per sample
    for (let c = 0; c < channels; c++) {
      const ch = out[c]
      for (let i = 0, at = c; i < frames; i++, at += channels) ch[i] = pcm[at] / 32768
    }
  } else {
    const encoding = wavEncoding(layout.formatTag, bits)!
    return { sampleRate: sniff.sampleRate!, channels: decodePcm(bytes, { encoding, bits, littleEndian: layout.littleEndian, channels, dataOffset: layout.dataOffset, blockAlign: layout.blockAlign, frames }), frames, decoder: 'wav', container: 'wav', codec: sniff.codec!, warnings: d.warnings, trainable: true, untrainable: null }
  }
  // libsndfile reads a WAV cut inside its data chunk up to the last whole frame, as here: training reads it too
  return { sampleRate: sniff.sampleRate!, channels: out!, frames, decoder: 'wav', container: 'wav', codec: sniff.codec!, warnings: d.warnings, trainable: true, untrainable: null }
}

/**
 * A 16-bit PCM WAV file straight to its mono mix, as `toMono(decodeWav(…).channels)` computes it (channels summed
 * left to right in float32, then divided by their count, in float32), without the per-channel arrays: the dataprep's
 * most common input, where allocating them cost more than the arithmetic. Writes into `into` when it is long enough
 * (a buffer the caller reuses; the result is then a view of it). Null for any other WAV format (use `decodeWav`).
 * @returns `[frames]` mono samples, the rate and the channel count
 * @throws as `decodeWav`
 */
export function decodeWavMono16(bytes: Uint8Array, id: string | undefined, maxSamples: number, into?: Float32Array): { samples: Float32Array; sampleRate: number; channels: number; frames: number } | null {
  const codec = sniffWavLayout(bytes).sniff.codec
  if (codec === 'mp3' || codec === 'g721') return null // coded: decodeAudio decodes them
  const d = wavData(bytes, id, maxSamples)
  const pcm = pcm16Of(bytes, d)
  if (!pcm) return null
  const { channels, frames } = d
  const out = into && into.length >= frames ? into.subarray(0, frames) : new Float32Array(frames)
  if (channels === 1) {
    for (let i = 0; i < frames; i++) out[i] = pcm[i] / 32768
  } else if (channels === 2) {
    for (let i = 0, at = 0; i < frames; i++, at += 2) out[i] = Math.fround(pcm[at] / 32768 + pcm[at + 1] / 32768) / 2
  } else {
    for (let i = 0, at = 0; i < frames; i++, at += channels) {
      let sum = pcm[at] / 32768
      for (let c = 1; c < channels; c++) sum = Math.fround(sum + pcm[at + c] / 32768)
      out[i] = sum / channels
    }
  }
  return { samples: out, sampleRate: d.sniff.sampleRate!, channels, frames }
}

/** Whether typed arrays are little-endian here (WAV's byte order); every platform JS runs on in practice is. */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
