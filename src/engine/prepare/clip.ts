/**
 * One clip through the reference dataprep's audio steps (docs/reference-pipeline.md §17, OA:audio_tools.py):
 * decode (as libsndfile, to float32), multi-channel → mean over the smallest dimension, resample to 16 kHz as
 * `torchaudio.functional.resample`, `audio_size` = samples at 16 kHz, encode (16-bit FLAC or Ogg Vorbis).
 * Runs wherever it is called: the CLI's worker threads, the browser's helper Workers, or in-thread.
 */
import { ascii } from '../audio/bytes.ts'
import { decodeAudio } from '../audio/decode.ts'
import { defaultMaxSamples } from '../audio/types.ts'
import { decodeWavMono16 } from '../audio/wav.ts'
import { toMono } from '../audio/mono.ts'
import { PCM_HEAD_BYTES, pcmLayoutFromHead, readPcmFrames, type RangeReader } from '../audio/pcm-stream.ts'
import { openStreamedDecode, type StreamedDecode } from '../audio/streamed-decode.ts'
import { createFlacEncoder, type Flac } from './encode/flac.ts'
import type { AudioFormat, ClipEncoder } from './encode/types.ts'
import { createVorbisEncoder } from './encode/vorbis.ts'
import { resampleTorchaudio, TorchaudioResampleStream } from './resample-torchaudio.ts'
import type { AudioSegment } from './inputs/types.ts'

/** The dataprep's output rate. */
export const PREPARE_RATE = 16_000

/** One clip to convert. */
export interface ClipTask {
  /** The input audio file's bytes. */
  bytes: Uint8Array
  /** For messages (`train.tsv:12`). */
  id: string
  format: AudioFormat
  /** Only this stretch of the file (NeMo `offset` + `duration`), seconds. */
  segment?: AudioSegment
}

/**
 * Frames `[start, end)` of a segment at `rate`, as NeMo reads one with soundfile: seek to `int(offset × rate)`, read
 * `int(duration × rate)` frames (fewer at the end of the file).
 * @throws Error when the segment starts at or after the end
 */
export function segmentFrames(segment: AudioSegment, rate: number, frames: number, id: string): [number, number] {
  const start = Math.floor(segment.offset * rate)
  if (start >= frames) throw new Error(`${id}: the segment starts at ${segment.offset} s, after the end of the audio (${(frames / rate).toFixed(3)} s)`)
  const end = segment.duration === null ? frames : Math.min(frames, start + Math.floor(segment.duration * rate))
  return [start, end]
}

/** A converted clip, or why it could not be. */
export type ClipResult =
  | {
    ok: true; audio: Uint8Array; audioSize: number; sourceRate: number; sourceChannels: number; sourceFrames: number
    /** Converted a stretch at a time from ranged reads (`createStreamedClipConverter`), not from the whole file. */
    streamed?: true
  }
  | { ok: false; error: string; reason?: 'missing-audio' | 'unreadable-audio' }

/** Converts clips (in this thread, or on a pool). */
export type ClipProcessor = (task: ClipTask, signal?: AbortSignal) => Promise<ClipResult>

/**
 * The reference's mono mix: `wav.mean(dim=argmin(wav.shape))` on fairseq2's `[frames, channels]` waveform. With
 * more frames than channels that is the channel mean; a clip with no more frames than channels (ties go to the
 * frames dimension) is averaged over time instead, one value per channel — mimicked, so that such a clip gets the
 * `audio_size` the reference gives it.
 */
export function referenceMono(channels: Float32Array[]): Float32Array {
  const frames = channels[0]?.length ?? 0
  if (channels.length > 1 && frames <= channels.length) {
    return Float32Array.from(channels, (ch) => {
      let s = 0
      for (const v of ch) s = Math.fround(s + v)
      return Math.fround(s / Math.max(1, frames))
    })
  }
  return toMono(channels)
}

/** Mono samples of this thread's last 16-bit WAV clip, reused (each clip copies or resamples them before it awaits anything). */
let monoScratch: Float32Array = new Float32Array(0)

function isWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE'
}

/**
 * 16 kHz mono float32 of one input file, as the reference's `_post_process` leaves it.
 * @param maxSamples most samples (frames × channels) decoded from the file; more is refused with `decodeAudio`'s
 * "over the limit" error (`overSampleLimit`)
 */
export async function clipWaveform(bytes: Uint8Array, id: string, segment?: AudioSegment, maxSamples = defaultMaxSamples): Promise<{ samples: Float32Array; rate: number; channels: number; frames: number }> {
  if (segment) {
    const audio = await decodeAudio(bytes, { id, maxSamples })
    const [start, end] = segmentFrames(segment, audio.sampleRate, audio.frames, id)
    const mono = referenceMono(audio.channels.map((c) => c.subarray(start, end)))
    return { samples: resampleTorchaudio(mono, audio.sampleRate, PREPARE_RATE), rate: audio.sampleRate, channels: audio.channels.length, frames: end - start }
  }
  if (isWav(bytes)) {
    // 16-bit PCM WAV, the usual raw corpus: decoded straight to the mono mix, into a buffer reused clip after clip
    // (the same values as decodeAudio + referenceMono; a clip with no more frames than channels takes that path)
    const mono = decodeWavMono16(bytes, id, maxSamples, monoScratch)
    if (mono && (mono.channels === 1 || mono.frames > mono.channels)) {
      if (mono.samples.buffer !== monoScratch.buffer) monoScratch = mono.samples // a longer clip: keep its buffer
      // never hand out the buffer itself: the clip's encoding awaits, and this thread's next clip may refill it
      const samples = mono.sampleRate === PREPARE_RATE ? mono.samples.slice() : resampleTorchaudio(mono.samples, mono.sampleRate, PREPARE_RATE)
      return { samples, rate: mono.sampleRate, channels: mono.channels, frames: mono.frames }
    }
  }
  const audio = await decodeAudio(bytes, { id, maxSamples })
  const mono = referenceMono(audio.channels)
  return { samples: resampleTorchaudio(mono, audio.sampleRate, PREPARE_RATE), rate: audio.sampleRate, channels: audio.channels.length, frames: audio.frames }
}

/**
 * A processor converting in this thread. `loadFlac` is called once, on the first FLAC clip (Node and the browser
 * load libflacjs differently).
 * @param options.maxSamples most samples (frames × channels) of a file decoded whole (default `defaultMaxSamples`,
 * 2^26); a longer file fails with the "over the limit" error that sends it to the streamed path (run.ts
 * `rowConverter`). Tests pass a small one to put short files down that path.
 */
export function createClipProcessor(loadFlac: () => Promise<Flac>, options: { maxSamples?: number } = {}): ClipProcessor {
  const maxSamples = options.maxSamples ?? defaultMaxSamples
  let flac: Promise<ClipEncoder> | null = null
  let vorbis: Promise<ClipEncoder> | null = null
  const encoder = (format: AudioFormat) => format === 'flac' ? (flac ??= loadFlac().then(createFlacEncoder)) : (vorbis ??= createVorbisEncoder())
  return async (task, signal) => {
    signal?.throwIfAborted()
    try {
      const wave = await clipWaveform(task.bytes, task.id, task.segment, maxSamples)
      if (wave.samples.length === 0) return { ok: false, error: `${task.id}: no samples after decoding` }
      const audio = (await encoder(task.format)).encode(wave.samples, PREPARE_RATE)
      return { ok: true, audio, audioSize: wave.samples.length, sourceRate: wave.rate, sourceChannels: wave.channels, sourceFrames: wave.frames }
    } catch (error) {
      return { ok: false, error: (error as Error).message }
    }
  }
}

/** Input files over this size (bytes) are converted a stretch at a time when they hold raw samples (`StreamedClips`). */
export const STREAM_INPUT_BYTES = 32 << 20

/** Input read per step of a streamed clip, bytes (whole frames). */
export const STREAM_CHUNK_BYTES = 4 << 20

/** One clip from a file read by ranges. */
export interface StreamedClipTask {
  /** Reads bytes `[start, end)` of the input file. */
  read: RangeReader
  /** The file's size, bytes. */
  size: number
  id: string
  format: AudioFormat
  segment?: AudioSegment
}

/**
 * Converts a clip from a file too long to hold: `null` when the file is neither raw samples (`pcmLayoutFromHead`)
 * nor a compressed format read in pieces (`openStreamedDecode`: FLAC, Ogg, MP3, the coded WAV/AIFC/Wave64/CAF streams), for the
 * whole-file path to decide.
 */
export type StreamedClipConverter = (task: StreamedClipTask, signal?: AbortSignal) => Promise<ClipResult | null>

/**
 * The dataprep's clip path for a raw-sample file of any length (WAV/RIFX/RF64, Wave64, AIFF/AIFC, CAF, NIST SPHERE, Sun/NeXT AU):
 * the same bytes `createClipProcessor` writes for it, from a few MiB in memory besides the encoded clip. It reads
 * the frames the reference reads (all, or a segment's `[int(offset·rate), +int(duration·rate))`, as `segmentFrames`)
 * `STREAM_CHUNK_BYTES` at a time, mixes each stretch to mono (`toMono`: per frame, so stretches do not change it),
 * resamples through `TorchaudioResampleStream` and encodes through the encoder's stream. A compressed file goes the
 * same way from its decoder's pieces (`streamCompressed`), with the samples `decodeAudio` gives. Clips run one at a time
 * (a second waits), so that at most one long clip is held.
 * @param options.chunkBytes input read per step (default `STREAM_CHUNK_BYTES`; tests use small ones)
 */
export function createStreamedClipConverter(loadFlac: () => Promise<Flac>, options: { chunkBytes?: number } = {}): StreamedClipConverter {
  const chunkBytes = options.chunkBytes ?? STREAM_CHUNK_BYTES
  let flac: Promise<ClipEncoder> | null = null
  let vorbis: Promise<ClipEncoder> | null = null
  const encoder = (format: AudioFormat) => format === 'flac' ? (flac ??= loadFlac().then(createFlacEncoder)) : (vorbis ??= createVorbisEncoder())
  let queue: Promise<unknown> = Promise.resolve()
  return (task, signal) => {
    const run = queue.then(() => streamClip(task, encoder, chunkBytes, signal))
    queue = run.catch(() => undefined)
    return run
  }
}

async function streamClip(task: StreamedClipTask, encoder: (format: AudioFormat) => Promise<ClipEncoder>, chunkBytes: number, signal?: AbortSignal): Promise<ClipResult | null> {
  signal?.throwIfAborted()
  const head = await task.read(0, Math.min(task.size, PCM_HEAD_BYTES))
  const file = pcmLayoutFromHead(head, task.size)
  if (!file) return streamCompressed(task, head, encoder, chunkBytes, signal)
  const { layout, sampleRate } = file
  try {
    const [start, end] = task.segment ? segmentFrames(task.segment, sampleRate, layout.frames, task.id) : [0, layout.frames]
    const frames = end - start
    const chunkFrames = Math.max(1, Math.floor(chunkBytes / layout.blockAlign))
    if (frames <= layout.channels) {
      // no more frames than channels: the reference's mono averages over time (`referenceMono`), one value per channel
      let channels: Float32Array[] = Array.from({ length: layout.channels }, () => new Float32Array(0))
      for await (const stretch of readPcmFrames(task.read, layout, start, end, frames)) channels = stretch
      const samples = resampleTorchaudio(referenceMono(channels), sampleRate, PREPARE_RATE)
      if (samples.length === 0) return { ok: false, error: `${task.id}: no samples after decoding` }
      return { ok: true, audio: (await encoder(task.format)).encode(samples, PREPARE_RATE), audioSize: samples.length, sourceRate: sampleRate, sourceChannels: layout.channels, sourceFrames: frames, streamed: true }
    }
    const resampler = new TorchaudioResampleStream(sampleRate, PREPARE_RATE, frames)
    const out = (await encoder(task.format)).stream(PREPARE_RATE, resampler.outLength)
    // mono per frame (`toMono`, which is `referenceMono` for more frames than channels), so stretches do not change it
    try {
      for await (const channels of readPcmFrames(task.read, layout, start, end, chunkFrames)) {
        signal?.throwIfAborted()
        out.push(resampler.push(toMono(channels)))
      }
    } catch (error) {
      try { out.finish() } catch { /* the encoder is released either way */ }
      throw error
    }
    if (!resampler.done) throw new Error(`${task.id}: resampling did not complete`)
    return { ok: true, audio: out.finish(), audioSize: resampler.outLength, sourceRate: sampleRate, sourceChannels: layout.channels, sourceFrames: frames, streamed: true }
  } catch (error) {
    if (signal?.aborted) throw error
    return { ok: false, error: (error as Error).message }
  }
}

/**
 * The clip path for a compressed file (FLAC, Ogg, MP3, the coded WAV/AIFC/Wave64/CAF streams: `openStreamedDecode`): its decoded pieces,
 * the frames of the clip kept (`segmentFrames`), mixed, resampled and encoded as `streamClip` does raw samples.
 * @returns null when the file is not one streamed here (the whole-file path decides)
 */
async function streamCompressed(task: StreamedClipTask, head: Uint8Array, encoder: (format: AudioFormat) => Promise<ClipEncoder>, chunkBytes: number, signal?: AbortSignal): Promise<ClipResult | null> {
  let file: StreamedDecode | null
  try {
    file = await openStreamedDecode(task.read, task.size, head, chunkBytes)
  } catch (error) {
    if (signal?.aborted) throw error
    return { ok: false, error: `${task.id}: ${(error as Error).message}` }
  }
  if (!file) return null
  const { sampleRate, channels } = file
  try {
    const [start, end] = task.segment ? segmentFrames(task.segment, sampleRate, file.frames, task.id) : [0, file.frames]
    const frames = end - start
    const pieces = clipPieces(file.pieces(), start, end)
    if (frames <= channels) {
      // no more frames than channels: the reference's mono averages over time (`referenceMono`), one value per channel
      const held: Float32Array[][] = []
      for await (const p of pieces) held.push(p.map((c) => c.slice()))
      const joined = Array.from({ length: channels }, (_, c) => Float32Array.from(held.flatMap((p) => [...p[c]])))
      const samples = resampleTorchaudio(referenceMono(joined), sampleRate, PREPARE_RATE)
      if (samples.length === 0) return { ok: false, error: `${task.id}: no samples after decoding` }
      return { ok: true, audio: (await encoder(task.format)).encode(samples, PREPARE_RATE), audioSize: samples.length, sourceRate: sampleRate, sourceChannels: channels, sourceFrames: frames, streamed: true }
    }
    const resampler = new TorchaudioResampleStream(sampleRate, PREPARE_RATE, frames)
    const out = (await encoder(task.format)).stream(PREPARE_RATE, resampler.outLength)
    try {
      for await (const piece of pieces) {
        signal?.throwIfAborted()
        out.push(resampler.push(toMono(piece)))
      }
    } catch (error) {
      try { out.finish() } catch { /* the encoder is released either way */ }
      throw error
    }
    if (!resampler.done) throw new Error(`${task.id}: resampling did not complete`)
    return { ok: true, audio: out.finish(), audioSize: resampler.outLength, sourceRate: sampleRate, sourceChannels: channels, sourceFrames: frames, streamed: true }
  } catch (error) {
    if (signal?.aborted) throw error
    return { ok: false, error: `${task.id}: ${(error as Error).message}` }
  }
}

/** The parts of `pieces` (frames from 0 on) that fall in frames `[start, end)`; stops reading at `end`. */
async function* clipPieces(pieces: AsyncGenerator<Float32Array[]>, start: number, end: number): AsyncGenerator<Float32Array[]> {
  let at = 0
  try {
    for await (const p of pieces) {
      const n = p[0].length
      const from = Math.max(0, start - at)
      const to = Math.min(n, end - at)
      if (to > from) yield from === 0 && to === n ? p : p.map((c) => c.subarray(from, to))
      at += n
      if (at >= end) return
    }
  } finally {
    await pieces.return(undefined)
  }
}
