/**
 * What the long-input tests share (long-audio, long-compressed, long-ogg): a ranged reader of a file on disk, the
 * converted clip of a streamed result, and the comparison of converted 48 kHz clips with libsndfile + torchaudio.
 */
import { statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { expect } from 'vitest'
import type { ClipResult } from '../../src/engine/prepare/clip.ts'
import { runPython } from './python.ts'

/** A ranged reader of a file on disk that records the largest read. */
export function fileReader(path: string) {
  const stats = { largest: 0, reads: 0 }
  const read = async (start: number, end: number) => {
    stats.largest = Math.max(stats.largest, end - start)
    stats.reads++
    const fh = await open(path, 'r')
    try {
      const out = new Uint8Array(end - start)
      const { bytesRead } = await fh.read(out, 0, end - start, start)
      return out.subarray(0, bytesRead)
    } finally {
      await fh.close()
    }
  }
  return { read, stats, size: statSync(path).size }
}

/** The converted clip of `r`. @throws when it was not streamed (`null`) or failed */
export function ok(r: ClipResult | null): Extract<ClipResult, { ok: true }> {
  if (!r) throw new Error('not streamed')
  if (!r.ok) throw new Error(r.error)
  return r
}

/**
 * Compares `<dir>/<name>.whole.flac` and `<dir>/<name>.segment.flac` (the clip `segment` of each input) with the
 * reference dataprep's path on `references[name]`: libsndfile's read (`sf.SoundFile`, as NeMo's and fairseq2's
 * readers), the channel mean, `torchaudio.functional.resample` to 16 kHz and PCM_16 as libsndfile writes float. Each
 * clip has the reference's length, and no sample is more than 1 LSB off.
 * @param declared frames of each input (libsndfile's count)
 * @param segment seconds (its offset·rate and duration·rate whole frames at every rate used)
 */
export function expectLibsndfileTorchaudio(dir: string, references: Record<string, string>, declared: Record<string, number>, segment = { offset: 150.37, duration: 21.5 }): void {
  const names = Object.keys(references)
  const report = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf, torch, torchaudio
d, refs, offset, duration = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
def reference(name, offset, duration):
    # the whole read, then the segment's frames (what a seek and a read give; libsndfile seeks in no coded stream)
    wav, rate = sf.read(refs[name], dtype='float32', always_2d=True)
    start = int(offset * rate)
    wav = wav[start:] if duration < 0 else wav[start:start + int(duration * rate)]
    x = torch.from_numpy(wav).mean(dim=1)
    y = (x if rate == 16000 else torchaudio.functional.resample(x, rate, 16000)).numpy()
    return np.clip(np.round(y * 32768), -32768, 32767).astype(np.int32), sf.info(refs[name]).frames, rate   # PCM_16 as libsndfile writes float
out = {}
for name in refs:
    for part, off, dur in [('whole', 0, -1), ('segment', offset, duration)]:
        ours = sf.read(f'{d}/{name}.{part}.flac', dtype='int16')[0].astype(np.int32)
        ref, frames, rate = reference(name, off, dur)
        out[f'{name} {part}'] = {'frames': len(ours), 'refFrames': len(ref), 'sourceFrames': frames, 'maxDiff': int(np.abs(ours - ref).max()) if len(ours) == len(ref) else None}
print(json.dumps(out))
`, [dir, JSON.stringify(references), String(segment.offset), String(segment.duration)])) as Record<string, { frames: number; refFrames: number; sourceFrames: number; maxDiff: number | null }>
  for (const name of names) {
    const whole = report[`${name} whole`]
    expect(whole.sourceFrames, name).toBe(declared[name])
    expect(whole.frames, name).toBe(whole.refFrames)
    expect(whole.maxDiff, name).toBeLessThanOrEqual(1)
    expect(report[`${name} segment`].frames, name).toBe(segment.duration * 16000)
    expect(report[`${name} segment`].refFrames, name).toBe(segment.duration * 16000)
    expect(report[`${name} segment`].maxDiff, name).toBeLessThanOrEqual(1)
  }
}
