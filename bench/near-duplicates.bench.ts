/**
 * Near-duplicate fingerprints: time per hour of audio of mixscope's speech fingerprint beside Chromaprint's `fpcalc`
 * on the same audio (the planted set of test/audit/near-duplicates/planted.ts, its FLAC clips joined into one 16 kHz WAV
 * by sox; clips decoded by ffmpeg, so fpcalc's process start counts once), and the LSH search with its verification over the set's clips.
 * mixscope's figures exclude decoding (the deep audit decodes anyway); fpcalc's include its decoding of the WAV.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { findNearDuplicates, speechFingerprint, type Fingerprint } from '../src/engine/index.ts'
import { plantedSet } from '../test/audit/near-duplicates/planted.ts'
import type { BenchRow } from './table.ts'

function f32(file: string): Float32Array {
  const out = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'f32le', '-ac', '1', '-ar', '16000', '-'], { maxBuffer: 1 << 30 })
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4).slice()
}

export async function runNearDuplicatesBench(): Promise<BenchRow[]> {
  const set = await plantedSet()
  const joined = join(set.root, '..', 'all-clips.wav')
  execFileSync('sox', [...set.clips.map((c) => c.file).filter((f) => !f.endsWith('.opus') && !f.endsWith('.mp3')), '-r', '16000', '-c', '1', '-b', '16', joined])
  const long = f32(joined)
  const hours = long.length / 16000 / 3600
  const rows: BenchRow[] = []
  const repeats = 5
  speechFingerprint(long) // warm up
  let t0 = performance.now()
  for (let i = 0; i < repeats; i++) speechFingerprint(long.subarray(0, Math.min(long.length, 16000 * 60)))
  const window = Math.min(long.length, 16000 * 60) / 16000 / 3600
  const ours = (performance.now() - t0) / repeats / window / 1000
  rows.push({ benchmark: 'mixscope speech fingerprint (one thread, 60 s pieces)', 'audio h': window, 's per hour of audio': ours })
  t0 = performance.now()
  for (let i = 0; i < repeats; i++) execFileSync('fpcalc', ['-raw', '-ignore-errors', '-length', '0', joined], { stdio: ['ignore', 'pipe', 'ignore'] })
  const fpcalc = (performance.now() - t0) / repeats / hours / 1000
  rows.push({ benchmark: `Chromaprint fpcalc ${execFileSync('fpcalc', ['-version']).toString().trim().split(' ')[2]} (decode + fingerprint, ${(hours * 60).toFixed(1)} min WAV)`, 'audio h': hours, 's per hour of audio': fpcalc })

  const clips = set.clips.map((c) => f32(c.file))
  const clipHours = clips.reduce((h, x) => h + x.length, 0) / 16000 / 3600
  t0 = performance.now()
  const fps: (Fingerprint | null)[] = clips.map((x) => speechFingerprint(x))
  const perClip = (performance.now() - t0) / clipHours / 1000
  const none = new Uint32Array(0)
  t0 = performance.now()
  const search = findNearDuplicates(fps.length, (i) => fps[i]?.bands ?? none, (i) => fps[i], () => false, (i) => set.clips[i].split)
  const searchMs = performance.now() - t0
  rows.push({ benchmark: `mixscope fingerprint, ${clips.length} planted clips one by one`, 'audio h': clipHours, 's per hour of audio': perClip })
  rows.push({ benchmark: `mixscope LSH search + verification, ${clips.length} clips (${search.compared} pairs compared)`, 'audio h': clipHours, 's per hour of audio': searchMs / clipHours / 1000,
    'bytes per clip': fps.reduce((n, f) => n + (f ? 3 + 4 * f.bands.length + 4 * f.words.length + f.active.length : 0), 0) / clips.length })
  return rows
}
