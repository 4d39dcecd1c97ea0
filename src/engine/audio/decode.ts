/**
 * `decodeAudio`: encoded bytes (one row's `audio_bytes`) → planar float32 at the native rate, as libsndfile would
 * return it to the training reference. WAV is parsed here; other codecs go to WebCodecs (where present and
 * preferred) or the WASM decoders, then get the same trimming so both paths agree with libsndfile's length.
 */
import { MixscopeError } from '../findings.ts'
import { mapLimit } from '../util/map-limit.ts'
import { resampleChannels } from './resample.ts'
import { sniffAudio, type AudioSniff } from './sniff.ts'
import { audioError, defaultMaxSamples, type DecodedAudio, type DecodeOptions } from './types.ts'
import { decodeWasm, type RawDecode } from './wasm.ts'
import { decodeWav } from './wav.ts'
import { decodeWebCodecs, hasWebCodecs, WebCodecsUnavailable } from './webcodecs.ts'

/** Sniff problems that do not stop decoding (they become warnings). */
const tolerated = /^(truncated data|valid bits|no final Ogg page|truncated stream)/

/** Ogg FLAC decodes here, but libsndfile 1.2.0 (the reference's decoder) refuses it: training would fail on the row. */
export const OGG_FLAC_WARNING = 'FLAC in Ogg: libsndfile (the training reference\'s decoder) cannot decode it, so training fails on this row'

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
  if (sniff.container === 'unknown') throw fail(`not WAV, FLAC, Ogg or MP3: ${sniff.problems.join('; ')}`)
  if (sniff.container === 'wav') return decodeWav(bytes, id, maxSamples)
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
  const warnings = sniff.problems.slice()
  if (sniff.container === 'ogg' && sniff.codec === 'flac') warnings.push(OGG_FLAC_WARNING)
  let raw: RawDecode
  let webcodecs = false
  let mp3TagFrame = false
  try {
    if (prefer === 'webcodecs') {
      try {
        const r = await decodeWebCodecs(bytes, sniff, maxSamples, timeoutMs, options.streamDecoders)
        raw = r
        webcodecs = true
        mp3TagFrame = r.mp3TagFrame
      } catch (e) {
        if (!(e instanceof WebCodecsUnavailable)) throw e
        warnings.push(`WebCodecs unavailable (${e.message}); decoded with WASM`)
        raw = await decodeWasm(bytes, sniff, maxSamples)
      }
    } else {
      raw = await decodeWasm(bytes, sniff, maxSamples)
    }
  } catch (e) {
    if (e instanceof MixscopeError) throw e
    throw fail((e as Error).message)
  }
  warnings.push(...raw.warnings)
  const out = finish(raw, sniff, webcodecs, mp3TagFrame, warnings)
  const frames = out.channels[0].length
  return { sampleRate: out.sampleRate, channels: out.channels, frames, decoder: raw.decoder, container: sniff.container, codec: sniff.codec, warnings }
}

/**
 * The decoder family `decodeAudio` tries first when not told: WebCodecs for FLAC where it exists, WASM otherwise.
 *
 * @param s the sniffed stream (its codec decides)
 */
export function defaultDecoder(s: Pick<AudioSniff, 'codec'>): 'webcodecs' | 'wasm' {
  return hasWebCodecs() && s.codec === 'flac' ? 'webcodecs' : 'wasm'
}

/** Trims and resamples so that every decoder path returns libsndfile's rate and length. */
function finish(raw: RawDecode, s: AudioSniff, webcodecs: boolean, mp3TagFrame: boolean, warnings: string[]): { sampleRate: number; channels: Float32Array[] } {
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
  } else if (s.codec === 'vorbis' && expected !== null) {
    channels = cut(channels, 0, expected)
  }
  const frames = channels[0].length
  if (expected !== null && frames !== expected) warnings.push(`decoded ${frames} frames but the header declares ${expected}`)
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
