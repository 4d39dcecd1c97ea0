/**
 * The WebCodecs path (Chromium, in a Worker or a page): demux here, decode with `AudioDecoder`, handling the quirks
 * in docs/browser-notes.md: FLAC needs `fLaC`+STREAMINFO as `description`; Opus needs OpusHead and always outputs 48 kHz
 * (the caller trims and resamples); Vorbis needs the Xiph-laced headers; MP3 keeps the encoder delay and padding
 * (the caller trims) and its Xing/Info frame is left out here.
 */
import type { FlacStream } from './flac.ts'
import { splitMp3Frames } from './mp3.ts'
import { readOggPackets, xiphLace } from './ogg.ts'
import type { AudioSniff } from './sniff-result.ts'
import type { RawDecode } from './wasm.ts'

/** Thrown when this browser's WebCodecs cannot decode the stream at all (the caller falls back to WASM). */
export class WebCodecsUnavailable extends Error {}

/** True where a WebCodecs `AudioDecoder` exists (Chromium pages and workers; not Node 20). */
export function hasWebCodecs(): boolean {
  return typeof AudioDecoder !== 'undefined' && typeof EncodedAudioChunk !== 'undefined'
}

/** What to feed the decoder. */
interface Plan { config: AudioDecoderConfig; chunks: Uint8Array[]; warnings: string[]; mp3TagFrame?: boolean }

function plan(bytes: Uint8Array, s: AudioSniff, flac?: FlacStream): Plan {
  const numberOfChannels = s.channels ?? 1
  if (s.container === 'flac') {
    if (!flac) throw new Error('native FLAC needs its frames split first (splitFlacFrames)')
    return { config: { codec: 'flac', sampleRate: s.sampleRate!, numberOfChannels, description: flac.description }, chunks: flac.frames, warnings: [] }
  }
  if (s.container === 'mp3') {
    const m = splitMp3Frames(bytes)
    return { config: { codec: 'mp3', sampleRate: s.sampleRate!, numberOfChannels }, chunks: m.frames, warnings: m.warnings, mp3TagFrame: m.hadTagFrame }
  }
  const ogg = readOggPackets(bytes)
  const p = ogg.packets
  if (s.codec === 'opus') {
    return { config: { codec: 'opus', sampleRate: 48000, numberOfChannels, description: p[0].data }, chunks: p.slice(2).map((x) => x.data), warnings: ogg.warnings }
  }
  if (s.codec === 'vorbis') {
    if (p.length < 3) throw new Error(`Ogg Vorbis stream has ${p.length} packets, needs 3 header packets`)
    return { config: { codec: 'vorbis', sampleRate: s.sampleRate!, numberOfChannels, description: xiphLace(p.slice(0, 3).map((x) => x.data)) }, chunks: p.slice(3).map((x) => x.data), warnings: ogg.warnings }
  }
  if (s.codec === 'flac') {
    const headers = 1 + ((p[0].data[7] << 8) | p[0].data[8])
    return { config: { codec: 'flac', sampleRate: s.sampleRate!, numberOfChannels, description: p[0].data.slice(9, 9 + 42) }, chunks: p.slice(headers).map((x) => x.data), warnings: ogg.warnings }
  }
  throw new WebCodecsUnavailable(`no WebCodecs mapping for ${s.container}/${s.codec}`)
}

/** Most `AudioDecoder`s one stream is spread over (FLAC only: its frames decode independently). */
export const DEFAULT_STREAM_DECODERS = 4

/**
 * Fewest frames per decoder before a FLAC stream is split when not told (32 frames: ~8 s at 16 kHz). Short clips
 * gain nothing from more decoders (each costs a configure and a flush); several clips in flight hide the latency
 * better (measured on 132 clips of 3–10 s: 1 decoder each, 4 clips in flight 103–118 ms; 4 decoders each 120–138 ms).
 */
const MIN_FRAMES_PER_DECODER = 32

/** `isConfigSupported` answers by config, so that a batch of files with one format asks once. */
const supportCache = new Map<string, Promise<boolean>>()

function supported(config: AudioDecoderConfig): Promise<boolean> {
  const key = `${config.codec}/${config.sampleRate}/${config.numberOfChannels}`
  let answer = supportCache.get(key)
  if (!answer) {
    // a rejection counts as "not supported" (WASM then decodes), and is not kept as a rejection for every later file
    answer = AudioDecoder.isConfigSupported(config).then((r) => r.supported === true, () => false)
    supportCache.set(key, answer)
  }
  return answer
}

/**
 * Output of one decoder, in order: written into `block` (one plane per channel, preallocated from the frame count
 * and STREAMINFO's largest block size) while it fits, else kept as pieces (`[piece][channel]`).
 */
interface Lane { block: Float32Array[] | null; pieces: Float32Array[][]; frames: number }

/** STREAMINFO's maximum block size from a FLAC `description` (`fLaC`, block header, STREAMINFO), 0 when absent. */
function maxBlockSize(description: AllowSharedBufferSource | undefined): number {
  if (!(description instanceof Uint8Array) || description.length < 42) return 0
  return (description[10] << 8) | description[11]
}

/** Takes one `AudioData` into the lane as float32 planes. */
function take(lane: Lane, data: AudioData, channels: number): void {
  const n = data.numberOfFrames
  if (lane.block && lane.frames + n > lane.block[0].length) {
    lane.pieces.push(lane.block.map((p) => p.subarray(0, lane.frames)))
    lane.block = null
  }
  const planes = lane.block ? lane.block.map((p) => p.subarray(lane.frames, lane.frames + n)) : Array.from({ length: channels }, () => new Float32Array(n))
  for (let c = 0; c < channels; c++) data.copyTo(planes[c], { planeIndex: Math.min(c, data.numberOfChannels - 1), format: 'f32-planar' })
  if (!lane.block) lane.pieces.push(planes)
  lane.frames += n
}

/** The lanes' samples joined in order, one array per channel. */
function join(lanes: Lane[], channels: number, total: number): Float32Array[] {
  const parts = (lane: Lane): Float32Array[][] => (lane.block ? [...lane.pieces, lane.block.map((p) => p.subarray(0, lane.frames))] : lane.pieces)
  const all = lanes.flatMap(parts)
  if (all.length === 1 && all[0][0].length === all[0][0].buffer.byteLength / 4) return all[0]
  return Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(total)
    let at = 0
    for (const p of all) { out.set(p[c], at); at += p[c].length }
    return out
  })
}

/**
 * Decodes with WebCodecs.
 *
 * Chromium decodes on its media threads and hands each chunk back with a few thread hops, so one `AudioDecoder` is
 * bound by per-chunk latency rather than by the codec: FLAC frames, which decode independently given STREAMINFO, are
 * cut into up to `streamDecoders` contiguous ranges decoded concurrently and joined in order (identical samples;
 * measured 162 → 74 ms for 608 s of speech with 4 decoders). Other codecs carry state from packet to packet and use
 * one decoder.
 *
 * @param streamDecoders decoders for one FLAC stream (at most one per frame; 1: no split); default: one per 32 frames,
 * at most `DEFAULT_STREAM_DECODERS`
 * @param flac native FLAC: the stream from `splitFlacFrames` (its warnings are the caller's)
 * @returns planar samples as the decoder produced them (Opus at 48 kHz, MP3 untrimmed: see `mp3TagFrame`)
 * @throws WebCodecsUnavailable when the config is not supported; Error for decode failures, over-limit output or a
 * flush that does not finish within `timeoutMs`
 */
export async function decodeWebCodecs(
  bytes: Uint8Array, s: AudioSniff, maxSamples: number, timeoutMs: number, streamDecoders?: number, flac?: FlacStream,
): Promise<RawDecode & { mp3TagFrame: boolean }> {
  if (!hasWebCodecs()) throw new WebCodecsUnavailable('no AudioDecoder in this environment')
  const { config, chunks, warnings, mp3TagFrame = false } = plan(bytes, s, flac)
  if (!await supported(config)) throw new WebCodecsUnavailable(`AudioDecoder does not support ${config.codec} at ${config.sampleRate} Hz × ${config.numberOfChannels}`)
  const channels = config.numberOfChannels
  const independent = config.codec === 'flac'
  const count = !independent ? 1 : streamDecoders !== undefined
    ? Math.max(1, Math.min(streamDecoders, chunks.length))
    : Math.max(1, Math.min(DEFAULT_STREAM_DECODERS, Math.floor(chunks.length / MIN_FRAMES_PER_DECODER)))
  const per = Math.ceil(chunks.length / count)
  // FLAC: each lane's output fits in (its frames × the largest block size), allocated once when within the cap
  const block = independent ? maxBlockSize(config.description) : 0
  const lanes: Lane[] = Array.from({ length: count }, (_, l) => {
    const capacity = Math.max(0, Math.min(per, chunks.length - l * per)) * block
    const preallocate = capacity > 0 && capacity * channels * count <= maxSamples
    return { block: preallocate ? Array.from({ length: channels }, () => new Float32Array(capacity)) : null, pieces: [], frames: 0 }
  })
  let total = 0
  let rate = 0
  let failure: Error | null = null
  const decoders: AudioDecoder[] = []
  const output = (lane: Lane) => (data: AudioData) => {
    try {
      if (failure) return
      rate = data.sampleRate
      total += data.numberOfFrames
      if (total * channels > maxSamples) throw new Error(`decoded more than the limit of ${maxSamples} samples`)
      take(lane, data, channels)
    } catch (e) {
      failure = e as Error
    } finally {
      data.close()
    }
  }
  try {
    for (const lane of lanes) {
      const decoder = new AudioDecoder({
        output: output(lane),
        error: (e) => { failure = failure ?? new Error(`AudioDecoder error: ${e.message}`) },
      })
      decoders.push(decoder)
      try {
        decoder.configure(config)
      } catch (e) {
        throw new WebCodecsUnavailable(`AudioDecoder.configure(${config.codec}) threw: ${(e as Error).message}`)
      }
    }
    // feed the lanes round-robin, one chunk each, so that every decoder has work from the start
    for (let i = 0; i < per && !failure; i++) {
      for (let l = 0; l < count; l++) {
        const k = l * per + i
        if (k < chunks.length) decoders[l].decode(new EncodedAudioChunk({ type: 'key', timestamp: k * 1000, data: chunks[k] }))
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`AudioDecoder.flush() did not finish within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      await Promise.race([Promise.all(decoders.map((d) => d.flush())), timeout])
    } catch (e) {
      if (!failure) failure = e as Error
    } finally {
      clearTimeout(timer)
    }
    if (failure) throw failure
  } finally {
    for (const d of decoders) if (d.state !== 'closed') d.close()
  }
  if (total === 0) throw new Error(`AudioDecoder (${config.codec}) produced no samples from ${chunks.length} chunks`)
  const planar = join(lanes, channels, total)
  return { sampleRate: rate, channels: planar, decoder: `webcodecs:${s.codec}`, warnings, damage: [], mp3TagFrame }
}
