/**
 * The Inspector's handlers, for one example: its facts and findings, decoded audio, playback WAV and display
 * spectrogram (`inspectExample`, src/engine/examples/, the function `mixscope fbank <dataset>#<file>:<row>` uses),
 * the model input explained (`modelInputDetails`) on the worker's GPU or the CPU, transcript tokens. Glue: the
 * worker keeps the last few inspected examples (for the spectrogram windows that follow) and the loaded tokenizers.
 */
import type { OpenDataset } from '../dataset/open.ts'
import { playbackOf } from '../audio/playback.ts'
import { toMono } from '../audio/mono.ts'
import { inspectExample, type InspectedExample } from '../examples/example-facts.ts'
import type { RowFindingConfig } from '../audit/flagged.ts'
import { exampleTokens } from '../examples/example-tokens.ts'
import { displaySpectrogram } from '../features/display-spectrogram.ts'
import { modelInputDetails } from '../features/model-input-details.ts'
import { MixscopeError, sortFindings } from '../core/findings.ts'
import { loadSpmTokenizer, type SpmTokenizer } from '../text/spm-tokenizer.ts'
import { backendFor, featureTarget, gpuStatus } from './gpu-state.ts'
import type { HandlerTable } from './handler-types.ts'
import type { InspectParams, InspectRequests, InspectResult } from './protocol/inspect.ts'

/** Recently inspected examples per dataset (a few, for the spectrogram window requests that follow an inspect). */
const inspectedCache = new WeakMap<OpenDataset, Map<string, Promise<InspectedExample>>>()
const inspectedCacheSize = 4
const tokenizers = new Map<number, { name: string; tokenizer: SpmTokenizer }>()
let nextTokenizer = 1

/**
 * The example decoded, from the cache when it is there (`config`: the row findings' config; absent, any cached one:
 * the spectrogram requests need the audio only). @throws its decode error when it does not decode
 */
async function decoded(dataset: OpenDataset, id: string, signal?: AbortSignal, config?: RowFindingConfig): Promise<InspectedExample & { audio: NonNullable<InspectedExample['audio']> }> {
  let cache = inspectedCache.get(dataset)
  if (!cache) inspectedCache.set(dataset, cache = new Map())
  const key = config ? `${id}\u0000${JSON.stringify([config.split, config.min_audio_len, config.max_audio_len, config.min_samples_per_char])}` : [...cache.keys()].find((k) => k === id || k.startsWith(`${id}\u0000`)) ?? id
  let pending = cache.get(key)
  if (pending) cache.delete(key)
  else pending = inspectExample(dataset, id, { signal, config })
  cache.set(key, pending)
  pending.catch(() => cache.delete(key))
  while (cache.size > inspectedCacheSize) cache.delete(cache.keys().next().value as string)
  const inspected = await pending
  if (!inspected.audio) throw inspected.decodeError!
  return inspected as InspectedExample & { audio: NonNullable<InspectedExample['audio']> }
}

function spm(handle: number | null | undefined): { name: string; tokenizer: SpmTokenizer } | null {
  if (handle === null || handle === undefined) return null
  const entry = tokenizers.get(handle)
  if (!entry) throw new MixscopeError(`tokenizer: no loaded SentencePiece model with handle ${handle}`, 'unknown-tokenizer', 'usage')
  return entry
}

async function inspect(params: InspectParams, dataset: OpenDataset, signal?: AbortSignal): Promise<InspectResult> {
  const { facts, example, audio, decodeMs } = await decoded(dataset, params.exampleId, signal, params.config)
  signal?.throwIfAborted()
  const where = { path: facts.path, row: facts.row, row_group: facts.rowGroup }
  const findings = [...facts.findings]
  const target = await featureTarget(params.device)
  let compareWith: Parameters<typeof modelInputDetails>[2]['compareWith']
  if (params.compare) {
    const other = await backendFor(target.backend ? 'cpu' : 'gpu')
    compareWith = target.backend || other.backend ? { backend: other.backend } : { unavailable: other.reason ?? 'no GPU' }
  }
  const input = await modelInputDetails(audio, params.config, { seed: params.seed, featureSpecAugment: params.featureSpecAugment, target, compareWith }, findings, where)
  signal?.throwIfAborted()
  const { mono, ...playback } = playbackOf(audio)
  const spectrogram = await displaySpectrogram(mono, audio.sampleRate, 0, mono.length, 1200, target.backend)
  return {
    meta: {
      id: facts.id, path: facts.path, row: facts.row, rowGroup: facts.rowGroup, keys: facts.keys, storedSamples: facts.storedSamples,
      decodedFrames: audio.frames, sampleRate: audio.sampleRate, channels: audio.channels.length, container: audio.container,
      codec: audio.codec, decoder: audio.decoder, encodedBytes: example.audio?.length ?? 0, warnings: audio.warnings,
    },
    text: facts.text,
    tokens: await exampleTokens(facts.text, dataset, spm(params.tokenizer)),
    playback,
    display: mono === audio.channels[0] ? mono.slice() : mono,
    spectrogram,
    modelInput: input,
    findings: sortFindings(findings),
    rowFindings: facts.rowFindings,
    gpu: gpuStatus(),
    decodeMs,
  }
}

/** Handlers of the Inspector's kinds (the status bar's `engine-status` is status-handlers.ts'). */
export const inspectHandlers: HandlerTable<Exclude<keyof InspectRequests, 'engine-status'>> = {
  'inspect-example': (message, options, context) => inspect(message, context.dataset(message.dataset), options.signal),
  'inspect-spectrogram': async (message, options, context) => {
    const { audio } = await decoded(context.dataset(message.dataset), message.exampleId, options.signal)
    const mono = toMono(audio.channels)
    const start = Math.max(0, Math.min(mono.length, Math.floor(message.start)))
    const end = Math.max(start, Math.min(mono.length, Math.ceil(message.end)))
    return displaySpectrogram(mono, audio.sampleRate, start, end, Math.max(1, message.maxFrames), (await backendFor(message.device)).backend)
  },
  'tokenizer-load': async (message) => {
    const tokenizer = await loadSpmTokenizer(message.bytes)
    const handle = nextTokenizer++
    tokenizers.set(handle, { name: message.name, tokenizer })
    return { handle, name: message.name, vocabSize: tokenizer.vocabSize, unkId: tokenizer.unkId }
  },
}
