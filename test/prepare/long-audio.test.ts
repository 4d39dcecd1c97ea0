/**
 * Long input files: raw-sample files converted a stretch at a time (clip.ts `createStreamedClipConverter`). A file
 * over `decodeAudio`'s 2^26-sample limit, made here by python3-soundfile, comes out as libsndfile's decode mixed
 * and written as PCM_16 (within 1 LSB), read in chunks of a few MiB; smaller files in every raw container give the
 * same bytes as the whole-file path, whatever the stretch size, segments included; the streamed resampler gives
 * `resampleTorchaudio`'s samples bit for bit however the input is cut.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode, streamClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { rowConverter } from '../../src/engine/prepare/run.ts'
import type { PlannedRow } from '../../src/engine/prepare/types.ts'
import { createStreamedClipConverter, STREAM_CHUNK_BYTES } from '../../src/engine/prepare/clip.ts'
import type { AudioFormat } from '../../src/engine/prepare/encode/types.ts'
import { resampleTorchaudio, TorchaudioResampleStream } from '../../src/engine/prepare/resample-torchaudio.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { defaultMaxSamples } from '../../src/engine/audio/types.ts'
import { runPython } from './python.ts'
import { fileReader, ok } from './long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-long-audio-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('TorchaudioResampleStream', () => {
  it('gives resampleTorchaudio\'s samples bit for bit, however the input is cut', () => {
    const random = mulberry32(7)
    for (const [rate, frames] of [[48000, 48000 * 3 + 7], [44100, 44100 + 3], [8000, 20001], [22050, 5], [11025, 1], [16000, 999]]) {
      const x = new Float32Array(frames)
      for (let i = 0; i < frames; i++) x[i] = 0.6 * Math.sin(i * 0.05) + 0.2 * (random() * 2 - 1)
      const whole = resampleTorchaudio(x, rate, 16000, 'js')
      for (const piece of [1, 97, 4096, frames]) {
        const stream = new TorchaudioResampleStream(rate, 16000, frames)
        const parts: Float32Array[] = []
        for (let at = 0; at < frames; at += piece) parts.push(stream.push(x.subarray(at, at + piece)))
        const got = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
        let at = 0
        for (const p of parts) { got.set(p, at); at += p.length }
        expect(stream.done, `${rate} Hz × ${frames}, pieces of ${piece}`).toBe(true)
        expect(got.length).toBe(whole.length)
        expect(Buffer.from(got.buffer).equals(Buffer.from(whole.buffer)), `${rate} Hz × ${frames}, pieces of ${piece}`).toBe(true)
      }
    }
  })
})

describe('streamed clips of raw-sample files', () => {
  // python3-soundfile writes each file (libsndfile's own writers): container, subtype, rate, channels, seconds
  const files: [string, string, string, number, number, number][] = [
    ['s16-48k-stereo.wav', 'WAV', 'PCM_16', 48000, 2, 3.3],
    ['s24-44k-mono.wav', 'WAV', 'PCM_24', 44100, 1, 2.1],
    ['f32-22k-3ch.wav', 'WAV', 'FLOAT', 22050, 3, 1.7],
    ['u8-8k.wav', 'WAV', 'PCM_U8', 8000, 1, 2.0],
    ['s16-16k.aiff', 'AIFF', 'PCM_16', 16000, 2, 2.5],
    ['s32-32k.w64', 'W64', 'PCM_32', 32000, 1, 1.2],
    ['ulaw-8k.caf', 'CAF', 'ULAW', 8000, 2, 1.5],
    ['s16-16k.rf64', 'RF64', 'PCM_16', 16000, 1, 1.0],
  ]
  runPython(`
import sys, json, numpy as np, soundfile as sf
d, files = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(5)
for name, fmt, sub, rate, ch, sec in files:
    n = int(rate * sec)
    t = np.arange(n)[:, None] / rate
    x = 0.5 * np.sin(2 * np.pi * (220 + 110 * np.arange(ch)) * t) + 0.1 * rng.standard_normal((n, ch))
    sf.write(f'{d}/{name}', np.clip(x, -1, 1).astype(np.float32), rate, format=fmt, subtype=sub)
`, [dir, JSON.stringify(files)])

  const segments = [undefined, { offset: 0.25, duration: 0.5 }, { offset: 1.0, duration: null }, { offset: 0.1, duration: 100 }, { offset: 0.5, duration: 0.0001 }]

  it('writes the bytes of the whole-file path (FLAC and Vorbis, segments too), read a stretch at a time', async () => {
    for (const [name] of files) {
      const path = join(dir, name)
      const bytes = new Uint8Array(readFileSync(path))
      for (const chunkBytes of [4093, 1 << 22]) {
        const convert = createStreamedClipConverter(loadLibFlacNode, { chunkBytes })
        for (const format of ['flac', 'ogg'] as AudioFormat[]) {
          for (const segment of format === 'ogg' ? segments.slice(0, 2) : segments) {
            const what = `${name} ${format} ${JSON.stringify(segment)} stretches of ${chunkBytes} B`
            const whole = await processClipNode({ bytes, id: name, format, ...(segment ? { segment } : {}) })
            const file = fileReader(path)
            const streamed = await convert({ read: file.read, size: file.size, id: name, format, ...(segment ? { segment } : {}) })
            if (!whole.ok) {
              // a segment shorter than one frame: no samples either way
              expect(streamed, what).toEqual(whole)
              continue
            }
            const got = ok(streamed)
            expect(got.audioSize, what).toBe(whole.audioSize)
            expect(got.sourceFrames, what).toBe(whole.sourceFrames)
            expect(Buffer.from(got.audio).equals(Buffer.from(whole.audio)), what).toBe(true)
            expect(file.stats.largest, what).toBeLessThanOrEqual(Math.max(chunkBytes, 1 << 20))
          }
        }
      }
    }
  }, 60_000)

  it('fails a segment that starts after the end as the whole-file path does, and leaves other files to it', async () => {
    const path = join(dir, 's16-48k-stereo.wav')
    const file = fileReader(path)
    const r = await streamClipNode({ read: file.read, size: file.size, id: 'x', format: 'flac', segment: { offset: 10, duration: 1 } })
    expect(r?.ok).toBe(false)
    expect(r && !r.ok && r.error).toMatch(/after the end of the audio/)
    // a file that is neither raw samples nor a stream read in pieces (FLAC, Ogg, MP3, the coded WAV/AIFC/Wave64/CAF
    // streams: long-compressed.test.ts, long-ogg.test.ts) is left to the whole-file path (which says what it is)
    const junkPath = join(dir, 'x.bin')
    writeFileSync(junkPath, Buffer.concat([Buffer.from('JUNK'), Buffer.alloc(1600)]))
    const junk = fileReader(junkPath)
    expect(await streamClipNode({ read: junk.read, size: junk.size, id: 'a', format: 'flac' })).toBeNull()
  })
})

describe('a file over 2^26 samples', () => {
  // the 2^26-sample limit itself (the other long-input tests force short files down the streamed path with a small
  // limit): 8 channels, 16 kHz, 16-bit: 2^23 + 1,543 frames = 2^26 + 12,344 samples (134 MB) but a mono clip of only
  // 2^23 samples to resample (none: 16 kHz) and encode; the comparison is libsndfile's decode → mean → PCM_16
  // against the FLAC written, sample for sample
  const frames = 2 ** 23 + 1_543
  const longDir = join(dir, 'long')
  mkdirSync(longDir)
  const path = join(longDir, 'long.wav')
  const make = () => runPython(`
import sys, numpy as np, soundfile as sf
n = int(sys.argv[2])
t = np.arange(n, dtype=np.float64)
rng = np.random.default_rng(3)
x = np.empty((n, 8), np.int16)
for c in range(8):
    x[:, c] = (6000 * np.sin(t * (0.013 - 0.0011 * c) + c) + rng.integers(-300, 300, n)).astype(np.int16)
sf.write(sys.argv[1], x, 16000, subtype='PCM_16')
`, [path, String(frames)])

  it('is converted whole and as segments by the dataprep, as libsndfile reads it, in chunks of a few MiB', async () => {
    make()
    expect(frames * 8).toBeGreaterThan(defaultMaxSamples)
    const input = await listInput(await createFsSource(longDir))
    const reads = { largest: 0 }
    const source = input.source
    const read = source.read.bind(source)
    source.read = (path, start, end, options) => {
      reads.largest = Math.max(reads.largest, end - start)
      return read(path, start, end, options)
    }
    const row = (segment?: { offset: number; duration: number }): PlannedRow => ({ index: 0, where: 'manifest.json:1', text: 'x', audio: { kind: 'file', path: 'long.wav', ...(segment ? { segment } : {}) } })
    // read whole, it is refused (what streaming is for)
    const refused = await rowConverter(input, processClipNode, 'flac')(row())
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.error).toMatch(/over the limit of 67108864 samples/)
    reads.largest = 0

    const convert = rowConverter(input, processClipNode, 'flac', streamClipNode)
    const whole = ok(await convert(row()))
    expect(whole.audioSize).toBe(frames)
    expect(reads.largest).toBeLessThanOrEqual(Math.max(STREAM_CHUNK_BYTES, 1 << 20))
    writeFileSync(join(dir, 'whole.flac'), whole.audio)
    const seg = ok(await convert(row({ offset: 300.3, duration: 25.5 })))
    writeFileSync(join(dir, 'segment.flac'), seg.audio)
    const report = JSON.parse(runPython(`
import sys, io, json, numpy as np, soundfile as sf, torch
d = sys.argv[1]
def reference(offset, count):
    with sf.SoundFile(f'{d}/long/long.wav') as f:                 # libsndfile, as NeMo's and fairseq2's readers
        f.seek(int(offset * f.samplerate))
        wav = f.read(frames=count, dtype='float32', always_2d=True)
    x = torch.from_numpy(wav).mean(dim=1).numpy()
    b = io.BytesIO(); sf.write(b, x, 16000, format='WAV', subtype='PCM_16'); b.seek(0)
    return sf.read(b, dtype='int16')[0]
out = {}
for name, offset, count in [('whole', 0, -1), ('segment', 300.3, int(25.5 * 16000))]:
    ours = sf.read(f'{d}/{name}.flac', dtype='int16')[0]
    ref = reference(offset, count)
    out[name] = {'frames': len(ours), 'refFrames': len(ref), 'maxDiff': int(np.abs(ours.astype(np.int32) - ref.astype(np.int32)).max()) if len(ours) == len(ref) else None}
print(json.dumps(out))
`, [dir]))
    expect(report.whole).toEqual({ frames, refFrames: frames, maxDiff: expect.any(Number) })
    expect(report.whole.maxDiff).toBeLessThanOrEqual(1)
    expect(report.segment.refFrames).toBe(Math.floor(25.5 * 16000))
    expect(report.segment.frames).toBe(report.segment.refFrames)
    expect(report.segment.maxDiff).toBeLessThanOrEqual(1)
  }, 120_000)
})
