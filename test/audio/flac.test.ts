/**
 * FLAC streams ordinary encoders do not write (test/fixtures/audio/flac, made by scripts/make-flac-fixtures.py)
 * against two independent references run live: libFLAC (`flac -d`, test/audio/flac-reference.py) for the samples and
 * for what it refuses, and libsndfile read as training reads it (test/audio/training-read.py) for the verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import type { DecodedAudio } from '../../src/engine/audio/types.ts'
import { MixscopeError } from '../../src/engine/core/findings.ts'
import { fixtureDir } from './fixtures.ts'

const dir = join(fixtureDir, 'flac')
const files = readdirSync(dir).filter((f) => f.endsWith('.flac')).sort()

interface Reference { file: string; ok: boolean; frames?: number; channels?: number; sample_rate?: number; error?: string }

let work: string
const libflac = new Map<string, Reference>()
const training = new Map<string, Reference>()

function jsonLines(out: string): Reference[] {
  return out.trim().split('\n').map((l) => JSON.parse(l) as Reference)
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mixscope-flac-'))
  mkdirSync(join(work, 'libflac'))
  mkdirSync(join(work, 'training'))
  const paths = files.map((f) => join(dir, f))
  for (const r of jsonLines(execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'flac-reference.py'), join(work, 'libflac'), ...paths], { maxBuffer: 1 << 26 }).toString())) {
    libflac.set(r.file.split('/').pop()!, r)
  }
  for (const r of jsonLines(execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'training-read.py'), '--out', join(work, 'training'), ...paths], { maxBuffer: 1 << 26 }).toString())) {
    training.set(r.file.split('/').pop()!, r)
  }
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A reference's samples as planar channels. */
function planar(path: string, channels: number): Float32Array[] {
  const raw = readFileSync(path)
  const inter = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
  const n = inter.length / channels
  return Array.from({ length: channels }, (_, c) => Float32Array.from({ length: n }, (_, i) => inter[i * channels + c]))
}

function expectSamples(d: DecodedAudio, ref: Float32Array[], what: string): void {
  expect(d.channels.length, what).toBe(ref.length)
  expect(d.frames, what).toBe(ref[0].length)
  for (let c = 0; c < ref.length; c++) {
    let mismatches = 0
    let first = -1
    for (let i = 0; i < ref[c].length; i++) if (d.channels[c][i] !== ref[c][i] && mismatches++ === 0) first = i
    expect(mismatches, `${what} channel ${c}: first mismatch at ${first} (${d.channels[c][first]} vs ${ref[c][first]})`).toBe(0)
  }
}

async function decode(file: string): Promise<DecodedAudio | MixscopeError> {
  return decodeAudio(new Uint8Array(readFileSync(join(dir, file))), { id: file, prefer: 'wasm' }).catch((e: unknown) => {
    if (e instanceof MixscopeError) return e
    throw e
  })
}

describe('FLAC streams against libFLAC (flac -d) and libsndfile as training reads it', () => {
  it('the fixtures cover every bit depth 4–32 and the odd streams', () => {
    expect(files.filter((f) => f.startsWith('depth-'))).toHaveLength(29)
    expect(files.length).toBeGreaterThan(45)
  })

  for (const file of files) {
    it(`${file}: libFLAC's samples or its refusal; training's verdict`, async () => {
      const ref = libflac.get(file)!
      const train = training.get(file)!
      const d = await decode(file)
      if (ref.ok) {
        // libFLAC decodes it: the same samples, bit for bit, at its rate
        expect(d, d instanceof Error ? d.message : '').not.toBeInstanceOf(Error)
        const audio = d as DecodedAudio
        expect(audio.sampleRate).toBe(ref.sample_rate)
        expectSamples(audio, planar(join(work, 'libflac', `${file}.f32`), ref.channels!), `${file} vs flac -d`)
        expect(audio.trainable, `${file}: ${audio.untrainable} / libsndfile: ${train.error}`).toBe(train.ok)
        if (!train.ok) expect(audio.untrainable).toMatch(/libsndfile/)
      } else if (/in frame but .* in STREAMINFO/.test(ref.error!)) {
        // libFLAC refuses a stream whose frames contradict STREAMINFO: so do we, naming the frame and the values
        expect(d).toBeInstanceOf(MixscopeError)
        const m = (d as Error).message
        expect(m).toMatch(new RegExp(`^audio: ${file} \\(flac\\): (the first frame|frame \\d+ \\(byte \\d+; the format changes mid-stream\\)) has .*libFLAC refuses such a stream`))
        // libsndfile refuses a channel change and decodes the others: the message says which
        expect(m.includes('so training fails on this row')).toBe(!train.ok)
      } else {
        // libFLAC stops at junk (another stream appended, a tag, damage): where libsndfile still reads the declared
        // samples, training gets those, and so do we; where it fails, we say so
        expect(d, d instanceof Error ? d.message : '').not.toBeInstanceOf(Error)
        const audio = d as DecodedAudio
        expect(audio.trainable, `${file}: ${audio.untrainable} / libsndfile: ${train.error}`).toBe(train.ok)
        if (train.ok) expectSamples(audio, planar(join(work, 'training', `${file}.f32`), train.channels!), `${file} vs libsndfile`)
        else expect(audio.untrainable).toMatch(/junk|damaged|truncated/)
      }
    })
  }

  it('depths libsndfile cannot open decode exactly but are not trainable, naming the depth', async () => {
    const d = await decode('depth-12.flac') as DecodedAudio
    expect([d.decoder, d.trainable]).toEqual(['js:flac', false])
    expect(d.untrainable).toMatch(/^12-bit FLAC: libsndfile \(the training reference's decoder\) reads only 8-, 16- and 24-bit FLAC/)
    for (const bits of [8, 16, 24]) {
      const o = await decode(`depth-${String(bits).padStart(2, "0")}.flac`) as DecodedAudio
      expect([o.decoder, o.trainable, o.untrainable]).toEqual(['wasm:flac', true, null])
    }
  })

  it('old-style variable block size (early Flake) decodes without the WASM decoder trapping', async () => {
    const d = await decode('varblock-old-silence-8ch.flac') as DecodedAudio
    expect(d.decoder).toBe('js:flac')
    expect([d.channels.length, d.frames, d.sampleRate]).toEqual([8, 576 + 319 * 4608, 96000])
    expect(d.channels.every((c) => c.every((x) => x === 0))).toBe(true)
  })
})
