/**
 * Sun/NeXT AU (au.ts): files written by libsndfile itself (python3-soundfile, `format='AU'`) in every encoding it
 * writes for AU — µ-law, A-law, signed PCM 8/16/24/32, float, double, G.721, G.723 24 and 40 kbit/s — in both byte
 * orders (`.snd` big-endian, `dns.` little-endian), decoded by `decodeAudio` and compared with libsndfile's own
 * `sf.read(dtype='float32')` sample for sample (exact equality). Then the header's edge cases, each file also read
 * by libsndfile: an unknown data size (0xFFFFFFFF: to the end of the file), a declared size shorter than the file, a
 * file cut inside its data, a data offset past the 24-byte header, G.72x data with bytes after its declared size
 * (libsndfile's `g72x_init` reads to the file's end); and what both refuse (a header cut short, stereo G.721, G.722).
 * Last, AU files converted by the dataprep's streamed path (pcm-stream.ts) give the whole-file path's bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { pcmLayoutFromHead } from '../../src/engine/audio/pcm-stream.ts'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createStreamedClipConverter } from '../../src/engine/prepare/clip.ts'
import { runPython } from '../prepare/python.ts'
import { libsndfileDecodes, libsndfileSamples } from './libsndfile-reference.ts'
import { fileReader, ok } from '../prepare/long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-au-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const subtypes = ['ULAW', 'ALAW', 'PCM_S8', 'PCM_16', 'PCM_24', 'PCM_32', 'FLOAT', 'DOUBLE', 'G721_32', 'G723_24', 'G723_40']
/** [name, subtype, endian]: G.72x mono at 8 kHz (libsndfile writes it mono only), the rest stereo at 22.05 kHz. */
const cases: [string, string, string][] = subtypes.flatMap((sub) => ['BIG', 'LITTLE'].map((e) => [`${sub}-${e}.au`, sub, e] as [string, string, string]))

runPython(`
import sys, json, numpy as np, soundfile as sf
d, cases = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(11)
for name, sub, endian in cases:
    g72x = sub.startswith('G72')
    rate, n = (8000, 3001) if g72x else (22050, 4410)
    t = np.arange(n) / rate
    x = np.stack([0.8 * np.sin(2 * np.pi * (200 + 2000 * t) * t), 0.5 * np.cos(2 * np.pi * 440 * t)], axis=1) + rng.normal(0, 0.05, (n, 2))
    x[:10] = 1.0; x[10:20] = -1.0
    sf.write(f'{d}/{name}', np.clip(x[:, :1] if g72x else x, -1, 1), rate, format='AU', subtype=sub, endian=endian)
`, [dir, JSON.stringify(cases)])

const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)))

/** A copy of `name` with `edit` applied, written as `out`. */
function variant(name: string, out: string, edit: (b: Uint8Array, v: DataView, le: boolean) => Uint8Array): string {
  const b = read(name).slice()
  writeFileSync(join(dir, out), edit(b, new DataView(b.buffer), name.includes('LITTLE')))
  return out
}
const concat = (a: Uint8Array, b: Uint8Array) => new Uint8Array([...a, ...b])

/** Header edge cases libsndfile reads: [file, what it tests]. */
const edges: [string, string][] = [
  [variant('PCM_16-BIG.au', 'unknown-size-be.au', (b, v) => { v.setUint32(8, 0xffffffff); return concat(b, new Uint8Array([1, 2, 3])) }), 'unknown data size, a partial frame at the end'],
  [variant('ULAW-LITTLE.au', 'unknown-size-le.au', (b, v) => { v.setUint32(8, 0xffffffff, true); return b }), 'unknown data size, little-endian'],
  [variant('PCM_24-LITTLE.au', 'short-size.au', (b, v) => { v.setUint32(8, 3000, true); return b }), 'declared size shorter than the data'],
  [variant('PCM_16-BIG.au', 'cut-data.au', (b) => b.subarray(0, b.length - 101)), 'file cut inside its data'],
  [variant('FLOAT-BIG.au', 'offset-40.au', (b) => {
    // 16 bytes of annotation between the header and the samples, as the format allows
    const out = concat(concat(b.subarray(0, 24), new TextEncoder().encode('annotation here\0')), b.subarray(24))
    new DataView(out.buffer).setUint32(4, 40)
    return out
  }), 'data offset 40 (an annotation after the header)'],
  [variant('G721_32-BIG.au', 'g721-trailing.au', (b) => concat(b, new Uint8Array(100).fill(0x5a))), 'G.721 with 100 bytes after its declared size'],
  [variant('G723_24-LITTLE.au', 'g723-24-short-size.au', (b, v) => { v.setUint32(8, 200, true); return b }), 'G.723 24 kbit/s with a declared size shorter than the data'],
  [variant('G723_40-BIG.au', 'g723-40-cut.au', (b) => b.subarray(0, b.length - 33)), 'G.723 40 kbit/s cut inside a block'],
]

/** Files both refuse: [file, mixscope's message]. */
const refused: [string, string][] = [
  [variant('PCM_16-BIG.au', 'cut-header.au', (b) => b.subarray(0, 20)), 'audio: cut-header.au (au): truncated header: 20 bytes, the AU header needs 24'],
  [variant('G721_32-BIG.au', 'g721-stereo.au', (b, v) => { v.setUint32(20, 2); return b }), 'G.721 ADPCM with 2 channels (libsndfile reads mono only)'],
  [variant('PCM_16-LITTLE.au', 'g722.au', (b, v) => { v.setUint32(12, 24, true); return b }), 'AU encoding 24 (G.722 ADPCM), which libsndfile does not read either'],
  [variant('PCM_16-BIG.au', 'no-channels.au', (b, v) => { v.setUint32(20, 0); return b }), 'absurd channel count 0'],
]

/** libsndfile's decode of each file (`<name>.f32`, planar) and its length, or its error. */
const reference = libsndfileDecodes(dir, [...cases.map((c) => c[0]), ...edges.map((e) => e[0]), ...refused.map((r) => r[0])])

/** Decodes `name` and expects libsndfile's samples exactly. @returns the decode */
async function expectLibsndfile(name: string) {
  const ref = reference[name]
  expect(ref.error, name).toBeUndefined()
  const want = libsndfileSamples(dir, name)
  const audio = await decodeAudio(read(name), { id: name })
  expect(audio.container).toBe('au')
  expect(audio.sampleRate).toBe(ref.rate)
  expect(audio.channels.length).toBe(ref.channels)
  expect(audio.frames).toBe(ref.frames)
  for (let c = 0; c < ref.channels; c++) {
    const w = want.subarray(c * ref.frames, (c + 1) * ref.frames)
    let worst = 0
    for (let k = 0; k < ref.frames; k++) worst = Math.max(worst, Math.abs(audio.channels[c][k] - w[k]))
    expect(worst, `${name} channel ${c}`).toBe(0)
  }
  expect(sniffAudio(read(name)).declaredFrames, name).toBe(ref.declared)
  return audio
}

describe('decodeAudio on Sun/NeXT AU files libsndfile wrote', () => {
  it.each(cases)('%s', async (name, sub) => {
    const audio = await expectLibsndfile(name)
    expect(audio.codec).toBe({ ULAW: 'ulaw', ALAW: 'alaw', FLOAT: 'float', DOUBLE: 'float', G721_32: 'g721', G723_24: 'g723', G723_40: 'g723' }[sub] ?? 'pcm')
    expect(sniffAudio(read(name)).problems).toEqual([])
    expect(audio.warnings).toEqual([])
  })
})

describe('AU header edge cases, as libsndfile reads them', () => {
  it.each(edges)('%s: %s', async (name) => {
    const audio = await expectLibsndfile(name)
    expect(audio.trainable).toBe(true)
    if (name === 'cut-data.au') expect(audio.warnings.join('; ')).toMatch(/^truncated data: header declares \d+ bytes, file has \d+$/)
  })

  it('the variants differ from the files they came from where libsndfile says they do', () => {
    expect(reference['unknown-size-be.au'].frames).toBe(reference['PCM_16-BIG.au'].frames)
    expect(reference['short-size.au'].frames).toBe(3000 / 6)
    expect(reference['cut-data.au'].frames).toBe(reference['PCM_16-BIG.au'].frames - Math.ceil(101 / 4))
    expect(reference['g721-trailing.au'].frames).toBeGreaterThan(reference['G721_32-BIG.au'].frames)
    expect(reference['g723-24-short-size.au'].frames).toBe(reference['G723_24-LITTLE.au'].frames)
  })
})

describe('AU files libsndfile refuses', () => {
  it.each(refused)('%s', async (name, message) => {
    expect(reference[name].error, `libsndfile reads ${name}`).toBeTruthy()
    await expect(decodeAudio(read(name), { id: name })).rejects.toThrow(message)
  })
})

describe('streamed AU files (pcm-stream.ts)', () => {
  const names = ['PCM_16-BIG.au', 'FLOAT-LITTLE.au', 'DOUBLE-BIG.au', 'ALAW-LITTLE.au', 'PCM_S8-BIG.au', 'unknown-size-be.au', 'short-size.au', 'cut-data.au', 'offset-40.au']

  it('read a stretch at a time give the whole-file path\'s bytes', async () => {
    const convert = createStreamedClipConverter(loadLibFlacNode, { chunkBytes: 1021 })
    for (const name of names) {
      const whole = await processClipNode({ bytes: read(name), id: name, format: 'flac' })
      if (!whole.ok) throw new Error(whole.error)
      const file = fileReader(join(dir, name))
      const got = ok(await convert({ read: file.read, size: file.size, id: name, format: 'flac' }))
      expect(got.streamed, name).toBe(true)
      expect(got.sourceFrames, name).toBe(reference[name].frames)
      expect(Buffer.from(got.audio).equals(Buffer.from(whole.audio)), name).toBe(true)
      expect(file.stats.reads, name).toBeGreaterThan(2)
    }
  })

  it('take the whole file\'s length from a head shorter than the file', () => {
    for (const name of names) {
      const b = read(name)
      const layout = pcmLayoutFromHead(b.subarray(0, 64), b.length)
      expect(layout?.container, name).toBe('au')
      expect(layout?.layout.frames, name).toBe(reference[name].frames)
    }
  })
})
