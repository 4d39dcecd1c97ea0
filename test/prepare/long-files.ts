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
 * Compares `<dir>/<name>.whole.flac` and `<dir>/<name>.segment.flac` (the clip from 150.37 s, 21.5 s long) of each
 * 48 kHz input with the reference dataprep's path on `references[name]`: libsndfile's read (`sf.SoundFile`, as NeMo's
 * and fairseq2's readers), the channel mean, `torchaudio.functional.resample` to 16 kHz and PCM_16 as libsndfile
 * writes float. Each clip has the reference's length, and no sample is more than 1 LSB off.
 * @param declared frames of each input at 48 kHz
 */
export function expectLibsndfileTorchaudio(dir: string, references: Record<string, string>, declared: Record<string, number>): void {
  const names = Object.keys(references)
  const report = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf, torch, torchaudio
d, refs = sys.argv[1], json.loads(sys.argv[2])
def reference(name, offset, count):
    with sf.SoundFile(refs[name]) as f:
        f.seek(int(offset * f.samplerate))
        wav = f.read(frames=count, dtype='float32', always_2d=True)
    x = torch.from_numpy(wav).mean(dim=1)
    y = torchaudio.functional.resample(x, 48000, 16000).numpy()
    return np.clip(np.round(y * 32768), -32768, 32767).astype(np.int32)   # PCM_16 as libsndfile writes float
out = {}
for name in refs:
    for part, offset, count in [('whole', 0, -1), ('segment', 150.37, int(21.5 * 48000))]:
        ours = sf.read(f'{d}/{name}.{part}.flac', dtype='int16')[0].astype(np.int32)
        ref = reference(name, offset, count)
        out[f'{name} {part}'] = {'frames': len(ours), 'refFrames': len(ref), 'maxDiff': int(np.abs(ours - ref).max()) if len(ours) == len(ref) else None}
print(json.dumps(out))
`, [dir, JSON.stringify(references)])) as Record<string, { frames: number; refFrames: number; maxDiff: number | null }>
  for (const name of names) {
    expect(report[`${name} whole`], name).toEqual({ frames: Math.ceil(declared[name] / 3), refFrames: Math.ceil(declared[name] / 3), maxDiff: expect.any(Number) })
    expect(report[`${name} whole`].maxDiff, name).toBeLessThanOrEqual(1)
    expect(report[`${name} segment`].frames, name).toBe(21.5 * 16000)
    expect(report[`${name} segment`].refFrames, name).toBe(21.5 * 16000)
    expect(report[`${name} segment`].maxDiff, name).toBeLessThanOrEqual(1)
  }
}
