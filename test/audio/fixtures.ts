/** Loads the committed audio fixtures (test/fixtures/audio, made by scripts/make-audio-fixtures.sh). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const fixtureDir = join(import.meta.dirname, '../fixtures/audio')

/** One entry of fixtures.json: an encoded file and its libsndfile reference decode. */
export interface AudioFixture {
  file: string
  container: 'wav' | 'flac' | 'ogg' | 'mp3'
  codec: 'pcm' | 'float' | 'flac' | 'vorbis' | 'opus' | 'mp3'
  sampleRate: number
  channels: number
  frames: number
  lossless: boolean
  /** float32 LE interleaved `[frames, channels]`, decoded by `referenceTool`. */
  reference: string
  /** `libsndfile`, or `ffmpeg` where libsndfile cannot decode the file (FLAC in Ogg). */
  referenceTool: 'libsndfile' | 'ffmpeg'
  /** Whether libsndfile, and so the training reference, can decode this file. */
  libsndfileReads: boolean
}

export const fixtures: AudioFixture[] = JSON.parse(readFileSync(join(fixtureDir, 'fixtures.json'), 'utf8')).fixtures

export function fixtureBytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(fixtureDir, file)))
}

/** The reference decode as planar channels `[channels][frames]`. */
export function referencePlanar(f: AudioFixture): Float32Array[] {
  const raw = readFileSync(join(fixtureDir, f.reference))
  const inter = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
  const frames = inter.length / f.channels
  return Array.from({ length: f.channels }, (_, c) => {
    const out = new Float32Array(frames)
    for (let i = 0; i < frames; i++) out[i] = inter[i * f.channels + c]
    return out
  })
}
