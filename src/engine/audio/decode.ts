/**
 * `decodeAudio`: encoded bytes (one row's `audio_bytes`) → planar float32 at the native rate, as libsndfile would
 * return it to the training reference. WAV is parsed here; other codecs go to WebCodecs (where present and
 * preferred) or the WASM decoders, then get the same trimming so both paths agree with libsndfile's length.
 */
import { MixscopeError } from '../core/findings.ts'
import { mapLimit } from '../core/map-limit.ts'
import { ascii } from './bytes.ts'
import { decodeFlacFrames, parseStreamInfo } from './flac-decoder.ts'
import { flacFormatProblem, needsOwnFlacDecoder, splitFlacFrames, type FlacStream } from './flac.ts'
import { readOggPackets } from './ogg.ts'
import { resampleChannels } from './resample.ts'
import { sniffAudio, type AudioSniff } from './sniff.ts'
import { audioError, defaultMaxSamples, type DecodedAudio, type DecodeOptions } from './types.ts'
import { decodeWasm, type RawDecode } from './wasm.ts'
import { decodeWav, sniffWavLayout } from './wav.ts'
import { blockingProblems } from './sniff-result.ts'
import { firstMpegFrame, mpg123EstimatedFrames } from './mp3.ts'
import { decodePcmContainer } from './pcm-containers.ts'
import { RARE_CONTAINERS } from './rare-containers.ts'
import { decodeWebCodecs, hasWebCodecs, WebCodecsUnavailable } from './webcodecs.ts'

/** Sniff problems that do not stop decoding (they become warnings). */
const tolerated = /^(truncated data|valid bits|no final Ogg page|truncated stream)/

/**
 * Tolerated sniff problems that libsndfile cannot get past: an Ogg stream without its end-of-stream page has no
 * length (libsndfile reports 2^63 − 1 frames, which fairseq2 cannot allocate); an MP3 cut inside its first frame.
 */
const untrainableProblem = /^(no final Ogg page|truncated stream)/

/** MPEG Layer III decoder delay in samples that LAME's encoder delay does not include (ffmpeg, mpg123: 528 + 1). */
const MP3_DECODER_DELAY = 529

/**
 * Decodes one encoded audio file.
 *
 * @param bytes the file (WAV, FLAC, Ogg Vorbis/Opus/FLAC, MP3)
 * @returns planar samples at the native rate (Opus: the stream's input rate, as libsndfile)
 * @throws MixscopeError (kind `audio-decode`) `audio: <id> (<container>): <what failed>` for empty, garbage, truncated,
 * unsupported or absurd input; never hangs (WebCodecs flush has a timeout) and never allocates beyond `maxSamples`
 */
export async function decodeAudio(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const { id, maxSamples = defaultMaxSamples, timeoutMs = 10_000 } = options
  if (bytes.length === 0) throw audioError(id, 'unknown', null, 'empty input (0 bytes)')
  const sniff = sniffAudio(bytes)
  const fail = (what: string) => audioError(id, sniff.container, sniff.codec, what)
  if (sniff.container === 'unknown') throw fail(`not WAV, FLAC, Ogg, MP3, AIFF, CAF, Wave64, NIST SPHERE, Sun/NeXT AU, IRCAM, HTK, AVR, WVE, MAT4, PVF, PAF, 8SVX, MPC2K, VOC, MAT5, MIDI SDS or FastTracker 2 XI: ${sniff.problems.join('; ')}`)
  if (sniff.container === 'wav' && sniff.codec === 'mp3') return decodeMp3Wav(bytes, options)
  if (sniff.container === 'wav') return decodeWav(bytes, id, maxSamples)
  if (sniff.container === 'aiff' || sniff.container === 'caf' || sniff.container === 'w64' || sniff.container === 'sphere' || sniff.container === 'au' || RARE_CONTAINERS.has(sniff.container)) return decodePcmContainer(bytes, id, maxSamples)
  const fatal = sniff.problems.filter((p) => !tolerated.test(p))
  if (fatal.length) throw fail(fatal.join('; '))
  if (!sniff.codec) throw fail('unknown codec')
  const channels = sniff.channels ?? 1
  if (sniff.declaredFrames !== null && sniff.declaredFramesRate && sniff.sampleRate) {
    const atRate = Math.ceil(sniff.declaredFrames * sniff.sampleRate / sniff.declaredFramesRate)
    if (atRate * channels > maxSamples) throw fail(`header declares ${sniff.declaredFrames} frames × ${channels} channels, over the limit of ${maxSamples} samples`)
  }
  // lossy codecs: the WASM decoders are libsndfile's own libraries (see DecodeOptions.prefer); FLAC: both are exact
  const prefer = options.prefer ?? defaultDecoder(sniff)
  const warnings = sniff.problems.filter((p) => !untrainableProblem.test(p))
  /** Why training fails on this row; empty: it reads these samples. */
  const untrainable = sniff.problems.filter((p) => untrainableProblem.test(p))
  if (sniff.untrainable) untrainable.push(sniff.untrainable)
  let flac: FlacStream | undefined
  if (sniff.container === 'flac') {
    try {
      flac = splitFlacFrames(bytes, flacStart(bytes))
    } catch (e) {
      throw fail((e as Error).message)
    }
    const problem = flacFormatProblem(flac)
    if (problem) throw fail(problem)
    warnings.push(...flac.warnings)
    untrainable.push(...flac.damage)
  }
  let raw: RawDecode
  let webcodecs = false
  let mp3TagFrame = false
  try {
    if (sniff.codec === 'flac' && ownFlacDecoder(bytes, sniff, flac)) {
      raw = decodeFlacOwn(bytes, sniff, flac, maxSamples)
    } else if (prefer === 'webcodecs') {
      try {
        const r = await decodeWebCodecs(bytes, sniff, maxSamples, timeoutMs, options.streamDecoders, flac)
        raw = r
        webcodecs = true
        mp3TagFrame = r.mp3TagFrame
      } catch (e) {
        if (!(e instanceof WebCodecsUnavailable)) throw e
        warnings.push(`WebCodecs unavailable (${e.message}); decoded with WASM`)
        raw = await decodeWasm(bytes, sniff, maxSamples, flac?.frames)
      }
    } else {
      raw = await decodeWasm(bytes, sniff, maxSamples, flac?.frames)
    }
  } catch (e) {
    if (e instanceof MixscopeError) throw e
    throw fail((e as Error).message)
  }
  warnings.push(...raw.warnings)
  untrainable.push(...raw.damage)
  const out = finish(raw, sniff, webcodecs, mp3TagFrame, warnings, untrainable)
  const frames = out.channels[0].length
  return {
    sampleRate: out.sampleRate, channels: out.channels, frames, decoder: raw.decoder, container: sniff.container, codec: sniff.codec, warnings,
    trainable: untrainable.length === 0, untrainable: untrainable.length ? untrainable.join('; ') : null,
  }
}

/**
 * MPEG Layer III in a WAV (format tag 0x55): libsndfile hands the `data` chunk to mpg123 (`mpeg_decode.c`), so its
 * samples are those of the same frames as an MP3 file (any Xing/LAME tag in them used as there).
 */
async function decodeMp3Wav(bytes: Uint8Array, options: DecodeOptions): Promise<DecodedAudio> {
  const { sniff, layout } = sniffWavLayout(bytes)
  const fatal = blockingProblems(sniff)
  if (!layout || fatal.length) throw audioError(options.id, 'wav', 'mp3', fatal.join('; ') || 'no data chunk')
  const data = bytes.subarray(layout.dataOffset, layout.dataOffset + Math.min(layout.dataSize, bytes.length - layout.dataOffset))
  if (data.length === 0) throw audioError(options.id, 'wav', 'mp3', 'empty data chunk (0 bytes of MPEG frames)')
  const inner = await decodeAudio(data, options)
  if (inner.container !== 'mp3') throw audioError(options.id, 'wav', 'mp3', `the data chunk of a format-tag-0x55 WAV is not MPEG Layer III frames (read as ${inner.container})`)
  const warnings = [...sniff.problems.filter((p) => !fatal.includes(p)), ...inner.warnings]
  const declared = mp3WavFrames(bytes.length, data)
  if (declared === null || declared === inner.frames) return { ...inner, container: 'wav', warnings }
  if (inner.frames > declared) {
    // libsndfile reads no further than mpg123's estimate
    const channels = cut(inner.channels, 0, declared)
    return { ...inner, channels, frames: declared, container: 'wav', warnings: [...warnings, `decoded ${inner.frames} frames; libsndfile reads the ${declared} that mpg123 estimates from the file's size`] }
  }
  const why = `decodes ${inner.frames} of the ${declared} frames libsndfile declares (mpg123's estimate from the file's size): libsndfile's read comes up short, and training fails on that`
  return { ...inner, container: 'wav', warnings, trainable: false, untrainable: inner.untrainable ? `${inner.untrainable}; ${why}` : why }
}

/**
 * The frames libsndfile declares for an MPEG Layer III WAV: mpg123's estimate from the file's size
 * (`mpg123EstimatedFrames`), or null when the data starts with a Xing/Info frame count (the MP3 file's length then).
 * @param fileBytes the whole WAV file's size, bytes
 * @param data its data chunk
 */
export function mp3WavFrames(fileBytes: number, data: Uint8Array): number | null {
  const first = firstMpegFrame(data, 0)
  if (!first || sniffAudio(data).declaredFrames !== null) return null
  return mpg123EstimatedFrames(fileBytes, first.header)
}

/** Where `fLaC` starts in a native FLAC file: 0, or after an ID3v2 tag. */
export function flacStart(b: Uint8Array): number {
  if (ascii(b, 0, 3) !== 'ID3' || b.length < 10) return 0
  return 10 + (((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f)) + (b[5] & 0x10 ? 10 : 0)
}

/** Whether this FLAC stream (native or in Ogg) needs the TypeScript decoder (see `needsOwnFlacDecoder`). */
function ownFlacDecoder(bytes: Uint8Array, sniff: AudioSniff, flac: FlacStream | undefined): boolean {
  if (flac) return needsOwnFlacDecoder(flac) !== null
  const bits = sniff.bitsPerSample
  return bits !== 8 && bits !== 16 && bits !== 24
}

/** Decodes FLAC with flac-decoder.ts: native (frames from the splitter) or Ogg FLAC (one frame per packet). */
function decodeFlacOwn(bytes: Uint8Array, sniff: AudioSniff, flac: FlacStream | undefined, maxSamples: number): RawDecode {
  const warnings: string[] = []
  let frames: Uint8Array[]
  let offsets: number[] | undefined
  let info
  if (flac) {
    frames = flac.frames
    offsets = flac.offsets
    info = flac.info
  } else {
    const ogg = readOggPackets(bytes)
    warnings.push(...ogg.warnings)
    // packet 0: 0x7F FLAC mapping header with STREAMINFO at 17; then the other metadata blocks; then audio frames
    const head = ogg.packets[0].data
    info = parseStreamInfo(head, 17)
    frames = ogg.packets.slice(1 + ((head[7] << 8) | head[8])).map((p) => p.data)
  }
  const r = decodeFlacFrames(frames, info, maxSamples, offsets)
  if (r.frames === 0) throw new Error(`js:flac decoded no samples${r.errors.length ? ` (${r.errors.slice(0, 5).join('; ')})` : ''}`)
  return { sampleRate: sniff.sampleRate!, channels: r.channels, decoder: 'js:flac', warnings, damage: r.errors.length ? [`js:flac: ${r.errors.slice(0, 5).join('; ')}`] : [] }
}

/**
 * The decoder family `decodeAudio` tries first when not told: WebCodecs for FLAC where it exists, WASM otherwise.
 *
 * @param s the sniffed stream (its codec decides)
 */
function defaultDecoder(s: Pick<AudioSniff, 'codec'>): 'webcodecs' | 'wasm' {
  return hasWebCodecs() && s.codec === 'flac' ? 'webcodecs' : 'wasm'
}

/**
 * Trims and resamples so that every decoder path returns libsndfile's rate and length; a stream that decodes to fewer
 * samples than its header declares fails training (fairseq2 reads the declared count and fails a short read).
 */
function finish(raw: RawDecode, s: AudioSniff, webcodecs: boolean, mp3TagFrame: boolean, warnings: string[], untrainable: string[]): { sampleRate: number; channels: Float32Array[] } {
  let channels = raw.channels
  let rate = raw.sampleRate
  let expected: number | null = s.declaredFrames
  if (s.codec === 'opus') {
    const target = s.sampleRate ?? 48000
    if (s.declaredFrames !== null && rate === 48000) channels = cut(channels, 0, s.declaredFrames)
    if (rate !== target) {
      // WebCodecs decodes Opus at 48 kHz only: bring it to the rate libsndfile decodes at
      channels = resampleChannels(channels, rate, target)
      rate = target
    }
    expected = s.declaredFrames === null ? null : Math.floor(s.declaredFrames * target / 48000)
    if (expected !== null) channels = cut(channels, 0, expected)
  } else if (s.codec === 'mp3' && webcodecs) {
    // WebCodecs keeps the encoder delay and padding; remove them as mpg123's gapless mode does (LAME tag only)
    if (s.leadingSkip !== null && s.declaredFrames !== null) channels = cut(channels, s.leadingSkip + MP3_DECODER_DELAY, s.declaredFrames)
    else if (mp3TagFrame) warnings.push('MP3 has a Xing/Info frame without a LAME tag: encoder delay not removed')
  } else if ((s.codec === 'vorbis' || s.codec === 'flac') && expected !== null) {
    // libsndfile reads no further than the declared length (a FLAC stream with more frames: a second stream appended)
    channels = cut(channels, 0, expected)
  }
  const frames = channels[0].length
  if (expected !== null && frames < expected) {
    untrainable.push(`decodes ${frames} of the ${expected} samples its header declares: libsndfile's read comes up short, and training fails on that`)
  } else if (expected !== null && frames !== expected) {
    warnings.push(`decoded ${frames} frames but the header declares ${expected}`)
  }
  return { sampleRate: rate, channels }
}

function cut(channels: Float32Array[], start: number, length: number): Float32Array[] {
  return channels.map((c) => (start === 0 && c.length <= length ? c : c.slice(start, start + length)))
}

/** One item for `decodeMany`. */
export interface DecodeItem { id: string; bytes: Uint8Array }

/** Per-item result of `decodeMany`: the audio, or the error message. */
export type DecodeResult = { id: string; ok: true; audio: DecodedAudio } | { id: string; ok: false; error: string }

/** Options of `decodeMany`: `decodeAudio`'s (its `id` is replaced by each item's) and how many decode at once. */
export interface DecodeManyOptions extends Omit<DecodeOptions, 'id'> {
  /**
   * Items in flight at once (default 1). WebCodecs decodes off this thread, so several files in flight hide its
   * per-chunk latency; the WASM decoders run on this thread and gain nothing from it.
   */
  concurrency?: number
}

/**
 * Decodes several items; a failure is recorded for that item and the rest still decode. Results keep input order.
 */
export async function decodeMany(items: DecodeItem[], options: DecodeManyOptions = {}): Promise<DecodeResult[]> {
  const { concurrency = 1, ...decodeOptions } = options
  return mapLimit(items, concurrency, async (item): Promise<DecodeResult> => {
    try {
      return { id: item.id, ok: true, audio: await decodeAudio(item.bytes, { ...decodeOptions, id: item.id }) }
    } catch (e) {
      return { id: item.id, ok: false, error: (e as Error).message }
    }
  })
}
