/**
 * Ogg Opus and FLAC in Ogg streamed (clip.ts → audio/streamed-decode.ts: Ogg pages read a window at a time, libopus /
 * flac-decoder.ts fed their packets). Short files give the bytes of the whole-file path whatever the read size; a file
 * over a small whole-file sample limit (8 channels, 9 s at 48 kHz, over 2^18 samples) is refused whole and streamed
 * by the dataprep, as libsndfile's decode (`sf.read`) mixed, resampled by torchaudio and written as PCM_16, within
 * 1 LSB (the 2^26 limit itself: long-audio.test.ts). Debian's libsndfile 1.2.0 cannot open FLAC in
 * Ogg, so that file's reference is libsndfile's decode of the native FLAC it was made from (ffmpeg `-c:a flac -f
 * ogg`, lossless: the same samples).
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode, streamClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { rowConverter } from '../../src/engine/prepare/run.ts'
import type { PlannedRow } from '../../src/engine/prepare/types.ts'
import { createClipProcessor, createStreamedClipConverter } from '../../src/engine/prepare/clip.ts'
import type { AudioFormat } from '../../src/engine/prepare/encode/types.ts'
import { runPython } from './python.ts'
import { expectLibsndfileTorchaudio, fileReader, ok } from './long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-long-ogg-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0

/** FLAC in Ogg from a native FLAC (or WAV) by ffmpeg: the same samples. */
function oggFlac(from: string, to: string): void {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', from, '-c:a', 'flac', '-f', 'ogg', to], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`)
}

describe('streamed clips of Ogg Opus and FLAC in Ogg', () => {
  // name, subtype (Opus by libsndfile; FLAC: a PCM WAV libsndfile writes, then ffmpeg), rate, channels, seconds
  const files: [string, string, number, number, number][] = [
    ['opus-48k-stereo.ogg', 'OPUS', 48000, 2, 3.3],
    ['opus-16k-mono.ogg', 'OPUS', 16000, 1, 2.1],
    ['opus-24k-6ch.ogg', 'OPUS', 24000, 6, 1.2],
    ['flac-44k-stereo.oga', 'PCM_16', 44100, 2, 2.9],
    ['flac-22k-mono-24bit.oga', 'PCM_24', 22050, 1, 2.2],
  ]
  it.runIf(hasFfmpeg)('writes the bytes of the whole-file path, read a stretch at a time', async () => {
    runPython(`
import sys, json, numpy as np, soundfile as sf
d, files = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(9)
for name, sub, rate, ch, sec in files:
    n = int(rate * sec)
    t = np.arange(n)[:, None] / rate
    x = np.clip(0.5 * np.sin(2 * np.pi * (220 + 110 * np.arange(ch)) * t) + 0.1 * rng.standard_normal((n, ch)), -1, 1).astype(np.float32)
    if sub == 'OPUS':
        sf.write(f'{d}/{name}', x, rate, format='OGG', subtype='OPUS')
    else:
        sf.write(f'{d}/{name}.wav', x, rate, subtype=sub)
`, [dir, JSON.stringify(files)])
    for (const [name, sub] of files) if (sub !== 'OPUS') oggFlac(join(dir, `${name}.wav`), join(dir, name))
    for (const [name] of files) {
      const path = join(dir, name)
      const bytes = new Uint8Array(readFileSync(path))
      for (const chunkBytes of [4093, 1 << 22]) {
        const convert = createStreamedClipConverter(loadLibFlacNode, { chunkBytes })
        for (const format of ['flac', 'ogg'] as AudioFormat[]) {
          for (const segment of [undefined, { offset: 0.25, duration: 0.5 }]) {
            const what = `${name} ${format} ${JSON.stringify(segment)} stretches of ${chunkBytes} B`
            const whole = await processClipNode({ bytes, id: name, format, ...(segment ? { segment } : {}) })
            const file = fileReader(path)
            const got = ok(await convert({ read: file.read, size: file.size, id: name, format, ...(segment ? { segment } : {}) }))
            const want = ok(whole)
            expect(got.sourceFrames, what).toBe(want.sourceFrames)
            expect(got.sourceRate, what).toBe(want.sourceRate)
            expect(Buffer.from(got.audio).equals(Buffer.from(want.audio)), what).toBe(true)
          }
        }
      }
    }
  }, 240_000)
})

describe('Ogg Opus and FLAC in Ogg over the sample limit', () => {
  // files over a small whole-file limit (`createClipProcessor`'s maxSamples, 2^18 samples) take the path of files
  // over 2^26 (the limit itself: long-audio.test.ts): refused whole, then streamed by the dataprep
  const cap = 2 ** 18
  const longDir = join(dir, 'long')
  mkdirSync(longDir)
  it.runIf(hasFfmpeg)('is refused whole, then converted whole and as a segment by the dataprep, as libsndfile reads it', async () => {
    // 48 kHz, 8 channels, 9 s: 3,456,000 samples; the FLAC in Ogg from a native FLAC libsndfile wrote
    const declared = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d = sys.argv[1]
rng = np.random.default_rng(3)
ch, n = 8, 9 * 48000
out = {}
for name, fmt, sub in [('long-8ch.opus', 'OGG', 'OPUS'), ('long-8ch.flac', 'FLAC', 'PCM_16')]:
    with sf.SoundFile(f'{d}/{name}', 'w', 48000, ch, format=fmt, subtype=sub) as f:
        for at in range(0, n, 48000):
            t = np.arange(at, min(n, at + 48000), dtype=np.float64)[:, None]
            c = np.arange(ch)[None, :]
            x = 0.25 * np.sin(t * (0.013 - 0.001 * c) + c) / (1 + 0.2 * c) + 0.002 * rng.standard_normal((len(t), ch))
            f.write(x.astype(np.float32))
    out[name] = sf.info(f'{d}/{name}').frames
print(json.dumps(out))
`, [longDir])) as Record<string, number>
    oggFlac(join(longDir, 'long-8ch.flac'), join(longDir, 'long-8ch.oga'))
    // the reference of the FLAC in Ogg: the native FLAC, moved out of the input folder
    renameSync(join(longDir, 'long-8ch.flac'), join(dir, 'long-8ch-ref.flac'))
    declared['long-8ch.oga'] = declared['long-8ch.flac']
    const names = ['long-8ch.opus', 'long-8ch.oga']
    for (const name of names) expect(declared[name] * 8, name).toBeGreaterThan(cap)
    const input = await listInput(await createFsSource(longDir))
    const row = (path: string, segment?: { offset: number; duration: number }): PlannedRow => ({ index: 0, where: 'manifest.json:1', text: 'x', audio: { kind: 'file', path, ...(segment ? { segment } : {}) } })
    const capped = createClipProcessor(loadLibFlacNode, { maxSamples: cap })
    const wholePath = rowConverter(input, capped, 'flac')
    const convert = rowConverter(input, capped, 'flac', streamClipNode)
    const segment = { offset: 3.37, duration: 5.5 }
    for (const name of names) {
      const refused = await wholePath(row(name))
      expect(!refused.ok && refused.error, name).toMatch(/(over|more than) the limit of 262144 samples/)
      const whole = ok(await convert(row(name)))
      expect(whole.streamed, name).toBe(true)
      expect(whole.sourceFrames, name).toBe(declared[name])
      writeFileSync(join(dir, `${name}.whole.flac`), whole.audio)
      const seg = ok(await convert(row(name, segment)))
      writeFileSync(join(dir, `${name}.segment.flac`), seg.audio)
    }
    expectLibsndfileTorchaudio(dir, { 'long-8ch.opus': join(longDir, 'long-8ch.opus'), 'long-8ch.oga': join(dir, 'long-8ch-ref.flac') }, declared, segment)
  }, 300_000)
})
