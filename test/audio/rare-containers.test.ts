/**
 * libsndfile's rarer containers (rare-containers.ts, paf24.ts, sds.ts, xi.ts): files written by libsndfile itself
 * (python3-soundfile) in every sample format and byte order it writes for IRCAM, HTK, AVR, WVE, MAT4, MAT5, PVF, PAF
 * (24-bit blocks too), IFF 8SVX/16SV, MPC2K, VOC, MIDI SDS and FastTracker 2 XI (delta PCM), mono and stereo where it
 * writes stereo, decoded by `decodeAudio` and compared with libsndfile's `sf.read(dtype='float32')` sample for sample
 * (exact equality); VOC's other sound blocks as sox writes them; edited headers, and SDS lengths where libsndfile's
 * reader returns fewer frames than it declares, read as libsndfile reads them; what it refuses refused; and the files
 * converted by the dataprep's streamed path (raw samples, and PAF 24-bit and XI's coded streams) with the whole-file
 * path's bytes.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createStreamedClipConverter } from '../../src/engine/prepare/clip.ts'
import { runPython } from '../prepare/python.ts'
import { libsndfileDecodes, libsndfileSamples } from './libsndfile-reference.ts'
import { fileReader, ok } from '../prepare/long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-rare-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** [soundfile format, mixscope container, byte orders, stereo too] */
const formats: [string, string, string[], boolean][] = [
  ['IRCAM', 'ircam', ['BIG', 'LITTLE'], true], ['HTK', 'htk', ['FILE'], false], ['AVR', 'avr', ['FILE'], true],
  ['WVE', 'wve', ['FILE'], false], ['MAT4', 'mat4', ['BIG', 'LITTLE'], true], ['PVF', 'pvf', ['FILE'], true],
  ['PAF', 'paf', ['BIG', 'LITTLE'], true], ['SVX', 'svx', ['FILE'], false], ['MPC2K', 'mpc2k', ['FILE'], true],
  ['VOC', 'voc', ['FILE'], true], ['MAT5', 'mat5', ['BIG', 'LITTLE'], true], ['SDS', 'sds', ['FILE'], false], ['XI', 'xi', ['FILE'], false],
]
/** SDS lengths around libsndfile's reader's quirks: [subtype, frames] (`sdsRead`). */
const sdsLengths: [string, number][] = [['PCM_S8', 60], ['PCM_S8', 61], ['PCM_S8', 2050], ['PCM_S8', 2100], ['PCM_16', 40], ['PCM_16', 2100], ['PCM_24', 29], ['PCM_24', 4097]]

/** Every file written ([name, container]) and libsndfile's decode of it (`<name>.f32`, planar). */
const written = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d, formats, sds = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
rng = np.random.default_rng(13)
n = 3001
t = np.arange(n)
x = np.clip(np.stack([0.7 * np.sin(t / 10), 0.4 * np.cos(t / 7)], axis=1) + rng.normal(0, 0.05, (n, 2)), -1, 1)
x[:10] = 1.0; x[10:20] = -1.0
files = []
for fmt, container, orders, stereo in formats:
    for sub in sf.available_subtypes(fmt):
        for endian in orders:
            for ch in ([1, 2] if stereo else [1]):
                name = f'{fmt}-{sub}-{endian}-{ch}.bin'
                sf.write(f'{d}/{name}', x[:, :ch], 8000 if fmt == 'WVE' else 11025, format=fmt, subtype=sub, endian=endian)
                files.append([name, container])
# MAT5 over 65535 Hz: the rate as a 32-bit integer element, not a 16-bit one
sf.write(f'{d}/MAT5-96k.bin', x, 96000, format='MAT5', subtype='FLOAT')
files.append(['MAT5-96k.bin', 'mat5'])
for sub, n in sds:
    name = f'SDS-{sub}-{n}frames.bin'
    sf.write(f'{d}/{name}', x[:n, :1], 22050, format='SDS', subtype=sub)
    files.append([name, 'sds-short'])
print(json.dumps(files))
`, [dir, JSON.stringify(formats), JSON.stringify(sdsLengths)])) as [string, string][]

const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)))

/** A copy of `name` with `edit` applied, written as `out`. */
function variant(name: string, out: string, edit: (b: Uint8Array, v: DataView) => Uint8Array): string {
  const b = read(name).slice()
  writeFileSync(join(dir, out), edit(b, new DataView(b.buffer)))
  return out
}
const at = (b: Uint8Array, text: string) => Buffer.from(b).indexOf(text)

/** VOC's other sound blocks, as sox writes them: [file, sox arguments]; libsndfile writes type 9 blocks only. */
const soxVoc: [string, string[]][] = [
  ['voc-type1.voc', ['-r', '11025', '-c', '1', '-b', '8', '-e', 'unsigned-integer']],
  ['voc-type8.voc', ['-r', '22050', '-c', '2', '-b', '8', '-e', 'unsigned-integer']],
  ['voc-type9-sox.voc', ['-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer']],
]
for (const [name, args] of soxVoc) {
  const r = spawnSync('sox', ['-n', ...args, join(dir, name), 'synth', '0.3', 'sine', '440', 'sine', '1234'], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`sox: ${r.stderr}`)
}

/** Edited files libsndfile reads: [file, container, what it tests]. */
const edges: [string, string, string][] = [
  ...soxVoc.map(([name]): [string, string, string] => [name, 'voc', `sox's VOC, block type ${name.slice(8, 9)}`]),
  [variant('AVR-PCM_16-FILE-2.bin', 'avr-cut.bin', (b) => b.subarray(0, b.length - 41)), 'avr', 'AVR cut inside its data (the header counts more frames)'],
  [variant('AVR-PCM_S8-FILE-1.bin', 'avr-long.bin', (b) => new Uint8Array([...b, 9, 8, 7, 6, 5])), 'avr', 'AVR with more data than its header counts (libsndfile reads to the end)'],
  [variant('SVX-PCM_16-FILE-1.bin', 'svx-short-body.bin', (b, v) => { v.setUint32(at(b, 'BODY') + 4, 1000); return b }), 'svx', '16SV with a BODY shorter than the data after it (libsndfile reads to the end)'],
  [variant('MAT4-PCM_32-BIG-1.bin', 'mat4-long.bin', (b) => new Uint8Array([...b, 1, 2, 3, 4, 5, 6, 7, 8])), 'mat4', 'MAT4 with bytes after its matrix'],
  [variant('MAT4-FLOAT-LITTLE-2.bin', 'mat4-cut.bin', (b) => b.subarray(0, b.length - 30)), 'mat4', 'MAT4 cut inside its data'],
  [variant('PAF-PCM_24-BIG-2.bin', 'paf24-cut.bin', (b) => b.subarray(0, b.length - 40)), 'paf', 'PAF 24-bit cut inside a block'],
  [variant('IRCAM-PCM_16-LITTLE-1.bin', 'ircam-odd.bin', (b) => new Uint8Array([...b, 7])), 'ircam', 'IRCAM with a partial frame at the end'],
  [variant('WVE-ALAW-FILE-1.bin', 'wve-long.bin', (b) => new Uint8Array([...b, 1, 2, 3, 4, 5])), 'wve', 'WVE with bytes past its declared length'],
  // the samplerate element (at 192) as a double, 22050.5 Hz: lrint rounds half to even
  [variant('MAT5-PCM_16-LITTLE-2.bin', 'mat5-double-rate.bin', (b) => {
    const rate = new Uint8Array(16)
    const v = new DataView(rate.buffer)
    v.setInt32(0, 9, true)
    v.setInt32(4, 8, true)
    v.setFloat64(8, 22050.5, true)
    return new Uint8Array([...b.subarray(0, 192), ...rate, ...b.subarray(200)])
  }), 'mat5', 'MAT5 with its rate as a double'],
  [variant('MAT5-PCM_32-BIG-2.bin', 'mat5-no-rate.bin', (b) => new Uint8Array([...b.subarray(0, 128), ...b.subarray(200)])), 'mat5', 'MAT5 without a samplerate matrix (44.1 kHz)'],
  [variant('MAT5-DOUBLE-BIG-1.bin', 'mat5-long.bin', (b) => new Uint8Array([...b, 1, 2, 3, 4, 5, 6, 7, 8, 9])), 'mat5', 'MAT5 with bytes after its matrix (libsndfile reads to the end)'],
  // 200 bytes off: packet 75 (the last libsndfile reads) keeps 16 of its 40 samples, the rest are packet 74's bytes;
  // python-soundfile's seek after the read fails on a file cut by two packets or more
  [variant('SDS-PCM_16-FILE-1.bin', 'sds-cut.bin', (b) => b.subarray(0, b.length - 200)), 'sds', 'SDS cut inside a packet (its missing bytes are the previous packet\'s)'],
  [variant('XI-DPCM_16-FILE-1.bin', 'xi-odd.bin', (b) => new Uint8Array([...b, 7])), 'xi', 'XI 16-bit with a partial sample at the end'],
  [variant('XI-DPCM_8-FILE-1.bin', 'xi-cut.bin', (b) => b.subarray(0, b.length - 100)), 'xi', 'XI cut inside its samples'],
]

/** Edited files both refuse: [file, mixscope's message]. */
const refused: [string, string][] = [
  [variant('IRCAM-PCM_16-BIG-1.bin', 'ircam-24bit.bin', (b, v) => { v.setUint32(12, 3); return b }), 'IRCAM encoding 0x3, which libsndfile does not read either'],
  [variant('SVX-PCM_S8-FILE-1.bin', 'svx-fibonacci.bin', (b) => { b[at(b, 'VHDR') + 8 + 15] = 1; return b }), 'Fibonacci delta compression, which libsndfile does not read either'],
  [variant('PAF-PCM_16-BIG-1.bin', 'paf-v1.bin', (b, v) => { v.setUint32(4, 1); return b }), 'PAF version 1 (libsndfile reads 0)'],
  // an HTK file whose count does not give its length is not recognised, by libsndfile either
  [variant('HTK-PCM_16-FILE-1.bin', 'htk-extra.bin', (b) => new Uint8Array([...b, 0, 0])), 'unknown magic bytes'],
  [variant('MAT5-PCM_16-BIG-1.bin', 'mat5-mark.bin', (b) => { b[126] = 0x58; return b }), 'MAT5 byte-order mark "XI"'],
  [variant('MAT5-PCM_16-LITTLE-1.bin', 'mat5-int8.bin', (b, v) => { v.setInt32(Buffer.from(b).lastIndexOf('wavedata') + 8, 1, true); return b }), 'MAT5 data of type 1, which libsndfile does not read either'],
  [variant('SDS-PCM_16-FILE-1.bin', 'sds-7bit.bin', (b) => { b[6] = 7; return b }), 'SDS of 7 bits (libsndfile reads 8–28)'],
  [variant('XI-DPCM_8-FILE-1.bin', 'xi-3-samples.bin', (b) => {
    // three samples listed, each with a size (libsndfile writes 0): libsndfile reads one, or two
    const out = new Uint8Array([...b.subarray(0, 338), ...b.subarray(298, 338), ...b.subarray(298, 338), ...b.subarray(338)])
    const v = new DataView(out.buffer)
    v.setInt16(296, 3, true)
    for (let k = 0; k < 3; k++) v.setInt32(298 + 40 * k, 1000, true)
    return out
  }), 'XI of 3 samples (libsndfile reads one, or two)'],
]

const names = [...written.map(([n]) => n), ...edges.map(([n]) => n), ...refused.map(([n]) => n)]
const reference = libsndfileDecodes(dir, names)

/**
 * Decodes `name` and expects libsndfile's samples exactly.
 * @param declared the length the sniffer reports (default: the frames libsndfile reads)
 */
async function expectLibsndfile(name: string, container: string, declared = reference[name].frames) {
  const ref = reference[name]
  expect(ref.error, name).toBeUndefined()
  const want = libsndfileSamples(dir, name)
  const audio = await decodeAudio(read(name), { id: name })
  expect(audio.container).toBe(container)
  expect(audio.sampleRate).toBe(ref.rate)
  expect(audio.channels.length).toBe(ref.channels)
  expect(audio.frames).toBe(ref.frames)
  for (let c = 0; c < ref.channels; c++) {
    const w = want.subarray(c * ref.frames, (c + 1) * ref.frames)
    let worst = 0
    for (let k = 0; k < ref.frames; k++) worst = Math.max(worst, Math.abs(audio.channels[c][k] - w[k]))
    expect(worst, `${name} channel ${c}`).toBe(0)
  }
  expect(sniffAudio(read(name)).declaredFrames, name).toBe(declared)
  return audio
}

describe('decodeAudio on libsndfile\'s rarer containers', () => {
  it.each(written.filter(([, c]) => c !== 'sds-short'))('%s', async (name, container) => {
    const audio = await expectLibsndfile(name, container)
    expect(sniffAudio(read(name)).problems).toEqual([])
    expect(audio.trainable, name).toBe(true)
  })

  it.each(written.filter(([, c]) => c === 'sds-short'))('%s: the frames libsndfile\'s SDS reader returns', async (name) => {
    const ref = reference[name]
    const audio = await expectLibsndfile(name, 'sds', ref.declared)
    // fewer than it declares: training reads the declared count and fails on the short read
    expect(audio.trainable, name).toBe(ref.frames === ref.declared)
    if (ref.frames < ref.declared) expect(audio.untrainable).toContain(`returns ${ref.frames} of the ${ref.declared} frames`)
  })

  it.each(edges)('%s (%s): %s', async (name, container) => {
    await expectLibsndfile(name, container)
  })

  it.each(refused)('refuses %s as libsndfile does', async (name, message) => {
    expect(reference[name].error, `libsndfile reads ${name}`).toBeTruthy()
    await expect(decodeAudio(read(name), { id: name })).rejects.toThrow(message)
  })
})

describe('the edited files differ where libsndfile says they do', () => {
  it('reads them as libsndfile does', () => {
    expect(reference['mat5-double-rate.bin'].rate).toBe(22050)
    expect(reference['mat5-no-rate.bin'].rate).toBe(44100)
    expect(reference['mat5-long.bin'].frames).toBe(reference['MAT5-DOUBLE-BIG-1.bin'].frames + 1)
    expect(reference['xi-odd.bin'].frames).toBe(reference['XI-DPCM_16-FILE-1.bin'].frames)
    expect(reference['xi-cut.bin'].frames).toBe(reference['XI-DPCM_8-FILE-1.bin'].frames - 100)
    expect(reference['sds-cut.bin'].frames).toBe(reference['SDS-PCM_16-FILE-1.bin'].frames)
    expect(sniffAudio(read('sds-cut.bin')).problems).toEqual(['truncated data: the 75 packets libsndfile reads need 9525 bytes, file has 9452'])
    // the SDS lengths include some libsndfile reads short, and some it reads whole
    const short = written.filter(([, c]) => c === 'sds-short').map(([n]) => reference[n])
    expect(short.some((r) => r.frames < r.declared)).toBe(true)
    expect(short.some((r) => r.frames === r.declared)).toBe(true)
  })
})

describe('streamed rare containers (pcm-stream.ts, coded-stream.ts)', () => {
  it('read a stretch at a time give the whole-file path\'s bytes', async () => {
    const convert = createStreamedClipConverter(loadLibFlacNode, { chunkBytes: 1021 })
    const streamed = ['IRCAM-FLOAT-LITTLE-2.bin', 'AVR-PCM_U8-FILE-2.bin', 'WVE-ALAW-FILE-1.bin', 'MAT4-PCM_16-BIG-2.bin', 'PVF-PCM_32-FILE-2.bin',
      'PAF-PCM_16-LITTLE-2.bin', 'SVX-PCM_16-FILE-1.bin', 'MPC2K-PCM_16-FILE-2.bin', 'VOC-PCM_16-FILE-2.bin', 'voc-type8.voc', 'avr-cut.bin', 'svx-short-body.bin',
      'MAT5-DOUBLE-LITTLE-2.bin', 'MAT5-PCM_U8-BIG-1.bin', 'mat5-no-rate.bin', 'PAF-PCM_24-BIG-2.bin', 'paf24-cut.bin', 'XI-DPCM_8-FILE-1.bin', 'XI-DPCM_16-FILE-1.bin', 'xi-odd.bin']
    for (const name of streamed) {
      const whole = await processClipNode({ bytes: read(name), id: name, format: 'flac' })
      if (!whole.ok) throw new Error(whole.error)
      const file = fileReader(join(dir, name))
      const got = ok(await convert({ read: file.read, size: file.size, id: name, format: 'flac' }))
      expect(got.streamed, name).toBe(true)
      expect(got.sourceFrames, name).toBe(reference[name].frames)
      expect(Buffer.from(got.audio).equals(Buffer.from(whole.audio)), name).toBe(true)
    }
  })
})
