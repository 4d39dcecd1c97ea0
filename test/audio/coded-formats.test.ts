/**
 * The compressed codecs of the raw-sample containers (coded.ts): AIFC `ima4`, AIFC `DWVW` (16 and 24 bits), GSM 6.10
 * in WAV, Wave64 and AIFC, ALAC (16/20/24/32 bits, 1–3 channels) in CAF, written by libsndfile itself and, where they write them, by sox and ffmpeg, decoded by `decodeAudio` and compared with libsndfile's
 * decode sample for sample: `sf.read(dtype='float32')`, and for DWVW, which python-soundfile's `read` cannot read
 * (its `tell()` seeks, and libsndfile cannot seek in DWVW), libsndfile's own `sf_open` + `sf_readf_float` through
 * soundfile's cffi binding.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { openStreamedDecode } from '../../src/engine/audio/streamed-decode.ts'
import { fileReader } from '../prepare/long-files.ts'
import { runPython } from '../prepare/python.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-coded-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * [name, how it is written, channels, rate]: `sf:<format>:<subtype>` by libsndfile, `sox:<encoding>` / `ffmpeg:<codec>`
 * by sox / ffmpeg from a PCM_16 source (.ci/run installs both).
 */
const cases: [string, string, number, number][] = [
  ['ima4-mono.aiff', 'sf:AIFF:IMA_ADPCM', 1, 8000],
  ['ima4-stereo.aiff', 'sf:AIFF:IMA_ADPCM', 2, 44100],
  ['ima4-ffmpeg.aiff', 'ffmpeg:adpcm_ima_qt', 2, 22050],
  ['dwvw16-mono.aiff', 'sf:AIFF:DWVW_16', 1, 16000],
  ['dwvw16-48k.aiff', 'sf:AIFF:DWVW_16', 1, 48000],
  ['dwvw24-mono.aiff', 'sf:AIFF:DWVW_24', 1, 22050],
  ['dwvw24-44k.aiff', 'sf:AIFF:DWVW_24', 1, 44100],
  ['gsm.wav', 'sf:WAV:GSM610', 1, 8000],
  ['gsm-16k.wav', 'sf:WAV:GSM610', 1, 16000],
  ['gsm.w64', 'sf:W64:GSM610', 1, 8000],
  ['gsm-16k.w64', 'sf:W64:GSM610', 1, 16000],
  ['gsm-22k.aiff', 'sf:AIFF:GSM610', 1, 22050],
  ['gsm.aiff', 'sf:AIFF:GSM610', 1, 8000],
  ['gsm-11k.aiff', 'sf:AIFF:GSM610', 1, 11025],
  ['gsm-sox.wav', 'sox:gsm-full-rate', 1, 8000],
  ['gsm-ffmpeg.wav', 'ffmpeg:libgsm_ms', 1, 8000],
  ['alac16-mono.caf', 'sf:CAF:ALAC_16', 1, 16000],
  ['alac16-stereo.caf', 'sf:CAF:ALAC_16', 2, 44100],
  ['alac20-stereo.caf', 'sf:CAF:ALAC_20', 2, 22050],
  ['alac20-mono.caf', 'sf:CAF:ALAC_20', 1, 48000],
  ['alac20-stereo-48k.caf', 'sf:CAF:ALAC_20', 2, 48000], // libsndfile's encoder overflows its last packet: read on as libsndfile reads it
  ['alac24-mono.caf', 'sf:CAF:ALAC_24', 1, 22050],
  ['alac24-stereo.caf', 'sf:CAF:ALAC_24', 2, 96000],
  ['alac32-mono.caf', 'sf:CAF:ALAC_32', 1, 8000],
  ['alac32-stereo.caf', 'sf:CAF:ALAC_32', 2, 16000],
  ['alac16-3ch.caf', 'sf:CAF:ALAC_16', 3, 16000],
]

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0

// the sources: a chirp plus noise, with full-scale runs and a stretch of silence
runPython(`
import sys, json, numpy as np, soundfile as sf
d, cases = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(11)
for name, how, ch, rate in cases:
    n = int(rate * 0.93) + 7
    t = np.arange(n) / rate
    x = np.stack([0.7 * np.sin(2 * np.pi * (150 + 2500 * t) * t + c) for c in range(ch)], axis=1) + rng.normal(0, 0.05, (n, ch))
    x[:30] = 1.0; x[30:60] = -1.0; x[200:400] = 0
    x = np.clip(x, -1, 1)
    if how.startswith('ffmpeg:') or how.startswith('sox:'):
        sf.write(f'{d}/{name}.src.wav', x, rate, subtype='PCM_16')
    else:
        _, fmt, sub = how.split(':')
        sf.write(f'{d}/{name}', x, rate, format=fmt, subtype=sub)
`, [dir, JSON.stringify(cases)])
for (const [name, how] of cases) {
  if (how.startsWith('sox:')) {
    const r = spawnSync('sox', [join(dir, `${name}.src.wav`), '-e', how.slice(4), join(dir, name)], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`sox failed: ${r.stderr}`)
  }
  if (!how.startsWith('ffmpeg:') || !hasFfmpeg) continue
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, `${name}.src.wav`), '-c:a', how.slice(7), join(dir, name)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`)
}

/** libsndfile's float32 decode of each file (planar, little-endian, `<name>.f32`) and what it reports. */
function reference(names: string[]): { rate: number; channels: number; frames: number; error?: string }[] {
  return JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
from soundfile import _snd, _ffi
d, names = sys.argv[1], json.loads(sys.argv[2])
def c_read(path):
    # libsndfile's own open and read, no seek (what python-soundfile's read() does, less its tell())
    info = _ffi.new('SF_INFO*')
    h = _snd.sf_open(path.encode(), 0x10, info)
    if h == _ffi.NULL:
        raise RuntimeError(_ffi.string(_snd.sf_strerror(_ffi.NULL)).decode())
    out = np.zeros(info.frames * info.channels, np.float32)
    got = _snd.sf_readf_float(h, _ffi.cast('float *', out.ctypes.data), info.frames)
    error = _ffi.string(_snd.sf_strerror(h)).decode()
    _snd.sf_close(h)
    if got < info.frames:
        raise RuntimeError(f'read {got} of {info.frames} frames: {error}')
    return out[:got * info.channels].reshape(got, info.channels), info.samplerate
res = []
for name in names:
    path = f'{d}/{name}'
    try:
        try:
            y, rate = sf.read(path, dtype='float32', always_2d=True)
        except Exception as e:
            if 'seek' not in str(e):
                raise
            y, rate = c_read(path)
    except Exception as e:
        res.append({'rate': 0, 'channels': 0, 'frames': 0, 'error': str(e)})
        continue
    y.T.astype('<f4').tofile(path + '.f32')
    res.append({'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0]})
print(json.dumps(res))
`, [dir, JSON.stringify(names)]))
}

function compare(name: string, ref: { rate: number; channels: number; frames: number }, audio: Awaited<ReturnType<typeof decodeAudio>>): void {
  const want = new Float32Array(readFileSync(join(dir, `${name}.f32`)).buffer.slice(0))
  expect(audio.sampleRate, name).toBe(ref.rate)
  expect(audio.channels.length, name).toBe(ref.channels)
  expect(audio.frames, `${name}: frames as libsndfile counts them`).toBe(ref.frames)
  for (let c = 0; c < ref.channels; c++) {
    let worst = 0
    let at = -1
    for (let k = 0; k < ref.frames; k++) {
      const d = Math.abs(audio.channels[c][k] - want[c * ref.frames + k])
      if (d > worst) { worst = d; at = k }
    }
    expect(worst, `${name} channel ${c}: largest difference at frame ${at}`).toBe(0)
  }
}

describe('decodeAudio on coded AIFF/CAF/WAV, against libsndfile', () => {
  const made = cases.filter(([, how]) => hasFfmpeg || !how.startsWith('ffmpeg:'))
  const refs = reference(made.map((c) => c[0]))
  it.each(made.map((c, i) => [i, ...c] as const))('%i: %s (%s)', async (i, name) => {
    expect(refs[i].error, name).toBeUndefined()
    const bytes = new Uint8Array(readFileSync(join(dir, name)))
    const audio = await decodeAudio(bytes, { id: name })
    compare(name, refs[i], audio)
    expect(audio.trainable).toBe(true)
    expect(sniffAudio(bytes).problems).toEqual([])
    // and the dataprep converts it
    const r = await processClipNode({ bytes, id: name, format: 'flac' })
    expect(r.ok, name).toBe(true)
  })
})

/** The streamed decode of a file (streamed-decode.ts → coded-stream.ts), its pieces joined, and its largest read. */
async function streamed(path: string, chunkBytes: number): Promise<{ audio: { sampleRate: number; channels: Float32Array[]; frames: number }; largest: number } | null> {
  const file = fileReader(path)
  const head = await file.read(0, Math.min(file.size, 1 << 20))
  const s = await openStreamedDecode(file.read, file.size, head, chunkBytes)
  if (!s) return null
  file.stats.largest = 0
  const channels = Array.from({ length: s.channels }, () => new Float32Array(s.frames))
  let at = 0
  for await (const p of s.pieces()) {
    expect(at + p[0].length, path).toBeLessThanOrEqual(s.frames)
    p.forEach((c, i) => channels[i].set(c, at))
    at += p[0].length
  }
  expect(at, `${path}: frames the pieces hold`).toBe(s.frames)
  return { audio: { sampleRate: s.sampleRate, channels, frames: s.frames }, largest: file.stats.largest }
}

describe('the coded streams read a stretch at a time (coded-stream.ts), against libsndfile', () => {
  const made = cases.filter(([, how]) => hasFfmpeg || !how.startsWith('ffmpeg:'))
  // each file, and a copy cut at an odd byte short of its end (a last block or packet cut short)
  const cut = made.map(([name]) => {
    const bytes = readFileSync(join(dir, name))
    const cutName = `cut-${name}`
    writeFileSync(join(dir, cutName), bytes.subarray(0, bytes.length - 1 - (bytes.length % 7)))
    return cutName
  })
  const names = [...made.map((c) => c[0]), ...cut]
  const refs = reference(names)
  it.each(names.map((n, i) => [i, n] as const))('%i: %s', async (i, name) => {
    const bytes = new Uint8Array(readFileSync(join(dir, name)))
    const whole = await decodeAudio(bytes, { id: name }).catch((e: Error) => e)
    // libsndfile reads every cut file but ALAC cut inside its last packet (its read comes up short: training fails
    // on it; decodeAudio then gives the packets before it, the streamed decode the same)
    if (refs[i].error === undefined && !(whole instanceof Error)) compare(name, refs[i], whole)
    for (const chunkBytes of [997, 1 << 20]) {
      const got = await streamed(join(dir, name), chunkBytes)
      if (whole instanceof Error) {
        expect(got, `${name}: decodeAudio refuses it (${whole.message}); not streamed`).toBeNull()
        continue
      }
      expect(got, `${name} is streamed`).not.toBeNull()
      const { audio, largest } = got!
      expect(audio.sampleRate, name).toBe(whole.sampleRate)
      expect(audio.frames, name).toBe(whole.frames)
      for (let c = 0; c < whole.channels.length; c++) {
        expect(Buffer.from(audio.channels[c].buffer).equals(Buffer.from(whole.channels[c].buffer)), `${name} channel ${c}, stretches of ${chunkBytes} B`).toBe(true)
      }
      if (refs[i].error === undefined) compare(name, refs[i], { ...whole, ...audio })
      // a fixed number of blocks or packets per read (ALAC: at least one packet, ≤ 4096 frames of 32-bit samples;
      // DWVW: at least 4 KiB)
      expect(largest, name).toBeLessThanOrEqual(name.endsWith('.caf') ? Math.max(chunkBytes, 4096 * 4 * audio.channels.length + 64) : Math.max(chunkBytes, 4096) + 4096)
    }
  })
})

describe('what libsndfile does not read', () => {
  it.runIf(hasFfmpeg)('refuses ALAC in CAF as ffmpeg writes it (format flags 0), which libsndfile refuses too', async () => {
    const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'alac16-stereo.caf'), '-c:a', 'alac', join(dir, 'alac-ffmpeg.caf')], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    expect(reference(['alac-ffmpeg.caf'])[0].error).toMatch(/unsupported encoding/)
    const bytes = new Uint8Array(readFileSync(join(dir, 'alac-ffmpeg.caf')))
    await expect(decodeAudio(bytes, { id: 'alac-ffmpeg.caf' })).rejects.toThrow(/ALAC format flags 0, which libsndfile 1\.2 refuses/)
  })

  it('refuses 12-bit DWVW AIFF, which libsndfile 1.2 cannot read either', async () => {
    // libsndfile will not write one; its 16-bit file with COMM's sample size patched to 12
    const bytes = new Uint8Array(readFileSync(join(dir, 'dwvw16-mono.aiff')))
    const comm = Buffer.from(bytes).indexOf('COMM')
    new DataView(bytes.buffer).setUint16(comm + 8 + 6, 12)
    writeFileSync(join(dir, 'dwvw12.aiff'), bytes)
    // it opens the file, then reads no frame: "File contains data in an unimplemented format"
    expect(reference(['dwvw12.aiff'])[0].error).toMatch(/read 0 of \d+ frames: .*unimplemented format/)
    await expect(decodeAudio(bytes, { id: 'dwvw12.aiff' })).rejects.toThrow(/12-bit DWVW, which libsndfile 1\.2 does not read/)
  })
})
