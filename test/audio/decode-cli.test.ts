import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runDecode } from '../../src/cli/commands/decode.ts'
import { parseExampleReference } from '../../src/cli/lib/example-audio.ts'
import { decodeWav } from '../../src/engine/audio/wav.ts'
import { fixtureDir, fixtures, referencePlanar } from './fixtures.ts'

function collect() {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: (s: string) => { out.stdout += s }, stderr: (s: string) => { out.stderr += s } } }
}

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-decode-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('mixscope decode', () => {
  it('--json describes a FLAC file', async () => {
    const { out, io } = collect()
    const code = await runDecode([join(fixtureDir, 'speech-16k-mono-s16.flac'), '--json'], io)
    expect(code).toBe(0)
    const json = JSON.parse(out.stdout)
    expect(json).toEqual({
      schema_version: 1, root: null, source: join(fixtureDir, 'speech-16k-mono-s16.flac'), sample_rate: 16000, channels: 1, samples: 29873, decoder: 'wasm:flac', warnings: [],
      trainable: true, untrainable: null,
    })
  })
  it('--out .npy writes [samples, channels] float32 that numpy reads back as the libsndfile reference', async () => {
    const f = fixtures.find((x) => x.file === 'speech-44k-stereo-s16.flac')!
    const npy = join(dir, 'stereo.npy')
    const { io } = collect()
    expect(await runDecode([join(fixtureDir, f.file), '--out', npy], io)).toBe(0)
    const py = execFileSync('python3', ['-c', `import numpy, sys; a = numpy.load(sys.argv[1]); r = numpy.fromfile(sys.argv[2], '<f4').reshape(-1, 2); print(a.dtype, a.shape, bool((a == r).all()))`, npy, join(fixtureDir, f.reference)]).toString().trim()
    expect(py).toBe('float32 (22050, 2) True')
  })
  it('--mono --rate 16000 --out .wav writes a 1-channel 16 kHz float WAV', async () => {
    const wav = join(dir, 'mono.wav')
    const { out, io } = collect()
    expect(await runDecode([join(fixtureDir, 'speech-44k-stereo.ogg'), '--mono', '--rate', '16000', '--out', wav], io)).toBe(0)
    expect(out.stdout).toMatch(/ogg\/vorbis, 16000 Hz, 1 channel, 8000 samples \(0\.500 s\), decoder wasm:vorbis/)
    const d = decodeWav(new Uint8Array(await readFile(wav)), 'w', 1e9)
    expect([d.sampleRate, d.channels.length, d.frames, d.codec]).toEqual([16000, 1, 8000, 'float'])
  })
  it('mono .npy of a mono file is 1-D and equal to the reference', async () => {
    const f = fixtures.find((x) => x.file === 'speech-16k-mono.opus')!
    const npy = join(dir, 'opus.npy')
    expect(await runDecode([join(fixtureDir, f.file), '--out', npy], collect().io)).toBe(0)
    const bytes = new Uint8Array(await readFile(npy))
    const headerLen = bytes[8] | (bytes[9] << 8)
    expect(new TextDecoder().decode(bytes.subarray(10, 10 + headerLen))).toMatch(/'descr': '<f4', 'fortran_order': False, 'shape': \(29873,\)/)
    expect((10 + headerLen) % 64).toBe(0)
    const data = new Float32Array(bytes.slice(10 + headerLen).buffer)
    expect(data).toEqual(referencePlanar(f)[0])
  })
  it('exit 1 for undecodable audio, naming the file and container', async () => {
    const { out, io } = collect()
    const bad = join(dir, 'bad.flac')
    execFileSync('sh', ['-c', `head -c 30 "${join(fixtureDir, 'speech-16k-mono-s16.flac')}" > "${bad}"`])
    expect(await runDecode([bad], io)).toBe(1)
    expect(out.stderr).toBe(`mixscope decode: audio: ${bad} (flac): truncated header: 30 bytes, fLaC + STREAMINFO needs 42\n`)
  })
  it('exit 1 for a FLAC cut at 60% that libsndfile refuses, naming why; --out still writes the prefix, saying so', async () => {
    const cut = join(dir, 'cut.flac')
    const whole = await readFile(join(fixtureDir, 'speech-16k-mono-s16.flac'))
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.6)))
    // the independent verdict: libsndfile, read as training reads it
    const training = JSON.parse(execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'training-read.py'), cut]).toString())
    expect(training.ok).toBe(false)
    expect(training.error).toMatch(/lost sync/)
    const npy = join(dir, 'cut.npy')
    const { out, io } = collect()
    expect(await runDecode([cut, '--out', npy], io)).toBe(1)
    expect(out.stdout).toMatch(/flac, 16000 Hz, 1 channel, 12288 samples/)
    expect(out.stderr).toMatch(/wrote .*cut\.npy \(the 12288 samples that decode, for listening: not what training would read\)/)
    expect(out.stderr).toMatch(new RegExp(`mixscope decode: ${cut}: training cannot read this row: the stream ends inside a frame .*truncated; decodes 12288 of the 29873 samples its header declares`))
    expect((await readFile(npy)).length).toBeGreaterThan(12288 * 4)
    const json = collect()
    expect(await runDecode([cut, '--json'], json.io)).toBe(1)
    expect(JSON.parse(json.out.stdout)).toMatchObject({ samples: 12288, trainable: false, untrainable: expect.stringMatching(/truncated/) })
  })
  it('exit 1 for a 12-bit FLAC (libsndfile reads 8/16/24 only), exit 1 for a stream whose depth changes mid-stream', async () => {
    const a = collect()
    expect(await runDecode([join(fixtureDir, 'flac/depth-12.flac')], a.io)).toBe(1)
    expect(a.out.stderr).toMatch(/training cannot read this row: 12-bit FLAC: libsndfile/)
    const b = collect()
    expect(await runDecode([join(fixtureDir, 'flac/change-bps.flac')], b.io)).toBe(1)
    expect(b.out.stderr).toMatch(/frame 4 \(byte \d+; the format changes mid-stream\) has 24 bits per sample but STREAMINFO declares 16/)
  })
  it('fbank exits 1 on a row training cannot read (12-bit FLAC), still computing the features of what decodes', async () => {
    const { runFbank } = await import('../../src/cli/commands/fbank.ts')
    const a = collect()
    expect(await runFbank([join(fixtureDir, 'flac/depth-12.flac'), '--json'], a.io)).toBe(1)
    const json = JSON.parse(a.out.stdout)
    expect(json.frames).toBeGreaterThan(0)
    expect(json.findings).toContainEqual(expect.objectContaining({ kind: 'untrainable-audio', severity: 'error', message: expect.stringMatching(/^training cannot read this row: 12-bit FLAC/) }))
    const b = collect()
    expect(await runFbank([join(fixtureDir, 'speech-16k-mono-s16.flac'), '--json'], b.io)).toBe(0)
  })
  it('exit 2 for usage and I/O errors', async () => {
    const a = collect()
    expect(await runDecode([], a.io)).toBe(2)
    expect(a.out.stderr).toMatch(/expected one audio file or example reference, got 0/)
    const b = collect()
    expect(await runDecode([join(fixtureDir, 'speech-16k-mono.ogg'), '--rate', 'fast'], b.io)).toBe(2)
    expect(b.out.stderr).toMatch(/--rate must be an integer number of Hz from 1 to 768000 \(got "fast"\)/)
    const c = collect()
    expect(await runDecode(['/nonexistent/x.flac'], c.io)).toBe(2)
    expect(c.out.stderr).toMatch(/decode: \/nonexistent\/x\.flac is not a file/)
    const d = collect()
    expect(await runDecode([join(fixtureDir, 'speech-16k-mono.ogg'), '--out', 'x.mp3'], d.io)).toBe(2)
  })
  it('example references go through the loader given, by default the dataset named', async () => {
    const { out, io } = collect()
    const bytes = new Uint8Array(await readFile(join(fixtureDir, 'speech-16k-mono.ogg')))
    const code = await runDecode(['data/version=0#corpus=a/x.parquet:3', '--json'], io, { loadExample: async (dataset, file, row) => {
      expect([dataset, file, row]).toEqual(['data/version=0', 'corpus=a/x.parquet', 3])
      return { bytes, audioSize: 29873 }
    } })
    expect(code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ root: 'data/version=0', source: 'corpus=a/x.parquet:3', samples: 29873 })
    // the default loader opens the dataset the reference names: a missing one is a usage error naming it
    const missing = collect()
    expect(await runDecode(['/nonexistent-mixscope-dataset#f.parquet:0'], missing.io)).toBe(2)
    expect(missing.out.stderr).toMatch(/dataset: \/nonexistent-mixscope-dataset does not exist/)
  })
  it('parseExampleReference splits on the last # then the last :', () => {
    expect(parseExampleReference('a#b#c/d:e.parquet:12')).toEqual({ dataset: 'a#b', file: 'c/d:e.parquet', row: 12 })
    expect(parseExampleReference('plain.flac')).toBeNull()
    expect(parseExampleReference('a#b.parquet:x')).toBeNull()
  })
})
