/**
 * MPEG audio in WAV: Layer III (format tag 0x55), which libsndfile ≥ 1.1 reads by handing the data chunk to mpg123,
 * written here by ffmpeg (`-c:a libmp3lame -f wav`) and compared with libsndfile's `sf.read(dtype='float32')`; and
 * Layer II (tag 0x50, ffmpeg `-c:a mp2 -f wav`), which libsndfile 1.2 refuses, refused here too. The streamed path
 * (streamed-decode.ts) gives the whole-file path's samples. An MP3 by lame whose first frame is a Xing frame, wrapped in a WAV
 * by the test itself: its Xing count (and LAME tag) give the length libsndfile reads, the source's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { openStreamedDecode } from '../../src/engine/audio/streamed-decode.ts'
import { mp3WavFrames } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-wav-mpeg-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0
const hasLame = spawnSync('lame', ['--version']).status === 0

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

  it.runIf(hasLame)('reads an MP3 whose first frame is a Xing/Info frame as libsndfile does: its frame count honoured', async () => {
    // lame's VBR MP3 (a Xing frame with the frame count and a LAME tag), wrapped in a WAV by this script (tag 0x55,
    // MPEGLAYER3WAVEFORMAT's 12-byte extension), not by mixscope's writer
    const src = join(dir, 'xing.src.wav')
    runPython(`
import sys, numpy as np, soundfile as sf
rng = np.random.default_rng(8)
n = int(22050 * 1.3) + 11
t = np.arange(n) / 22050
sf.write(sys.argv[1], np.clip(0.5 * np.sin(2 * np.pi * (300 + 900 * t) * t) + rng.normal(0, 0.02, n), -1, 1), 22050, subtype='PCM_16')
`, [src])
    const mp3 = join(dir, 'xing.mp3')
    const r = spawnSync('lame', ['--quiet', '-V', '4', src, mp3], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    const info = JSON.parse(runPython(`
import sys, json, struct
mp3 = open(sys.argv[1], 'rb').read()
if mp3[:3] == b'ID3':
    mp3 = mp3[10 + ((mp3[6] & 127) << 21 | (mp3[7] & 127) << 14 | (mp3[8] & 127) << 7 | (mp3[9] & 127)):]
at = max(mp3.find(b'Xing', 0, 64), mp3.find(b'Info', 0, 64))
flags = struct.unpack('>I', mp3[at + 4:at + 8])[0]
count = struct.unpack('>I', mp3[at + 8:at + 12])[0] if flags & 1 else None
ext = struct.pack('<HIHH', 1, 0, 0, 1) + b'\\0\\0'   # wID, fdwFlags, nBlockSize, nFramesPerBlock, nCodecDelay
fmt = struct.pack('<HHIIHHH', 0x55, 1, 22050, 8000, 1, 0, len(ext)) + ext
data = mp3 + (b'\\0' if len(mp3) % 2 else b'')
body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(mp3)) + data
open(sys.argv[2], 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
print(json.dumps({'at': at, 'count': count}))
`, [mp3, join(dir, 'xing.wav')])) as { at: number; count: number | null }
    expect(info.at, 'a Xing/Info frame first').toBeGreaterThan(0)
    expect(info.count, 'with its frame count').not.toBeNull()
    // libsndfile's decode of the WAV; where python-soundfile cannot read MPEG in WAV, of the bare .mp3 (the same frames)
    let ref = reference('xing.wav')
    const refOf = ref.error ? 'xing.mp3' : 'xing.wav'
    if (ref.error) ref = reference('xing.mp3')
    expect(ref.error, refOf).toBeUndefined()
    const bytes = new Uint8Array(readFileSync(join(dir, 'xing.wav')))
    const audio = await decodeAudio(bytes, { id: 'xing.wav' })
    expect(audio.codec).toBe('mp3')
    expect(audio.frames, `frames as libsndfile reads ${refOf}`).toBe(ref.frames)
    expect(audio.trainable).toBe(true)
    // the Xing count decides the length (not mpg123's estimate from the file's size): its frames × 576 (MPEG-2 Layer
    // III at 22.05 kHz) less LAME's delay and padding, which is the source's length exactly
    const data = bytes.subarray(bytes.length - readFileSync(mp3).length - (readFileSync(mp3).length % 2), bytes.length - (readFileSync(mp3).length % 2))
    expect(mp3WavFrames(bytes.length, data), 'no size estimate where a Xing count is').toBeNull()
    expect(sniffAudio(data).declaredFrames).toBe(audio.frames)
    expect(audio.frames).toBeLessThanOrEqual(info.count! * 576)
    expect(audio.frames).toBe(Math.floor(22050 * 1.3) + 11)
    const want = new Float32Array(new Uint8Array(readFileSync(join(dir, `${refOf}.f32`))).buffer)
    let worst = 0
    for (let k = 0; k < ref.frames; k++) worst = Math.max(worst, Math.abs(audio.channels[0][k] - want[k]))
    expect(worst).toBeLessThanOrEqual(MP3_TOLERANCE)
    // the streamed path: the same length and samples
    const file = await openStreamedDecode(async (s, e) => bytes.subarray(s, e), bytes.length, bytes.subarray(0, 1 << 20), 4096)
    expect(file!.frames).toBe(audio.frames)
    const got = new Float32Array(audio.frames)
    let at = 0
    for await (const p of file!.pieces()) { got.set(p[0], at); at += p[0].length }
    expect(Buffer.from(got.buffer).equals(Buffer.from(audio.channels[0].buffer))).toBe(true)
  })
})
