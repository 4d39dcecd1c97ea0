/**
 * The WebCodecs path (Chromium, in a Worker or a page): demux here, decode with `AudioDecoder`, handling the quirks
 * in BROWSER-NOTES: FLAC needs `fLaC`+STREAMINFO as `description`; Opus needs OpusHead and always outputs 48 kHz
 * (the caller trims and resamples); Vorbis needs the Xiph-laced headers; MP3 keeps the encoder delay and padding
 * (the caller trims) and its Xing/Info frame is left out here.
 */
import { splitFlacFrames } from './flac-frames.ts'
import { splitMp3Frames } from './mp3-frames.ts'
import { readOggPackets, xiphLace } from './ogg-packets.ts'
import type { AudioSniff } from './sniff.ts'
import type { RawDecode } from './wasm.ts'

/** Thrown when this browser's WebCodecs cannot decode the stream at all (the caller falls back to WASM). */
export class WebCodecsUnavailable extends Error {}

/** True where a WebCodecs `AudioDecoder` exists (Chromium pages and workers; not Node 20). */
export function hasWebCodecs(): boolean {
  return typeof AudioDecoder !== 'undefined' && typeof EncodedAudioChunk !== 'undefined'
}

/** What to feed the decoder. */
interface Plan { config: AudioDecoderConfig; chunks: Uint8Array[]; warnings: string[]; mp3TagFrame?: boolean }

function plan(bytes: Uint8Array, s: AudioSniff): Plan {
  const numberOfChannels = s.channels ?? 1
  if (s.container === 'flac') {
    const f = splitFlacFrames(bytes)
    return { config: { codec: 'flac', sampleRate: s.sampleRate!, numberOfChannels, description: f.description }, chunks: f.frames, warnings: f.warnings }
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

/**
 * Decodes with WebCodecs.
 *
 * @returns planar samples as the decoder produced them (Opus at 48 kHz, MP3 untrimmed: see `mp3TagFrame`)
 * @throws WebCodecsUnavailable when the config is not supported; Error for decode failures, over-limit output or a
 * flush that does not finish within `timeoutMs`
 */
export async function decodeWebCodecs(bytes: Uint8Array, s: AudioSniff, maxSamples: number, timeoutMs: number): Promise<RawDecode & { mp3TagFrame: boolean }> {
  if (!hasWebCodecs()) throw new WebCodecsUnavailable('no AudioDecoder in this environment')
  const { config, chunks, warnings, mp3TagFrame = false } = plan(bytes, s)
  const support = await AudioDecoder.isConfigSupported(config)
  if (!support.supported) throw new WebCodecsUnavailable(`AudioDecoder does not support ${config.codec} at ${config.sampleRate} Hz × ${config.numberOfChannels}`)
  const channels = config.numberOfChannels
  const pieces: Float32Array[][] = []
  let frames = 0
  let rate = 0
  let failure: Error | null = null
  const decoder = new AudioDecoder({
    output: (data) => {
      try {
        if (failure) return
        rate = data.sampleRate
        const n = data.numberOfFrames
        if ((frames + n) * channels > maxSamples) throw new Error(`decoded more than the limit of ${maxSamples} samples`)
        const planes: Float32Array[] = []
        for (let c = 0; c < channels; c++) {
          const plane = new Float32Array(n)
          data.copyTo(plane, { planeIndex: Math.min(c, data.numberOfChannels - 1), format: 'f32-planar' })
          planes.push(plane)
        }
        pieces.push(planes)
        frames += n
      } catch (e) {
        failure = e as Error
      } finally {
        data.close()
      }
    },
    error: (e) => { failure = failure ?? new Error(`AudioDecoder error: ${e.message}`) },
  })
  try {
    try {
      decoder.configure(config)
    } catch (e) {
      throw new WebCodecsUnavailable(`AudioDecoder.configure(${config.codec}) threw: ${(e as Error).message}`)
    }
    let t = 0
    for (const c of chunks) {
      if (failure) break
      decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp: t, data: c }))
      t += 1000
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`AudioDecoder.flush() did not finish within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      await Promise.race([decoder.flush(), timeout])
    } catch (e) {
      if (!failure) failure = e as Error
    } finally {
      clearTimeout(timer)
    }
    if (failure) throw failure
  } finally {
    if (decoder.state !== 'closed') decoder.close()
  }
  if (frames === 0) throw new Error(`AudioDecoder (${config.codec}) produced no samples from ${chunks.length} chunks`)
  const planar = Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(frames)
    let at = 0
    for (const p of pieces) { out.set(p[c], at); at += p[c].length }
    return out
  })
  return { sampleRate: rate, channels: planar, decoder: `webcodecs:${s.codec}`, warnings, mp3TagFrame }
}
