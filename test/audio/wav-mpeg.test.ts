/**
 * MPEG audio in WAV: Layer III (format tag 0x55), which libsndfile ≥ 1.1 reads by handing the data chunk to mpg123,
 * written here by ffmpeg (`-c:a libmp3lame -f wav`) and compared with libsndfile's `sf.read(dtype='float32')`; and
 * Layer II (tag 0x50, ffmpeg `-c:a mp2 -f wav`), which libsndfile 1.2 refuses, refused here too. The streamed path
 * (streamed-decode.ts) gives the whole-file path's samples.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { openStreamedDecode } from '../../src/engine/audio/streamed-decode.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-wav-mpeg-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0

/**
 * Largest difference allowed from libsndfile's decode: mpg123 in WASM and Debian's mpg123 are the same decoder built
 * differently (float rounding), as decode.test.ts's MP3 SNR allows; measured ≤ 3e-6.
 */
const MP3_TOLERANCE = 1e-5

/** [name, ffmpeg codec, channels, rate, extra ffmpeg arguments] */
const cases: [string, string, number, number, string[]][] = [
  ['mp3-16k-mono.wav', 'libmp3lame', 1, 16000, ['-b:a', '32k']],
  ['mp3-22k-stereo.wav', 'libmp3lame', 2, 22050, ['-b:a', '64k']],
  ['mp3-44k-stereo.wav', 'libmp3lame', 2, 44100, ['-b:a', '128k']],
  ['mp3-48k-mono-vbr.wav', 'libmp3lame', 1, 48000, ['-q:a', '4']],
  ['mp3-44k-stereo-vbr.wav', 'libmp3lame', 2, 44100, ['-q:a', '1']],
  ['mp3-8k-mono.wav', 'libmp3lame', 1, 8000, ['-b:a', '16k']],
]

function make(name: string, codec: string, channels: number, rate: number, extra: string[]): void {
  const src = join(dir, `${name}.src.wav`)
  runPython(`
import sys, numpy as np, soundfile as sf
path, ch, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(5)
n = int(rate * 1.7) + 3
t = np.arange(n) / rate
x = np.stack([0.6 * np.sin(2 * np.pi * (200 + 1800 * t) * t + c) for c in range(ch)], axis=1) + rng.normal(0, 0.03, (n, ch))
sf.write(path, np.clip(x, -1, 1), rate, subtype='PCM_16')
`, [src, String(channels), String(rate)])
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', src, '-c:a', codec, ...extra, '-f', 'wav', join(dir, name)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`)
}

/** libsndfile's decode: `<name>.f32` planar, what it reads and declares (`sf.info`'s frames), or its error. */
function reference(name: string): { rate: number; channels: number; frames: number; declared?: number; subtype?: string; error?: string } {
  return JSON.parse(runPython(`
import sys, json, soundfile as sf
path = sys.argv[1]
try:
    y, rate = sf.read(path, dtype='float32', always_2d=True)
except Exception as e:
    print(json.dumps({'rate': 0, 'channels': 0, 'frames': 0, 'error': str(e)}))
    sys.exit(0)
y.T.astype('<f4').tofile(path + '.f32')
info = sf.info(path)
print(json.dumps({'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0], 'declared': info.frames, 'subtype': info.subtype}))
`, [join(dir, name)]))
}

describe.runIf(hasFfmpeg)('MPEG Layer III in WAV, against libsndfile', () => {
  it.each(cases)('%s', async (name, codec, channels, rate, extra) => {
    make(name, codec, channels, rate, extra)
    const ref = reference(name)
    expect(ref.error).toBeUndefined()
    expect(ref.subtype).toBe('MPEG_LAYER_III')
    const bytes = new Uint8Array(readFileSync(join(dir, name)))
    const audio = await decodeAudio(bytes, { id: name })
    expect(audio.container).toBe('wav')
    expect(audio.codec).toBe('mp3')
    expect(audio.sampleRate).toBe(ref.rate)
    expect(audio.channels.length).toBe(ref.channels)
    expect(audio.frames, 'frames as libsndfile counts them').toBe(ref.frames)
    // libsndfile declares mpg123's estimate of the length: a read of that many frames that comes up short fails training
    expect(audio.trainable, `declared ${ref.declared}, read ${ref.frames}`).toBe(ref.declared === ref.frames)
    const want = new Float32Array(new Uint8Array(readFileSync(join(dir, `${name}.f32`))).buffer)
    for (let c = 0; c < ref.channels; c++) {
      let worst = 0
      for (let k = 0; k < ref.frames; k++) worst = Math.max(worst, Math.abs(audio.channels[c][k] - want[c * ref.frames + k]))
      expect(worst, `${name} channel ${c}`).toBeLessThanOrEqual(MP3_TOLERANCE)
    }
    // the streamed path: the same samples, a piece at a time
    for (const chunkBytes of [4096, 1 << 20]) {
      const file = await openStreamedDecode(async (s, e) => bytes.subarray(s, e), bytes.length, bytes.subarray(0, 1 << 20), chunkBytes)
      expect(file, 'streamed').not.toBeNull()
      expect(file!.frames).toBe(audio.frames)
      expect(file!.sampleRate).toBe(audio.sampleRate)
      const got = audio.channels.map(() => new Float32Array(audio.frames))
      let at = 0
      for await (const p of file!.pieces()) {
        p.forEach((ch, c) => got[c].set(ch, at))
        at += p[0].length
      }
      expect(at).toBe(audio.frames)
      got.forEach((ch, c) => expect(Buffer.from(ch.buffer).equals(Buffer.from(audio.channels[c].buffer)), `channel ${c}, chunk ${chunkBytes}`).toBe(true))
    }
    const r = await processClipNode({ bytes, id: name, format: 'flac' })
    expect(r.ok, name).toBe(true)
  })

  it('refuses MPEG Layer II in WAV (tag 0x50), which libsndfile 1.2 refuses too', async () => {
    make('mp2.wav', 'mp2', 1, 22050, [])
    expect(reference('mp2.wav').error).toMatch(/Error opening/)
    const bytes = new Uint8Array(readFileSync(join(dir, 'mp2.wav')))
    await expect(decodeAudio(bytes, { id: 'mp2.wav' })).rejects.toThrow(/^audio: mp2\.wav \(wav\): unsupported WAV format tag 0x50 \(MPEG layer 1\/2, which libsndfile refuses too\)/)
  })
})
