/**
 * What the long-input tests share (long-audio, long-compressed, long-ogg, long-rare): a ranged reader of a file on
 * disk, the converted clip of a streamed result, long files written by libsndfile and taken through the dataprep's
 * route for files over the sample limit, and the comparison of converted clips with libsndfile + torchaudio.
 */
import { statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode, streamClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createClipProcessor, type ClipResult } from '../../src/engine/prepare/clip.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { rowConverter } from '../../src/engine/prepare/run.ts'
import type { PlannedRow } from '../../src/engine/prepare/types.ts'
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

/** A long file to write: name, python-soundfile format and subtype, rate, channels, seconds. */
export type LongFile = [name: string, format: string, subtype: string, rate: number, channels: number, seconds: number]

/**
 * Writes `files` into `dir` with libsndfile (python3-soundfile), a second at a time (libvorbis crashes on one long
 * write through libsndfile): a sine per channel and noise drawn from `seed`.
 * @returns libsndfile's frame count of each file (`sf.info`)
 */
export function writeLongFiles(dir: string, files: LongFile[], seed: number): Record<string, number> {
  return JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d, files, seed = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
out = {}
for name, fmt, sub, rate, ch, sec in files:
    n = sec * rate
    with sf.SoundFile(f'{d}/{name}', 'w', rate, ch, format=fmt, subtype=sub) as f:
        for at in range(0, n, rate):
            t = np.arange(at, min(n, at + rate), dtype=np.float64)[:, None]
            c = np.arange(ch)[None, :]
            x = 0.25 * np.sin(t * (0.013 - 0.001 * c) * 48000 / rate + c) / (1 + 0.2 * c) + 0.01 * rng.standard_normal((len(t), ch))
            f.write(x.astype(np.float32))
    out[name] = sf.info(f'{d}/{name}').frames
print(json.dumps(out))
`, [dir, JSON.stringify(files), String(seed)])) as Record<string, number>
}

/**
 * The dataprep's route for files over a whole-file sample limit, taken with `cap` for the limit: each file of
 * `longDir` in `names` is refused whole, then converted a stretch at a time, whole and as `segment`, each giving the
 * bytes of the whole-file path at the default limit; the clips are written to `<outDir>/<name>.whole.flac` and
 * `.segment.flac` (for `expectLibsndfileTorchaudio`).
 * @param declared libsndfile's frame count of each file
 */
export async function expectStreamedOverLimit(longDir: string, outDir: string, names: string[], declared: Record<string, number>, cap: number, segment: { offset: number; duration: number }): Promise<void> {
  const input = await listInput(await createFsSource(longDir))
  const row = (path: string, part?: { offset: number; duration: number }): PlannedRow => ({ index: 0, where: 'manifest.json:1', text: 'x', audio: { kind: 'file', path, ...(part ? { segment: part } : {}) } })
  const capped = createClipProcessor(loadLibFlacNode, { maxSamples: cap })
  const wholePath = rowConverter(input, capped, 'flac')
  const convert = rowConverter(input, capped, 'flac', streamClipNode)
  const atDefault = rowConverter(input, processClipNode, 'flac')
  for (const name of names) {
    // read whole, it is refused (what streaming is for)
    const refused = await wholePath(row(name))
    expect(!refused.ok && refused.error, name).toMatch(new RegExp(`(over|more than) the limit of ${cap} samples`))
    const whole = ok(await convert(row(name)))
    expect(whole.streamed, name).toBe(true)
    expect(whole.sourceFrames, name).toBe(declared[name])
    const seg = ok(await convert(row(name, segment)))
    for (const [got, part] of [[whole, undefined], [seg, segment]] as const) {
      const want = ok(await atDefault(row(name, part)))
      expect(got.audioSize, name).toBe(want.audioSize)
      expect(Buffer.from(got.audio).equals(Buffer.from(want.audio)), `${name} ${JSON.stringify(part)}: the whole-file path's bytes`).toBe(true)
    }
    writeFileSync(join(outDir, `${name}.whole.flac`), whole.audio)
    writeFileSync(join(outDir, `${name}.segment.flac`), seg.audio)
  }
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
