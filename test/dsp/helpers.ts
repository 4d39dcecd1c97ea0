/** Fixture loaders for the DSP and GPU tests: WAV (16-bit PCM) and `.npy` goldens from test/fixtures/features. */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { npyDecode, type NpyArray } from '../../src/engine/core/npy.ts'

export const featureFixtures = fileURLToPath(new URL('../fixtures/features/', import.meta.url))

/** Metadata written by make_features.py. */
export interface FeaturesMeta {
  wavs: { file: string; sample_rate: number; samples: number; frames: number }[]
}

export function readFeaturesMeta(): FeaturesMeta {
  return JSON.parse(readFileSync(featureFixtures + 'features.json', 'utf8')) as FeaturesMeta
}

export function readJsonFixture<T>(name: string): T {
  return JSON.parse(readFileSync(featureFixtures + name, 'utf8')) as T
}

export function readNpy(name: string): NpyArray {
  return npyDecode(new Uint8Array(readFileSync(featureFixtures + name)))
}

/** Reads a mono 16-bit PCM WAV as float32 samples / 32768 (what libsndfile and torchaudio return). */
export function readWav16(name: string): { sampleRate: number; samples: Float32Array } {
  const bytes = readFileSync(featureFixtures + name)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let pos = 12
  let sampleRate = 0
  while (pos + 8 <= bytes.length) {
    const id = bytes.toString('latin1', pos, pos + 4)
    const size = view.getUint32(pos + 4, true)
    if (id === 'fmt ') {
      if (view.getUint16(pos + 8, true) !== 1 || view.getUint16(pos + 10, true) !== 1 || view.getUint16(pos + 22, true) !== 16) {
        throw new Error(`test: ${name} is not mono 16-bit PCM`)
      }
      sampleRate = view.getUint32(pos + 12, true)
    } else if (id === 'data') {
      const samples = new Float32Array(size / 2)
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(pos + 8 + 2 * i, true) / 32768
      return { sampleRate, samples }
    }
    pos += 8 + size + (size & 1)
  }
  throw new Error(`test: ${name} has no data chunk`)
}

/** Largest |a − b| over two equally long arrays (NaN compares as infinite). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`test: lengths differ: ${a.length} vs ${b.length}`)
  let m = 0
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i])
    m = Number.isNaN(d) ? Infinity : Math.max(m, d)
  }
  return m
}
