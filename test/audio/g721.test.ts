/**
 * G.721 32 kbit/s ADPCM in WAV (format tag 0x40, g72x.ts), written by libsndfile itself (python3-soundfile's
 * `G721_32` subtype) and decoded by `decodeAudio` sample for sample as libsndfile's `sf.read(dtype='float32')`:
 * whole files at several rates, data chunks whose size is not a whole number of 60-byte blocks and files cut inside
 * their data (libsndfile's length and its reused block buffer), and the streamed path (streamed-decode.ts) equal to
 * the whole-file path. G.723 in WAV (tag 0x14) and stereo G.721, which libsndfile 1.2 refuses, are refused too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { openStreamedDecode } from '../../src/engine/audio/streamed-decode.ts'
import { decodeG72x, type G72xKind } from '../../src/engine/audio/g72x.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-g721-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** [name, rate, seconds] */
const sources: [string, number, number][] = [
  ['g721-8k.wav', 8000, 2.13],
  ['g721-16k.wav', 16000, 1.3],
  ['g721-44k.wav', 44100, 0.71],
]

runPython(`
import sys, json, numpy as np, soundfile as sf
d, cases = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(3)
for name, rate, sec in cases:
    n = int(rate * sec)
    t = np.arange(n) / rate
    x = 0.7 * np.sin(2 * np.pi * (150 + 2500 * t) * t) + rng.normal(0, 0.05, n)
    x[:30] = 1.0; x[30:60] = -1.0; x[200:400] = 0
    sf.write(f'{d}/{name}', np.clip(x, -1, 1), rate, format='WAV', subtype='G721_32')
`, [dir, JSON.stringify(sources)])

/** Where the data chunk's size field and data are in a WAV libsndfile wrote. */
function dataChunk(b: Uint8Array): { sizeAt: number; dataAt: number; size: number } {
  const at = Buffer.from(b).indexOf('data')
  return { sizeAt: at + 4, dataAt: at + 8, size: new DataView(b.buffer, b.byteOffset).getUint32(at + 4, true) }
}

// variants of the 8 kHz file: data sizes not a multiple of 60 bytes (the chunk shortened), files cut inside the data
const base = new Uint8Array(readFileSync(join(dir, 'g721-8k.wav')))
const { sizeAt, dataAt, size } = dataChunk(base)
const variants: string[] = []
for (const n of [30, 61, size - 10, size - 60]) {
  const b = base.slice(0, dataAt + n)
  new DataView(b.buffer).setUint32(sizeAt, n, true)
  new DataView(b.buffer).setUint32(4, b.length - 8, true)
  writeFileSync(join(dir, `short-${n}.wav`), b)
  variants.push(`short-${n}.wav`)
}
for (const cut of [7, 31, 61, 200]) {
  writeFileSync(join(dir, `cut-${cut}.wav`), base.slice(0, base.length - cut))
  variants.push(`cut-${cut}.wav`)
}

/** libsndfile's decode of each file (`<name>.f32`) and its frame count, or its error. */
function reference(names: string[]): { rate: number; frames: number; error?: string }[] {
  return JSON.parse(runPython(`
import sys, json, soundfile as sf
d, names = sys.argv[1], json.loads(sys.argv[2])
res = []
for name in names:
    try:
        y, rate = sf.read(f'{d}/{name}', dtype='float32')
        y.astype('<f4').tofile(f'{d}/{name}.f32')
        res.append({'rate': rate, 'frames': len(y), 'declared': sf.info(f'{d}/{name}').frames})
    except Exception as e:
        res.append({'rate': 0, 'frames': 0, 'error': str(e)})
print(json.dumps(res))
`, [dir, JSON.stringify(names)]))
}

describe('G.721 WAV against libsndfile', () => {
  const names = [...sources.map((s) => s[0]), ...variants]
  const refs = reference(names)
  it.each(names.map((n, i) => [n, i] as const))('%s', async (name, i) => {
    const ref = refs[i]
    expect(ref.error).toBeUndefined()
    const bytes = new Uint8Array(readFileSync(join(dir, name)))
    const audio = await decodeAudio(bytes, { id: name })
    expect(audio.codec).toBe('g721')
    expect(audio.sampleRate).toBe(ref.rate)
    expect(audio.channels.length).toBe(1)
    expect(audio.frames, 'frames as libsndfile counts them').toBe(ref.frames)
    expect(sniffAudio(bytes).declaredFrames).toBe(ref.frames)
    expect(audio.trainable).toBe(true)
    const want = new Float32Array(new Uint8Array(readFileSync(join(dir, `${name}.f32`))).buffer)
    let worst = 0
    let at = -1
    for (let k = 0; k < ref.frames; k++) {
      const d = Math.abs(audio.channels[0][k] - want[k])
      if (d > worst) { worst = d; at = k }
    }
    expect(worst, `largest difference at frame ${at}`).toBe(0)
    if (!name.startsWith('cut-') && !name.startsWith('short-')) expect(sniffAudio(bytes).problems).toEqual([])
    // streamed: the same samples, whatever the read size
    for (const chunkBytes of [100, 4096, 1 << 22]) {
      const file = await openStreamedDecode(async (s, e) => bytes.subarray(s, e), bytes.length, bytes.subarray(0, 1 << 20), chunkBytes)
      expect(file).not.toBeNull()
      expect(file!.frames).toBe(audio.frames)
      const got = new Float32Array(audio.frames)
      let n = 0
      for await (const p of file!.pieces()) { got.set(p[0], n); n += p[0].length }
      expect(n).toBe(audio.frames)
      expect(Buffer.from(got.buffer).equals(Buffer.from(audio.channels[0].buffer)), `streamed in ${chunkBytes}-byte reads`).toBe(true)
    }
    const r = await processClipNode({ bytes, id: name, format: 'flac' })
    expect(r.ok, name).toBe(true)
  })
})

describe('what libsndfile refuses', () => {
  it('G.723 in WAV (tag 0x14) and stereo G.721', async () => {
    const g723 = base.slice()
    new DataView(g723.buffer).setUint16(20, 0x14, true)
    writeFileSync(join(dir, 'g723.wav'), g723)
    const stereo = base.slice()
    new DataView(stereo.buffer).setUint16(22, 2, true)
    writeFileSync(join(dir, 'stereo.wav'), stereo)
    const [a, b] = reference(['g723.wav', 'stereo.wav'])
    expect(a.error).toMatch(/Error opening/)
    expect(b.error).toMatch(/Error opening/)
    await expect(decodeAudio(g723, { id: 'g723.wav' })).rejects.toThrow(/unsupported WAV format tag 0x14 \(G\.723 ADPCM, which libsndfile refuses too\)/)
    await expect(decodeAudio(stereo, { id: 'stereo.wav' })).rejects.toThrow(/G\.721 ADPCM with 2 channels \(libsndfile reads mono only\)/)
  })
})

describe('the G.723 decoders (g72x.ts), for AU files, which mixscope does not read yet', () => {
  it.each(['G721_32', 'G723_24', 'G723_40'] as const)('%s in an AU file libsndfile wrote decodes as sf.read', (sub) => {
    const name = `${sub}.au`
    runPython(`
import sys, numpy as np, soundfile as sf
rng = np.random.default_rng(4)
n = 9001
t = np.arange(n) / 8000
x = 0.7 * np.sin(2 * np.pi * (150 + 2500 * t) * t) + rng.normal(0, 0.05, n)
x[:30] = 1.0; x[30:60] = -1.0
sf.write(sys.argv[1], np.clip(x, -1, 1), 8000, format='AU', subtype=sys.argv[2])
`, [join(dir, name), sub])
    const ref = reference([name])[0]
    expect(ref.error).toBeUndefined()
    const b = readFileSync(join(dir, name))
    // AU header: big-endian data offset at 4, data size at 8
    const out = decodeG72x(sub.toLowerCase() as G72xKind, new Uint8Array(b.subarray(b.readUInt32BE(4))), b.readUInt32BE(8))
    expect(out.length).toBe(ref.frames)
    const want = new Float32Array(new Uint8Array(readFileSync(join(dir, `${name}.f32`))).buffer)
    expect(Buffer.from(out.buffer).equals(Buffer.from(want.buffer))).toBe(true)
  })
})

describe('AU files', () => {
  it('decode through decodeAudio as libsndfile reads them (au.ts; every AU encoding: au.test.ts)', async () => {
    const bytes = new Uint8Array(readFileSync(join(dir, 'G721_32.au')))
    const audio = await decodeAudio(bytes, { id: 'a.au' })
    expect(audio.container).toBe('au')
    expect(audio.codec).toBe('g721')
    const want = new Float32Array(new Uint8Array(readFileSync(join(dir, 'G721_32.au.f32'))).buffer)
    expect(Buffer.from(audio.channels[0].buffer).equals(Buffer.from(want.buffer))).toBe(true)
  })
})
