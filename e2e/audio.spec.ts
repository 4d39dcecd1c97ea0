/**
 * WebCodecs decoding in Chromium against libsndfile's reference decodes and against the WASM path in the same page
 * (fixtures: test/fixtures/audio). Lossless: identical samples; lossy: exact length, SNR bounds below.
 */
import { expect, test, type Page } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeAudio as decodeInNode } from '../src/engine/node.ts'

const dir = join(import.meta.dirname, '../test/fixtures/audio')
interface Fixture { file: string; container: string; codec: string; sampleRate: number; channels: number; frames: number; lossless: boolean; reference: string; libsndfileReads: boolean }
const fixtures: Fixture[] = JSON.parse(readFileSync(join(dir, 'fixtures.json'), 'utf8')).fixtures

interface Decoded { sampleRate: number; frames: number; decoder: string; container: string; codec: string | null; warnings: string[]; trainable: boolean; untrainable: string | null; channels: string[] }

/** SNR bounds (dB) of the WebCodecs path against libsndfile. Opus at 16 kHz: WebCodecs decodes at 48 kHz only, and
 * libopus's output differs by rate, so after trim + resampling it matches only roughly (measured ~11 dB). */
const WEBCODECS_SNR_DB: Record<string, number> = { vorbis: 60, mp3: 60, opus: 10, 'opus@48k': 60 }

function planar(d: Decoded): Float32Array[] {
  return d.channels.map((b64) => {
    const buf = Buffer.from(b64, 'base64')
    return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength))
  })
}

function reference(f: Fixture): Float32Array[] {
  const raw = readFileSync(join(dir, f.reference))
  const inter = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
  const n = inter.length / f.channels
  return Array.from({ length: f.channels }, (_, c) => Float32Array.from({ length: n }, (_, i) => inter[i * f.channels + c]))
}

function snrDb(ref: Float32Array, got: Float32Array): number {
  let s = 0
  let e = 0
  for (let i = 0; i < ref.length; i++) { s += ref[i] ** 2; e += (ref[i] - got[i]) ** 2 }
  return e === 0 ? Infinity : 10 * Math.log10(s / e)
}

async function decodeInPage(page: Page, file: string, prefer?: 'webcodecs' | 'wasm', streamDecoders?: number): Promise<Decoded> {
  const base64 = readFileSync(join(dir, file)).toString('base64')
  const r = await page.evaluate(([b, o]) => (window as unknown as { mixscopeHarness: { decodeAudio: (b: string, o: object) => Promise<unknown> } })
    .mixscopeHarness.decodeAudio(b, { id: 'fixture', ...o }), [base64, { prefer, streamDecoders }] as const) as Decoded | { error: string }
  if ('error' in r) throw new Error(`${file} (${prefer ?? 'default'}): ${r.error}`)
  return r
}

test.describe('audio decoding in Chromium', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/e2e/harness/index.html')
    await page.waitForFunction(() => (window as unknown as { mixscopeHarnessReady?: boolean }).mixscopeHarnessReady === true)
    expect(await page.evaluate(() => (window as unknown as { mixscopeHarness: { hasWebCodecs: () => boolean } }).mixscopeHarness.hasWebCodecs())).toBe(true)
  })

  for (const f of fixtures.filter((x) => x.container !== 'wav')) {
    test(`${f.file}: WebCodecs vs libsndfile and vs WASM`, async ({ page }) => {
      const web = await decodeInPage(page, f.file, 'webcodecs')
      const wasm = await decodeInPage(page, f.file, 'wasm')
      const ref = reference(f)
      expect(web.decoder).toBe(`webcodecs:${f.codec}`)
      expect(wasm.decoder).toBe(`wasm:${f.codec}`)
      for (const d of [web, wasm]) {
        expect([d.sampleRate, d.channels.length, d.frames]).toEqual([f.sampleRate, f.channels, f.frames])
        expect(d.warnings).toHaveLength(0)
        expect(d.trainable).toBe(f.libsndfileReads)
      }
      const w = planar(web)
      const m = planar(wasm)
      for (let c = 0; c < f.channels; c++) {
        if (f.lossless) {
          expect(Buffer.compare(Buffer.from(w[c].buffer), Buffer.from(ref[c].buffer)), `webcodecs channel ${c} identical`).toBe(0)
          expect(Buffer.compare(Buffer.from(m[c].buffer), Buffer.from(ref[c].buffer)), `wasm channel ${c} identical`).toBe(0)
        } else {
          const key = f.codec === 'opus' && f.sampleRate === 48000 ? 'opus@48k' : f.codec
          const snr = snrDb(ref[c], w[c])
          console.log(`${f.file} ch${c}: webcodecs SNR ${snr.toFixed(1)} dB vs libsndfile, wasm ${snrDb(ref[c], m[c]).toFixed(1)} dB`)
          expect(snr).toBeGreaterThanOrEqual(WEBCODECS_SNR_DB[key])
          expect(snrDb(ref[c], m[c])).toBeGreaterThanOrEqual(100)
        }
      }
    })
  }

  test('truncated and corrupted streams through WebCodecs: a prefix training cannot read, or a named error, within seconds', async ({ page }) => {
    for (const f of fixtures.filter((x) => ['flac', 'vorbis', 'opus', 'mp3'].includes(x.codec) && x.file.startsWith('speech-16k'))) {
      const whole = readFileSync(join(dir, f.file))
      const corrupted = Buffer.from(whole)
      for (let i = Math.floor(whole.length * 0.4); i < Math.floor(whole.length * 0.45); i++) corrupted[i] ^= 0x5a
      for (const [what, bytes] of [['truncated', whole.subarray(0, Math.floor(whole.length / 2))], ['corrupted', corrupted]] as const) {
        const t = Date.now()
        const r = await page.evaluate(([b]) => (window as unknown as { mixscopeHarness: { decodeAudio: (b: string, o: object) => Promise<unknown> } })
          .mixscopeHarness.decodeAudio(b, { id: 't', prefer: 'webcodecs', timeoutMs: 5000 }), [Buffer.from(bytes).toString('base64')] as const) as Decoded | { error: string }
        const label = `${f.file} ${what}`
        if ('error' in r) expect(r.error, label).toMatch(new RegExp(`^audio: t \\(${f.container}`))
        else {
          expect(r.frames, label).toBeLessThanOrEqual(f.frames)
          // a truncated stream decodes short of its header's length: libsndfile's read would come up short
          if (what === 'truncated') expect([r.trainable, r.untrainable], label).toEqual([false, expect.stringMatching(/libsndfile|truncated/)])
        }
        console.log(`${label}: ${'error' in r ? r.error : `${r.decoder} ${r.frames} frames, warnings ${JSON.stringify(r.warnings)}`}`)
        expect(Date.now() - t, label).toBeLessThan(15_000)
      }
    }
  })

  test('odd FLAC streams (every depth 4–32, old-style variable blocks, format changes, junk): the same samples, verdict or refusal as Node, whichever decoder is preferred', async ({ page }) => {
    const flacDir = join(dir, 'flac')
    const files = readdirSync(flacDir).filter((f) => f.endsWith('.flac')).sort()
    expect(files.length).toBeGreaterThan(45)
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(join(flacDir, file)))
      const node = await decodeInNode(bytes, { id: 'fixture', prefer: 'wasm' }).then((d) => d, (e: Error) => e)
      for (const prefer of ['webcodecs', 'wasm'] as const) {
        const label = `${file} (${prefer})`
        const r = await page.evaluate(([b, o]) => (window as unknown as { mixscopeHarness: { decodeAudio: (b: string, o: object) => Promise<unknown> } })
          .mixscopeHarness.decodeAudio(b, { id: 'fixture', ...o }), [Buffer.from(bytes).toString('base64'), { prefer }] as const) as Decoded | { error: string }
        if (node instanceof Error) {
          expect(r, label).toEqual({ error: node.message })
          continue
        }
        expect('error' in r ? r.error : null, label).toBeNull()
        const d = r as Decoded
        // the streams Node sends to flac-decoder.ts go there in the browser too; the others may use WebCodecs
        expect(d.decoder, label).toBe(node.decoder === 'js:flac' ? 'js:flac' : prefer === 'webcodecs' ? 'webcodecs:flac' : 'wasm:flac')
        expect([d.sampleRate, d.frames, d.trainable, d.untrainable], label).toEqual([node.sampleRate, node.frames, node.trainable, node.untrainable])
        const got = planar(d)
        for (let c = 0; c < node.channels.length; c++) {
          expect(Buffer.compare(Buffer.from(got[c].buffer), Buffer.from(node.channels[c].buffer, node.channels[c].byteOffset, node.channels[c].byteLength)), `${label} channel ${c}`).toBe(0)
        }
      }
    }
  })

  test('FLAC frames spread over several AudioDecoders give the same samples as one decoder; defaults per codec', async ({ page }) => {
    for (const f of fixtures.filter((x) => x.codec === 'flac')) {
      const one = planar(await decodeInPage(page, f.file, 'webcodecs', 1))
      const ref = reference(f)
      for (const decoders of [2, 3, 4, 8]) {
        const split = planar(await decodeInPage(page, f.file, 'webcodecs', decoders))
        for (let c = 0; c < f.channels; c++) {
          expect(Buffer.compare(Buffer.from(split[c].buffer), Buffer.from(one[c].buffer)), `${f.file} ${decoders} decoders channel ${c}`).toBe(0)
          expect(Buffer.compare(Buffer.from(split[c].buffer), Buffer.from(ref[c].buffer)), `${f.file} ${decoders} decoders vs libsndfile`).toBe(0)
        }
      }
    }
    // not told: WebCodecs for FLAC (exact either way), the reference's own libraries (WASM) for the lossy codecs
    for (const f of fixtures.filter((x) => x.container !== 'wav' && x.libsndfileReads)) {
      const d = await decodeInPage(page, f.file)
      expect(d.decoder, f.file).toBe(f.codec === 'flac' ? 'webcodecs:flac' : `wasm:${f.codec}`)
    }
  })

  test('decodeMany with several files in flight keeps input order and isolates the bad one', async ({ page }) => {
    const names = fixtures.filter((x) => x.codec === 'flac' && x.container === 'flac').map((x) => x.file)
    const files = [...names, 'garbage', ...names]
    const items = files.map((file, i) => ({
      id: `r:${i}`, base64: file === 'garbage' ? btoa('fLaC but nothing else') : readFileSync(join(dir, file)).toString('base64'),
    }))
    const results = await page.evaluate(([list]) => (window as unknown as { mixscopeHarness: { decodeManyOk: (i: object[], o: object) => Promise<unknown> } })
      .mixscopeHarness.decodeManyOk(list, { concurrency: 4 }), [items] as const) as { id: string; ok: boolean; frames?: number; error?: string }[]
    expect(results.map((r) => r.id)).toEqual(items.map((i) => i.id))
    expect(results.map((r) => r.ok)).toEqual(files.map((f) => f !== 'garbage'))
    const frames = results.filter((r) => r.ok).map((r) => r.frames)
    expect(frames).toEqual([...names, ...names].map((n) => fixtures.find((x) => x.file === n)!.frames))
    expect(results[names.length].error).toMatch(/^audio: r:\d+ \(flac\): /)
  })

  test('featurizing batches with the decode stage on helper Workers gives what this thread decodes, bad rows kept apart', async ({ page }) => {
    const names = fixtures.filter((x) => x.container !== 'wav' && x.libsndfileReads).map((x) => x.file)
    const item = (file: string, i: number) => ({ id: `${file}:${i}`, base64: readFileSync(join(dir, file)).toString('base64') })
    const batches = [names.map(item), [{ id: 'bad:0', base64: btoa('RIFF....WAVEfmt nothing') }, item(names[0], 1)], names.slice().reverse().map(item)]
    type Out = { lanes: number; batches: { id: string; ok: boolean; frames?: number; decoder?: string; hash?: number; error?: string }[][] }
    const run = (where: 'pool' | 'broken-pool' | 'in-thread') => page.evaluate(([b, w]) => (window as unknown as { mixscopeHarness: { featurizeThrough: (b: object, w: string) => Promise<unknown> } })
      .mixscopeHarness.featurizeThrough(b, w), [batches, where] as const) as Promise<Out>
    const pool = await run('pool')
    const here = await run('in-thread')
    expect(pool.lanes).toBe(2)
    expect(here.lanes).toBe(1)
    expect(pool.batches).toEqual(here.batches)
    // helpers that cannot load (a CSP without worker-src, a missing script): the pool decodes in this thread instead
    const broken = await run('broken-pool')
    expect(broken.batches).toEqual(here.batches)
    expect(pool.batches.map((b) => b.map((r) => r.id))).toEqual(batches.map((b) => b.map((i) => i.id)))
    expect(pool.batches[1][0]).toMatchObject({ ok: false })
    expect(pool.batches[1][0].error).toMatch(/^audio: bad:0 \(wav\): /)
    for (const r of pool.batches.flat().filter((x) => x.ok)) {
      const f = fixtures.find((x) => r.id.startsWith(`${x.file}:`))!
      expect(r.frames, r.id).toBe(f.frames)
      expect(r.decoder, r.id).toBe(f.codec === 'flac' ? 'webcodecs:flac' : `wasm:${f.codec}`)
    }
  })

  test('WAV and bad input in the page: WAV parsed directly, garbage named by id, one bad row keeps the rest', async ({ page }) => {
    const wav = await decodeInPage(page, 'speech-44k-stereo-s16-extensible.wav', 'webcodecs')
    expect([wav.decoder, wav.frames, wav.channels.length]).toEqual(['wav', 22050, 2])
    const results = await page.evaluate(async ([good]) => {
      const h = (window as unknown as { mixscopeHarness: { decodeManyOk: (i: object[], o: object) => Promise<unknown> } }).mixscopeHarness
      return h.decodeManyOk([{ id: 'r:0', base64: good }, { id: 'r:1', base64: btoa('OggS garbage that is not a page') }, { id: 'r:2', base64: '' }], { prefer: 'webcodecs' })
    }, [readFileSync(join(dir, 'speech-16k-mono-s16.flac')).toString('base64')] as const) as { id: string; ok: boolean; error?: string; decoder?: string }[]
    expect(results.map((r) => r.ok)).toEqual([true, false, false])
    expect(results[0].decoder).toBe('webcodecs:flac')
    expect(results[1].error).toMatch(/^audio: r:1 \(ogg\): /)
    expect(results[2].error).toBe('audio: r:2 (unknown): empty input (0 bytes)')
  })
})
