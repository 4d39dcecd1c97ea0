/**
 * The uncompressed containers libsndfile reads beside WAV: files written by libsndfile itself (python3-soundfile) in
 * every container and sample format it writes for them — WAV and Wave64 µ-law/A-law, RF64, AIFF/AIFC, CAF in both
 * byte orders, NIST SPHERE — decoded by `decodeAudio` and compared with libsndfile's own `sf.read(dtype='float32')`,
 * sample for sample (exact equality: the same integer → float rule and G.711 tables).
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-pcm-containers-'))

/** [file extension, soundfile format, subtype, endian] */
const cases: [string, string, string, string][] = [
  ['wav', 'WAV', 'ULAW', 'FILE'], ['wav', 'WAV', 'ALAW', 'FILE'], ['wav', 'WAV', 'PCM_U8', 'FILE'],
  ['rf64', 'RF64', 'PCM_16', 'FILE'], ['rf64', 'RF64', 'PCM_24', 'FILE'], ['rf64', 'RF64', 'FLOAT', 'FILE'], ['rf64', 'RF64', 'ULAW', 'FILE'],
  ['w64', 'W64', 'PCM_16', 'FILE'], ['w64', 'W64', 'PCM_24', 'FILE'], ['w64', 'W64', 'PCM_32', 'FILE'], ['w64', 'W64', 'PCM_U8', 'FILE'],
  ['w64', 'W64', 'FLOAT', 'FILE'], ['w64', 'W64', 'DOUBLE', 'FILE'], ['w64', 'W64', 'ULAW', 'FILE'], ['w64', 'W64', 'ALAW', 'FILE'],
  ['aiff', 'AIFF', 'PCM_S8', 'FILE'], ['aiff', 'AIFF', 'PCM_16', 'FILE'], ['aiff', 'AIFF', 'PCM_24', 'FILE'], ['aiff', 'AIFF', 'PCM_32', 'FILE'],
  ['aiff', 'AIFF', 'PCM_U8', 'FILE'], ['aiff', 'AIFF', 'FLOAT', 'FILE'], ['aiff', 'AIFF', 'DOUBLE', 'FILE'], ['aiff', 'AIFF', 'ULAW', 'FILE'],
  ['aiff', 'AIFF', 'ALAW', 'FILE'], ['aiff', 'AIFF', 'PCM_16', 'LITTLE'],
  ['caf', 'CAF', 'PCM_S8', 'FILE'], ['caf', 'CAF', 'PCM_16', 'FILE'], ['caf', 'CAF', 'PCM_24', 'FILE'], ['caf', 'CAF', 'PCM_32', 'FILE'],
  ['caf', 'CAF', 'FLOAT', 'FILE'], ['caf', 'CAF', 'DOUBLE', 'FILE'], ['caf', 'CAF', 'ULAW', 'FILE'], ['caf', 'CAF', 'ALAW', 'FILE'],
  ['caf', 'CAF', 'PCM_16', 'LITTLE'], ['caf', 'CAF', 'FLOAT', 'LITTLE'],
  ['nist', 'NIST', 'PCM_S8', 'FILE'], ['nist', 'NIST', 'PCM_16', 'FILE'], ['nist', 'NIST', 'PCM_24', 'FILE'], ['nist', 'NIST', 'PCM_32', 'FILE'],
  ['nist', 'NIST', 'ULAW', 'FILE'], ['nist', 'NIST', 'ALAW', 'FILE'], ['nist', 'NIST', 'PCM_16', 'BIG'],
]

/** Writes every case (a stereo 22.05 kHz chirp with noise, full scale and clipped ends) and libsndfile's floats of it. */
const written = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d, cases = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(7)
t = np.arange(4410) / 22050
x = np.stack([0.8 * np.sin(2 * np.pi * (200 + 3000 * t) * t), 0.5 * np.cos(2 * np.pi * 440 * t)], axis=1) + rng.normal(0, 0.05, (4410, 2))
x[:10] = 1.0; x[10:20] = -1.0
out = []
for i, (ext, fmt, sub, endian) in enumerate(cases):
    p = f'{d}/{i}.{ext}'
    sf.write(p, x, 22050, format=fmt, subtype=sub, endian=endian)
    y, rate = sf.read(p, dtype='float32', always_2d=True)
    y.T.astype('<f4').tofile(f'{d}/{i}.f32')
    out.append({'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0]})
print(json.dumps(out))
`, [dir, JSON.stringify(cases)])) as { rate: number; channels: number; frames: number }[]

describe('decodeAudio on libsndfile\'s raw-sample containers', () => {
  it.each(cases.map((c, i) => [i, ...c] as const))('%i: %s %s %s (%s endian)', async (i, ext) => {
    const bytes = new Uint8Array(readFileSync(join(dir, `${i}.${ext}`)))
    const ref = new Float32Array(readFileSync(join(dir, `${i}.f32`)).buffer.slice(0))
    const { rate, channels, frames } = written[i]
    const audio = await decodeAudio(bytes, { id: `${i}.${ext}` })
    expect(audio.sampleRate).toBe(rate)
    expect(audio.channels.length).toBe(channels)
    expect(audio.frames).toBe(frames)
    for (let c = 0; c < channels; c++) {
      const want = ref.subarray(c * frames, (c + 1) * frames)
      let worst = 0
      for (let k = 0; k < frames; k++) worst = Math.max(worst, Math.abs(audio.channels[c][k] - want[k]))
      expect(worst, `channel ${c}`).toBe(0)
    }
    const sniff = sniffAudio(bytes)
    expect(sniff.problems).toEqual([])
    expect(sniff.declaredFrames).toBe(frames)
  })

  it('says what libsndfile does not read: MP4/M4A', async () => {
    const m4a = new Uint8Array([0, 0, 0, 0x20, ...new TextEncoder().encode('ftypM4A '), 0, 0, 0, 0])
    await expect(decodeAudio(m4a, { id: 'a.m4a' })).rejects.toThrow('libsndfile, which the reference decodes with, does not read MP4')
  })
})
