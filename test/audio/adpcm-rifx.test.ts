/**
 * The WAV variants libsndfile reads beside plain PCM: IMA ADPCM and Microsoft ADPCM (written by sox and by
 * libsndfile itself, mono and stereo, several block sizes, a last block cut short) and big-endian RIFX (libsndfile's
 * `endian='BIG'` WAV), decoded by `decodeAudio` and compared with libsndfile's `sf.read(dtype='float32')` sample for
 * sample (the other coded formats: test/audio/coded-formats.test.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-adpcm-'))

/** [name, how it is written] — `sox:<encoding>` converts the PCM source; `sf:<format>:<subtype>:<endian>` writes it with libsndfile. */
const cases: [string, string, number, number][] = [
  ['ima-sox-mono.wav', 'sox:ima-adpcm', 1, 8000],
  ['ima-sox-stereo.wav', 'sox:ima-adpcm', 2, 22050],
  ['ms-sox-mono.wav', 'sox:ms-adpcm', 1, 16000],
  ['ms-sox-stereo.wav', 'sox:ms-adpcm', 2, 44100],
  ['ima-sf-mono.wav', 'sf:WAV:IMA_ADPCM:FILE', 1, 16000],
  ['ima-sf-stereo.wav', 'sf:WAV:IMA_ADPCM:FILE', 2, 48000],
  ['ms-sf-mono.wav', 'sf:WAV:MS_ADPCM:FILE', 1, 11025],
  ['ms-sf-stereo.wav', 'sf:WAV:MS_ADPCM:FILE', 2, 16000],
  ['rifx-16.wav', 'sf:WAV:PCM_16:BIG', 2, 16000],
  ['rifx-24.wav', 'sf:WAV:PCM_24:BIG', 1, 44100],
  ['rifx-32.wav', 'sf:WAV:PCM_32:BIG', 2, 8000],
  ['rifx-float.wav', 'sf:WAV:FLOAT:BIG', 1, 22050],
  ['rifx-u8.wav', 'sf:WAV:PCM_U8:BIG', 1, 8000],
  ['rifx-ulaw.wav', 'sf:WAV:ULAW:BIG', 2, 8000],
]

// the sources (a chirp plus noise, with full-scale runs), the sox conversions, then libsndfile's floats of each
runPython(`
import sys, json, numpy as np, soundfile as sf
d, cases = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(3)
for name, how, ch, rate in cases:
    n = int(rate * 0.77) + 13
    t = np.arange(n) / rate
    x = np.stack([0.7 * np.sin(2 * np.pi * (150 + 2500 * t) * t + c) for c in range(ch)], axis=1) + rng.normal(0, 0.05, (n, ch))
    x[:30] = 1.0; x[30:60] = -1.0
    x = np.clip(x, -1, 1)
    if how.startswith('sox:'):
        sf.write(f'{d}/{name}.src.wav', x, rate, subtype='PCM_16')
    else:
        _, fmt, sub, endian = how.split(':')
        sf.write(f'{d}/{name}', x, rate, format=fmt, subtype=sub, endian=endian)
`, [dir, JSON.stringify(cases)])
for (const [name, how] of cases) {
  if (!how.startsWith('sox:')) continue
  const r = spawnSync('sox', [join(dir, `${name}.src.wav`), '-e', how.slice(4), join(dir, name)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`sox failed: ${r.stderr}`)
}
const written = JSON.parse(runPython(`
import sys, json, soundfile as sf
d, names = sys.argv[1], json.loads(sys.argv[2])
out = []
for name in names:
    y, rate = sf.read(f'{d}/{name}', dtype='float32', always_2d=True)
    y.T.astype('<f4').tofile(f'{d}/{name}.f32')
    out.append({'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0], 'subtype': sf.info(f'{d}/{name}').subtype})
print(json.dumps(out))
`, [dir, JSON.stringify(cases.map((c) => c[0]))])) as { rate: number; channels: number; frames: number; subtype: string }[]

function compare(name: string, i: number, audio: Awaited<ReturnType<typeof decodeAudio>>): void {
  const ref = new Float32Array(readFileSync(join(dir, `${name}.f32`)).buffer.slice(0))
  const { rate, channels, frames } = written[i]
  expect(audio.sampleRate).toBe(rate)
  expect(audio.channels.length).toBe(channels)
  expect(audio.frames, 'frames as libsndfile counts them').toBe(frames)
  for (let c = 0; c < channels; c++) {
    const want = ref.subarray(c * frames, (c + 1) * frames)
    let worst = 0
    let at = -1
    for (let k = 0; k < frames; k++) {
      const d = Math.abs(audio.channels[c][k] - want[k])
      if (d > worst) { worst = d; at = k }
    }
    expect(worst, `${name} channel ${c}: largest difference at frame ${at}`).toBe(0)
  }
}

describe('decodeAudio on ADPCM and RIFX WAV, against libsndfile', () => {
  it.each(cases.map((c, i) => [i, ...c] as const))('%i: %s (%s)', async (i, name) => {
    const bytes = new Uint8Array(readFileSync(join(dir, name)))
    expect(written[i].subtype).toMatch(/ADPCM|PCM|FLOAT|ULAW/)
    const audio = await decodeAudio(bytes, { id: name })
    compare(name, i, audio)
    const sniff = sniffAudio(bytes)
    expect(sniff.problems).toEqual([])
    expect(sniff.declaredFrames).toBe(written[i].frames)
  })

  it('decodes a last block cut short as libsndfile does', async () => {
    // the IMA and MS stereo files with their data chunk cut inside the last block (header sizes patched to match)
    for (const [i, name] of [[1, 'ima-sox-stereo.wav'], [7, 'ms-sf-stereo.wav']] as const) {
      const whole = new Uint8Array(readFileSync(join(dir, name)))
      const dataAt = findChunk(whole, 'data')
      const size = new DataView(whole.buffer).getUint32(dataAt + 4, true)
      const blockAlign = new DataView(whole.buffer).getUint16(findChunk(whole, 'fmt ') + 8 + 12, true)
      const cutSize = size - blockAlign + Math.floor(blockAlign / 3)
      const cut = whole.slice(0, dataAt + 8 + cutSize)
      new DataView(cut.buffer).setUint32(dataAt + 4, cutSize, true)
      new DataView(cut.buffer).setUint32(4, cut.length - 8, true)
      const cutName = `cut-${name}`
      writeFileSync(join(dir, cutName), cut)
      const ref = JSON.parse(runPython(`
import sys, json, soundfile as sf
y, rate = sf.read(sys.argv[1], dtype='float32', always_2d=True)
y.T.astype('<f4').tofile(sys.argv[1] + '.f32')
print(json.dumps({'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0]}))
`, [join(dir, cutName)])) as { rate: number; channels: number; frames: number }
      written[100 + i] = { ...ref, subtype: '' }
      compare(cutName, 100 + i, await decodeAudio(cut, { id: cutName }))
    }
  })
})

/** Byte offset of a RIFF chunk's header. */
function findChunk(b: Uint8Array, id: string): number {
  for (let at = 12; at + 8 <= b.length;) {
    const name = String.fromCharCode(...b.subarray(at, at + 4))
    const size = new DataView(b.buffer, b.byteOffset).getUint32(at + 4, true)
    if (name === id) return at
    at += 8 + size + (size & 1)
  }
  throw new Error(`no ${id} chunk`)
}
