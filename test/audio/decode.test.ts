import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OggOpusDecoder } from 'ogg-opus-decoder'
import { decodeAudio, decodeMany } from '../../src/engine/audio/decode.ts'
import { OGG_FLAC_UNTRAINABLE } from '../../src/engine/audio/ogg.ts'
import { resample } from '../../src/engine/audio/resample.ts'
import { sniffAudio } from '../../src/engine/audio/sniff.ts'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { fixtureBytes, fixtures, referencePlanar } from './fixtures.ts'

/** SNR of `got` against `ref` in dB over the first `n` samples. */
export function snrDb(ref: Float32Array, got: Float32Array): number {
  let s = 0
  let e = 0
  for (let i = 0; i < ref.length; i++) { s += ref[i] ** 2; e += (ref[i] - got[i]) ** 2 }
  return e === 0 ? Infinity : 10 * Math.log10(s / e)
}

/** WASM path vs libsndfile's decode. Lossy codecs run the same libraries (libvorbis, libopus, mpg123) in WASM. */
const LOSSY_SNR_DB = { vorbis: 120, opus: 100, mp3: 100 } as Record<string, number>

describe('decodeAudio (Node: WAV parser + WASM decoders) against libsndfile', () => {
  for (const f of fixtures) {
    it(`${f.file}: rate, channels, exact length${f.lossless ? ', identical samples' : `, SNR ≥ ${LOSSY_SNR_DB[f.codec]} dB`}`, async () => {
      const d = await decodeAudio(fixtureBytes(f.file), { id: f.file })
      const ref = referencePlanar(f)
      expect(d.container).toBe(f.container)
      expect(d.codec).toBe(f.codec)
      expect(d.sampleRate).toBe(f.sampleRate)
      expect(d.channels.length).toBe(f.channels)
      expect(d.frames).toBe(f.frames)
      expect(d.warnings).toEqual([])
      expect([d.trainable, d.untrainable]).toEqual(f.libsndfileReads ? [true, null] : [false, OGG_FLAC_UNTRAINABLE])
      expect(d.decoder).toBe(f.container === 'wav' ? 'wav' : `wasm:${f.codec}`)
      for (let c = 0; c < f.channels; c++) {
        expect(d.channels[c].length).toBe(f.frames)
        if (f.lossless) {
          let mismatches = 0
          for (let i = 0; i < f.frames; i++) if (d.channels[c][i] !== ref[c][i]) mismatches++
          expect(mismatches, `channel ${c}`).toBe(0)
        } else {
          expect(snrDb(ref[c], d.channels[c])).toBeGreaterThanOrEqual(LOSSY_SNR_DB[f.codec])
        }
      }
    })
  }

  it('Opus decoded at 48 kHz, trimmed and resampled (the WebCodecs route) matches libsndfile at 16 kHz only to ≥ 10 dB SNR (libopus output differs by rate)', async () => {
    const f = fixtures.find((x) => x.file === 'speech-16k-mono.opus')!
    const bytes = fixtureBytes(f.file)
    const dec = new OggOpusDecoder()
    await dec.ready
    const at48 = await dec.decodeFile(bytes)
    dec.free()
    expect(at48.sampleRate).toBe(48000)
    const s = sniffAudio(bytes)
    const trimmed = at48.channelData[0].slice(0, s.declaredFrames!)
    const at16 = resample(trimmed, 48000, 16000)
    expect(at16.length).toBe(f.frames)
    expect(snrDb(referencePlanar(f)[0], at16)).toBeGreaterThanOrEqual(10)
  })
})

async function expectAudioError(bytes: Uint8Array, id: string, pattern: RegExp): Promise<void> {
  const err = await decodeAudio(bytes, { id, prefer: 'wasm' }).then(() => null, (e: unknown) => e)
  expect(err, `${id} should fail`).toBeInstanceOf(MixscopeError)
  expect((err as Error).message).toMatch(pattern)
}

function withBytes(src: Uint8Array, patch: (b: Uint8Array, v: DataView) => void): Uint8Array {
  const b = src.slice()
  patch(b, new DataView(b.buffer))
  return b
}

describe('decodeAudio on bad input: a clear error naming id and container, within seconds', () => {
  it('zero-length input', () => expectAudioError(new Uint8Array(0), 'a.parquet:0', /^audio: a\.parquet:0 \(unknown\): empty input/))
  it('garbage', () => expectAudioError(new Uint8Array(1000).fill(7), 'a.parquet:1', /^audio: a\.parquet:1 \(unknown\): not WAV, FLAC, Ogg, MP3, AIFF, CAF, Wave64, NIST SPHERE, Sun\/NeXT AU, IRCAM, HTK, AVR, WVE, MAT4, PVF, PAF, 8SVX, MPC2K, VOC, MAT5, MIDI SDS or FastTracker 2 XI: unknown magic bytes 0x07070707/))
  it('WAV with 65535 channels', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono-s16.wav'), (_, v) => v.setUint16(22, 65535, true)), 'w', /^audio: w \(wav\/pcm\): .*absurd channel count 65535/))
  it('WAV with an unknown format tag', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono-s16.wav'), (_, v) => v.setUint16(20, 0x1234, true)), 'w', /^audio: w \(wav\): unsupported WAV format tag 0x1234/))
  it('FLAC declaring 2^35 samples is refused before decoding', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono-s16.flac'), (b) => { b[21] = (b[21] & 0xf0) | 0x08 }), 'f', /^audio: f \(flac\): absurd declared length 3435\d+ samples/))
  it('FLAC over the sample limit', async () => {
    const err = await decodeAudio(fixtureBytes('speech-16k-mono-s16.flac'), { id: 'f', maxSamples: 1000 }).catch((e: Error) => e)
    expect((err as Error).message).toMatch(/^audio: f \(flac\): header declares 29873 frames × 1 channels, over the limit of 1000 samples/)
  })
  it('Ogg Opus with 0 channels', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono.opus'), (b) => { b[28 + 9] = 0 }), 'o', /^audio: o \(ogg\/opus\): absurd channel count 0/))
  it('unsupported Ogg codec (Speex)', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono.opus'), (b) => b.set([...'Speex   '].map((c) => c.charCodeAt(0)), 28)), 'o', /^audio: o \(ogg\): unknown Ogg stream, first packet starts 0x5370656578202020/))
  it('MP3 layer II is not MP3', () => expectAudioError(
    withBytes(fixtureBytes('speech-16k-mono.mp3'), (b) => { for (let i = 0; i + 1 < b.length; i++) if (b[i] === 0xff && (b[i + 1] & 0xe6) === 0xe2) b[i + 1] = (b[i + 1] & 0xf9) | 0x04 }),
    'm', /^audio: m \(mp3\): MPEG layer 2 audio is not MP3/))

  for (const f of fixtures.filter((x) => !x.file.startsWith('short'))) {
    it(`${f.file} truncated or corrupted anywhere: a prefix, trainable exactly when libsndfile reads it as training does; or a clear error`, async () => {
      const whole = fixtureBytes(f.file)
      const cases: [string, Uint8Array][] = [0.002, 0.01, 0.05, 0.3, 0.7, 0.97].map((frac) => [`cut${frac}`, whole.subarray(0, Math.floor(whole.length * frac))])
      const corrupted = whole.slice()
      for (let i = Math.floor(whole.length * 0.4); i < Math.floor(whole.length * 0.42); i++) corrupted[i] ^= 0x5a
      cases.push(['corrupted', corrupted])
      const dir = mkdtempSync(join(tmpdir(), 'mixscope-cut-'))
      try {
        const paths = cases.map(([what, bytes]) => {
          const path = join(dir, `${what}-${f.file}`)
          writeFileSync(path, bytes)
          return path
        })
        const training = execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'training-read.py'), ...paths], { stdio: ['ignore', 'pipe', 'ignore'] })
          .toString().trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; error?: string })
        for (const [k, [what, bytes]] of cases.entries()) {
          const id = `${f.file}@${what}`
          const result = await decodeAudio(bytes, { id, prefer: 'wasm' }).then((d) => d, (e: unknown) => e as Error)
          if (result instanceof Error) {
            expect(result, id).toBeInstanceOf(MixscopeError)
            expect(result.message.startsWith(`audio: ${id} (${f.container}`), result.message).toBe(true)
            // what we cannot decode at all, training cannot either
            expect(training[k].ok, `${id}: libsndfile reads what we refuse (${result.message})`).toBe(false)
          } else {
            expect(result.frames, id).toBeLessThanOrEqual(f.frames)
            expect(result.trainable, `${id}: ${result.untrainable ?? 'trainable'}; libsndfile: ${training[k].error ?? 'reads it'}`).toBe(training[k].ok && f.libsndfileReads)
            if (!result.trainable) expect(result.untrainable, id).toMatch(/libsndfile|truncated|damaged|junk/)
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  }
})

describe('decodeMany', () => {
  it('keeps every good item when one is bad', async () => {
    const results = await decodeMany([
      { id: 'x:0', bytes: fixtureBytes('speech-16k-mono-s16.flac') },
      { id: 'x:1', bytes: new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0]) },
      { id: 'x:2', bytes: fixtureBytes('speech-16k-mono.ogg') },
    ])
    expect(results.map((r) => r.ok)).toEqual([true, false, true])
    expect(results[0].ok && results[0].audio.frames).toBe(29873)
    expect(results[2].ok && results[2].audio.frames).toBe(29873)
    expect(!results[1].ok && results[1].error).toMatch(/^audio: x:1 \(flac\): truncated header/)
  })
})

describe('FLAC decoder reuse', () => {
  it('gives the same samples whatever was decoded before (reused decoders vs the libsndfile reference)', async () => {
    const names = ['speech-16k-mono-s16.flac', 'short-16k-mono-s24.flac', 'speech-44k-stereo-s16.flac']
    const orders = [names, [...names].reverse(), [names[1], names[0], names[2], names[0]]]
    for (const order of orders) {
      for (const [i, name] of order.entries()) {
        // a clip of another format, cut inside a frame, decoded just before
        const other = fixtureBytes(order[(i + 1) % order.length])
        await decodeAudio(other.subarray(0, Math.floor(other.length * 0.97)), { id: 'cut', prefer: 'wasm' }).catch(() => null)
        const audio = await decodeAudio(fixtureBytes(name), { id: name, prefer: 'wasm' })
        const fixture = fixtures.find((f) => f.file === name)!
        const reference = referencePlanar(fixture)
        expect(audio.frames, `${name} after ${order.join(', ')}`).toBe(reference[0].length)
        for (let c = 0; c < reference.length; c++) expect(audio.channels[c], name).toEqual(reference[c])
      }
    }
  })
})

describe('Opus through our Ogg demuxer into libopus', () => {
  it('gives the samples ogg-opus-decoder gives through its own Ogg parser (whole and truncated); skips a corrupted page', async () => {
    const { decodeWasm } = await import('../../src/engine/audio/wasm.ts')
    for (const f of fixtures.filter((x) => x.codec === 'opus')) {
      const whole = fixtureBytes(f.file)
      for (const [what, bytes] of [['whole', whole], ['truncated', whole.subarray(0, Math.floor(whole.length * 0.6))]] as const) {
        const sniff = sniffAudio(bytes)
        const ours = await decodeWasm(bytes, sniff, 1 << 26)
        const lib = new OggOpusDecoder({ sampleRate: sniff.sampleRate } as ConstructorParameters<typeof OggOpusDecoder>[0])
        await lib.ready
        const theirs = { sampleRate: 0, channels: [] as Float32Array[] }
        try {
          const out = await lib.decodeFile(bytes)
          theirs.sampleRate = out.sampleRate
          theirs.channels = out.channelData.map((c) => c.slice(0, out.samplesDecoded))
        } finally { lib.free() }
        expect([ours.sampleRate, ours.channels.length], `${f.file} ${what}`).toEqual([theirs.sampleRate, theirs.channels.length])
        // whole: theirs stops at the last page's granule, ours is cut there by decodeAudio. Truncated: theirs also
        // decodes the cut page's missing packets (empty slices: libopus conceals them with made-up audio); ours keeps
        // the complete packets only, a prefix of theirs (libsndfile, through libogg, drops the whole cut page)
        if (what === 'truncated') expect(ours.channels[0].length, `${f.file} ${what}`).toBeLessThanOrEqual(theirs.channels[0].length)
        else expect(ours.channels[0].length, `${f.file} ${what}`).toBeGreaterThanOrEqual(theirs.channels[0].length)
        const n = Math.min(ours.channels[0].length, theirs.channels[0].length)
        expect(n, `${f.file} ${what}`).toBeGreaterThan(0)
        for (let c = 0; c < ours.channels.length; c++) {
          expect(Buffer.compare(Buffer.from(ours.channels[c].buffer, ours.channels[c].byteOffset, n * 4), Buffer.from(theirs.channels[c].buffer, theirs.channels[c].byteOffset, n * 4)), `${f.file} ${what} channel ${c}`).toBe(0)
        }
      }
      // a page whose CRC-32 fails is skipped with a warning (as libogg does), where ogg-opus-decoder (CRC checks
      // off) decodes the damaged bytes; when that page held all the audio, the row is a named error
      const corrupted = whole.slice()
      for (let i = Math.floor(whole.length * 0.5); i < Math.floor(whole.length * 0.52); i++) corrupted[i] ^= 0x5a
      const d = await decodeAudio(corrupted, { id: 'c' }).catch((e: Error) => e)
      if (d instanceof Error) expect(d.message).toBe('audio: c (ogg/opus): wasm:opus decoded no samples')
      else {
        expect(d.warnings.some((w) => /fails its CRC-32 and was skipped/.test(w)), `${f.file}: ${JSON.stringify(d.warnings)}`).toBe(true)
        expect(d.frames).toBeLessThanOrEqual(f.frames)
      }
    }
  })
})
