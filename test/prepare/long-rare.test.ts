/**
 * Long files of libsndfile's rarer coded formats and of HTK (coded-stream.ts, pcm-stream.ts): G.721 and G.723 (24
 * and 40 kbit/s) ADPCM in Sun/NeXT AU, Ensoniq PAF 24-bit, FastTracker 2 XI delta PCM and HTK, written here by
 * python3-soundfile (libsndfile's own writers) over a small whole-file sample limit (`createClipProcessor`'s
 * `maxSamples`, 2^18), the path of files over 2^26 samples: refused whole, then converted a stretch at a time by the
 * dataprep, whole and as a segment, to the bytes of the whole-file path at the default limit, and within 1 LSB of
 * libsndfile's decode (`sf.read`) mixed, resampled by torchaudio and written as PCM_16. The files over 1 MiB (the
 * head the streamed path reads first) need the file's size to be read: HTK is recognised by it, and the coded data
 * of AU, PAF and XI runs to the file's end.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode, streamClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { rowConverter } from '../../src/engine/prepare/run.ts'
import type { PlannedRow } from '../../src/engine/prepare/types.ts'
import { createClipProcessor } from '../../src/engine/prepare/clip.ts'
import { PCM_HEAD_BYTES } from '../../src/engine/audio/pcm-stream.ts'
import { runPython } from './python.ts'
import { expectLibsndfileTorchaudio, ok } from './long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-long-rare-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('rare coded files and HTK over the sample limit', () => {
  const cap = 2 ** 18
  // name, format, subtype, rate, channels, seconds
  const files: [string, string, string, number, number, number][] = [
    ['long-g721.au', 'AU', 'G721_32', 48000, 1, 45],
    ['long-g723-24.au', 'AU', 'G723_24', 8000, 1, 40],
    ['long-g723-40.au', 'AU', 'G723_40', 8000, 1, 40],
    ['long-paf24.paf', 'PAF', 'PCM_24', 48000, 2, 12],
    ['long-dpcm16.xi', 'XI', 'DPCM_16', 44100, 1, 12],
    ['long.htk', 'HTK', 'PCM_16', 16000, 1, 40],
  ]
  const longDir = join(dir, 'long')
  mkdirSync(longDir)
  // written a second at a time; libsndfile's frame counts back
  const make = () => JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d, files = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(5)
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
`, [longDir, JSON.stringify(files)])) as Record<string, number>

  it('is refused whole, then converted whole and as a segment by the dataprep, as libsndfile reads it', async () => {
    const declared = make() // libsndfile's frame counts
    for (const [name, , , , ch] of files) expect(declared[name] * ch, name).toBeGreaterThan(cap)
    // the head the streamed path reads first is not the whole file for these
    for (const name of ['long-g721.au', 'long-paf24.paf', 'long-dpcm16.xi', 'long.htk']) expect(statSync(join(longDir, name)).size, name).toBeGreaterThan(PCM_HEAD_BYTES)
    const input = await listInput(await createFsSource(longDir))
    const row = (path: string, segment?: { offset: number; duration: number }): PlannedRow => ({ index: 0, where: 'manifest.json:1', text: 'x', audio: { kind: 'file', path, ...(segment ? { segment } : {}) } })
    const capped = createClipProcessor(loadLibFlacNode, { maxSamples: cap })
    const wholePath = rowConverter(input, capped, 'flac')
    const convert = rowConverter(input, capped, 'flac', streamClipNode)
    const atDefault = rowConverter(input, processClipNode, 'flac')
    const segment = { offset: 3.37, duration: 5.5 }
    for (const [name] of files) {
      // read whole, it is refused (what streaming is for)
      const refused = await wholePath(row(name))
      expect(!refused.ok && refused.error, name).toMatch(/(over|more than) the limit of 262144 samples/)
      const whole = ok(await convert(row(name)))
      expect(whole.streamed, name).toBe(true)
      expect(whole.sourceFrames, name).toBe(declared[name])
      const seg = ok(await convert(row(name, segment)))
      for (const [got, part] of [[whole, undefined], [seg, segment]] as const) {
        const want = ok(await atDefault(row(name, part)))
        expect(got.audioSize, name).toBe(want.audioSize)
        expect(Buffer.from(got.audio).equals(Buffer.from(want.audio)), `${name} ${JSON.stringify(part)}: the whole-file path's bytes`).toBe(true)
      }
      writeFileSync(join(dir, `${name}.whole.flac`), whole.audio)
      writeFileSync(join(dir, `${name}.segment.flac`), seg.audio)
    }
    expectLibsndfileTorchaudio(dir, Object.fromEntries(files.map(([n]) => [n, join(longDir, n)])), declared, segment)
  }, 120_000)
})
