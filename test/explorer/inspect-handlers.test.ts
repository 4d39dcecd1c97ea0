/**
 * `inspect-example` on the committed demo dataset through the fs source: the decoded samples and the fbank model input
 * equal what the CLI's `decode` and `fbank` write for the same example reference; the waveform path (layer norm,
 * reference SpecAugment, bf16), the playback WAV, tokens and findings; GPU vs CPU on the Node WebGPU adapter where
 * there is one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runDecode } from '../../src/cli/commands/decode.ts'
import { runFbank } from '../../src/cli/commands/fbank.ts'
import { npyDecode } from '../../src/engine/core/npy.ts'
import { referenceStftFrames } from '../../src/engine/features/dsp/spec-augment.ts'
import { defaultFeatureSpecAugment } from '../../src/engine/features/dsp/spec-augment.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import { setGpuProvider } from '../../src/engine/worker/gpu-state.ts'
import type { InspectConfig, InspectParams } from '../../src/engine/worker/protocol/inspect.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'
import { gpuRequired, nodeGpu } from '../gpu/node-gpu.ts'

const root = 'public/demo/version=0'
const flacId = 'corpus=fleurs/split=train/language=eng_Latn/part-0.parquet:0'
const vorbisId = 'corpus=commonvoice/split=train/language=deu_Latn/part-0.parquet:0'

const source = await createFsSource(root)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
function request<K extends RequestKind>(kind: K, params: Requests[K]['params']): Promise<Requests[K]['result']> {
  // spread as the client posts it (kind, id, then the params)
  return handle({ kind, id: nextId++, ...params } as never, {}) as Promise<Requests[K]['result']>
}
const { dataset } = await request('open', { source: { type: 'url', url: 'unused' } })
const dir = await mkdtemp(join(tmpdir(), 'mixscope-inspect-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const waveformConfig: InspectConfig = {
  use_fbank: false, normalize_audio: false, spec_aug_p: null, spec_aug_freq_mask_param: 80, dtype: 'float32', min_audio_len: 1, max_audio_len: 800_000, split: 'train', min_samples_per_char: 160,
}
const params = (id: string, config: Partial<InspectConfig> = {}, more: Partial<InspectParams> = {}): InspectParams => ({
  dataset, exampleId: id, config: { ...waveformConfig, ...config }, seed: 0, featureSpecAugment: defaultFeatureSpecAugment, device: 'cpu', ...more,
})
const quiet = { stdout: () => undefined, stderr: () => undefined }

async function cliNpy(run: (argv: string[], io: typeof quiet) => Promise<number>, args: string[], name: string): Promise<Float32Array> {
  const out = join(dir, name)
  expect(await run([...args, '--out', out], quiet)).toBe(0)
  return npyDecode(new Uint8Array(await readFile(out))).data as Float32Array
}

describe('inspect-example (CPU)', () => {
  test.each([flacId, vorbisId])('decoded samples of %s equal `mixscope decode`', async (id) => {
    const result = await request('inspect-example', params(id))
    // runDecode's default loader: the example reference is read from the dataset it names
    const cli = await cliNpy(runDecode, [`${root}#${id}`], 'decode.npy')
    expect(result.display.length).toBe(cli.length)
    expect(result.display).toEqual(cli)
    // no normalization, float32, no SpecAugment: the model input is the decoded mono waveform itself
    expect(result.modelInput.data).toEqual(cli)
    expect(result.meta.decodedFrames).toBe(cli.length)
    expect(result.meta.storedSamples).toBe(cli.length)
    expect(result.findings.filter((f) => f.kind === 'audio-length-mismatch')).toEqual([])
  })

  test('fbank model input equals `mixscope fbank --standardize --dtype bfloat16`', async () => {
    const result = await request('inspect-example', params(flacId, { use_fbank: true, dtype: 'bfloat16' }))
    const cli = await cliNpy(runFbank, [`${root}#${flacId}`, '--standardize', '--dtype', 'bfloat16'], 'fbank.npy')
    expect(result.modelInput.kind).toBe('fbank')
    expect(result.modelInput.shape).toEqual([cli.length / 80, 80])
    expect(result.modelInput.data).toEqual(cli)
    expect(result.modelInput.steps.join(' → ')).toMatch(/channel 0 → Kaldi fbank.* → standardize.* → bfloat16/)
    expect(result.modelInput.stats.nonFinite).toBe(0)
    // standardized: every bin has mean ≈ 0 over frames
    expect(Math.abs(result.modelInput.stats.mean!)).toBeLessThan(0.05)
    expect(result.modelInput.specAugment).toBeNull()
    expect(result.modelInput.featureMasks).toMatchObject({ applied: false, masks: [] })
  })

  test('waveform path: layer norm, reference SpecAugment with the seed, bf16', async () => {
    const plain = await request('inspect-example', params(flacId))
    const n = plain.display.length
    const normalized = await request('inspect-example', params(flacId, { normalize_audio: true }))
    expect(normalized.modelInput.stats.mean!).toBeCloseTo(0, 5)
    // layer norm: (x − mean) / sqrt(var + 1e-5), so the std is sqrt(var / (var + 1e-5)) of the plain waveform's var
    const variance = plain.modelInput.stats.std! ** 2
    expect(normalized.modelInput.stats.std!).toBeCloseTo(Math.sqrt(variance / (variance + 1e-5)), 5)
    const augmented = await request('inspect-example', params(flacId, { normalize_audio: true, spec_aug_p: 1, dtype: 'bfloat16' }, { seed: 5 }))
    const sa = augmented.modelInput.specAugment!
    expect(sa.applied).toBe(true)
    expect(sa.masks).toHaveLength(2)
    expect(sa.stft.frames).toBe(referenceStftFrames(n))
    expect(sa.stft.bins).toBe(201)
    expect(augmented.modelInput.shape).toEqual([200 * Math.floor(n / 200)])
    // bf16 values have zero low 16 bits
    const bits = new Uint32Array(augmented.modelInput.data.buffer, augmented.modelInput.data.byteOffset, augmented.modelInput.data.length)
    expect(bits.every((b) => (b & 0xffff) === 0)).toBe(true)
    // masked frames are (near) silent in the output: frame t of the hop-200 STFT is centred on sample 200·t
    const [first] = sa.masks
    const mid = first.start + Math.floor(first.length / 2)
    const quiet = augmented.modelInput.data.subarray(mid * 200 - 50, mid * 200 + 50)
    expect(Math.max(...Array.from(quiet, Math.abs))).toBeLessThan(1e-2)
    const again = await request('inspect-example', params(flacId, { normalize_audio: true, spec_aug_p: 1, dtype: 'bfloat16' }, { seed: 5 }))
    expect(again.modelInput.specAugment!.masks).toEqual(sa.masks)
    const other = await request('inspect-example', params(flacId, { normalize_audio: true, spec_aug_p: 1 }, { seed: 6 }))
    expect(other.modelInput.specAugment!.masks).not.toEqual(sa.masks)
  })

  test('playback WAV, display spectrogram, tokens, metadata and the length filter finding', async () => {
    const result = await request('inspect-example', params(flacId, { min_audio_len: 60_000 }))
    const wav = new DataView(result.playback.wav)
    expect(String.fromCharCode(...new Uint8Array(result.playback.wav, 0, 4))).toBe('RIFF')
    expect(wav.getUint32(24, true)).toBe(16000)
    expect(result.playback.wav.byteLength).toBe(44 + 2 * result.display.length)
    expect(result.spectrogram.bins).toBe(201)
    expect(result.spectrogram.frames).toBeGreaterThan(100)
    expect(result.meta).toMatchObject({ id: flacId, rowGroup: 0, sampleRate: 16000, channels: 1, container: 'flac', codec: 'flac' })
    expect(result.tokens!.pieces.join('')).toBe('▁' + result.text!.normalize('NFKC').trim().replace(/\s+/g, '▁'))
    // the audit's kind for the length filter (checks/length.ts), counted as a row finding
    expect(result.findings.map((f) => f.kind)).toContain('below-min-audio-len')
    expect(result.rowFindings.kinds).toContain('below-min-audio-len')
    const window = await request('inspect-spectrogram', { dataset, exampleId: flacId, start: 16000, end: 32000, maxFrames: 50, device: 'cpu' })
    expect(window.frames).toBeLessThanOrEqual(50)
    expect(window.start).toBe(16000)
  })

  test('engine-status reports the dataset counters', async () => {
    const status = await request('engine-status', { dataset })
    expect(status.counters!.requests).toBeGreaterThan(0)
    expect(status.counters!.bytes).toBeGreaterThan(0)
  })
})

const gpu = await nodeGpu()
const gpuReason = typeof gpu === 'string' ? gpu : null

describe('inspect-example GPU vs CPU', () => {
  test('the status says why there is no GPU and the CPU runs', async () => {
    setGpuProvider(() => undefined)
    const result = await request('inspect-example', params(flacId, {}, { device: 'gpu' }))
    expect(result.modelInput.device).toBe('cpu')
    expect(result.modelInput.fallbackReason).toMatch(/WebGPU is not available/)
    expect(result.gpu.available).toBe(false)
  })

  test.skipIf(gpuReason !== null && !gpuRequired)('fbank and waveform model inputs agree within tolerance', async () => {
    const webgpu = await import('webgpu')
    setGpuProvider(() => webgpu.create([]))
    const fbank = await request('inspect-example', params(flacId, { use_fbank: true }, { device: 'gpu', compare: true }))
    expect(fbank.modelInput.device).toBe('gpu')
    expect(fbank.gpu.adapter).toBeTruthy()
    expect(fbank.modelInput.comparison).toMatchObject({ device: 'cpu', nanMismatch: 0, error: null })
    expect(fbank.modelInput.comparison!.maxAbsDiff!).toBeLessThan(2e-2)
    const wave = await request('inspect-example', params(flacId, { normalize_audio: true, spec_aug_p: 1 }, { device: 'gpu', compare: true, seed: 3 }))
    expect(wave.modelInput.comparison!.maxAbsDiff!).toBeLessThan(1e-4)
  })
})
