/**
 * The Inspector's handlers, for one example: decode (WebCodecs first where the runtime has it), a 16-bit WAV for the
 * `<audio>` element, the mono display waveform and display spectrogram, the model input explained
 * (`modelInputDetails`, src/engine/features/) on the worker's GPU or the CPU, transcript tokens (char vocabulary or a
 * loaded SentencePiece model), the example's findings.
 */
import type { OpenDataset } from '../dataset/open.ts'
import { decodeAudio } from '../audio/decode.ts'
import { audioLengthFindings } from '../audio/length-check.ts'
import { toMono } from '../audio/mono.ts'
import { resampleChannels } from '../audio/resample.ts'
import type { DecodedAudio } from '../audio/types.ts'
import { toWav16 } from '../audio/wav-encode.ts'
import { existingExampleIndex } from '../examples/example-index.ts'
import { readExample, parseExampleId, type ExampleRow } from '../dataset/read-example.ts'
import { displaySpectrogram } from '../features/display-spectrogram.ts'
import { modelInputDetails } from '../features/model-input-details.ts'
import { finding, MixscopeError, sortFindings, type Finding } from '../core/findings.ts'
import { buildCharVocabulary, charTokenize } from '../text/char-tokenizer.ts'
import { loadSpmTokenizer, type SpmTokenizer } from '../text/spm-tokenizer.ts'
import { backendFor, featureTarget, gpuStatus } from './gpu-state.ts'
import type { HandlerTable } from './handler-types.ts'
import type { InspectParams, InspectRequests, InspectResult, InspectTokens } from './protocol/inspect.ts'

/** Rates an `<audio>` element plays everywhere; others are resampled to 48 kHz for playback. */
const playableRate = (rate: number) => Number.isInteger(rate) && rate >= 8000 && rate <= 96000

interface Decoded {
  row: ExampleRow
  audio: DecodedAudio
  ms: number
}

/** Recently decoded examples per dataset (a few, for the spectrogram window requests that follow an inspect). */
const decodedCache = new WeakMap<OpenDataset, Map<string, Promise<Decoded>>>()
const decodedCacheSize = 4
const tokenizers = new Map<number, { name: string; tokenizer: SpmTokenizer }>()
let nextTokenizer = 1

async function decodeExample(dataset: OpenDataset, id: string, signal?: AbortSignal): Promise<Decoded> {
  let cache = decodedCache.get(dataset)
  if (!cache) { cache = new Map(); decodedCache.set(dataset, cache) }
  let pending = cache.get(id)
  if (pending) {
    cache.delete(id)
    cache.set(id, pending)
    return pending
  }
  pending = (async () => {
    const { file, row } = parseExampleId(id)
    const example = await readExample(dataset, file, row, { signal })
    if (!example.audio) throw new MixscopeError(`example: ${id} has a null audio_bytes`, 'null-value')
    const started = performance.now()
    const audio = await decodeAudio(example.audio, { id })
    return { row: example, audio, ms: performance.now() - started }
  })()
  cache.set(id, pending)
  pending.catch(() => cache.delete(id))
  while (cache.size > decodedCacheSize) cache.delete(cache.keys().next().value as string)
  return pending
}

async function tokensOf(text: string | null, dataset: OpenDataset, handle: number | null | undefined): Promise<InspectTokens | null> {
  if (text === null) return null
  if (handle !== null && handle !== undefined) {
    const entry = tokenizers.get(handle)
    if (!entry) throw new MixscopeError(`tokenizer: no loaded SentencePiece model with handle ${handle}`, 'unknown-tokenizer', 'usage')
    const ids = entry.tokenizer.encode(text)
    return { tokenizer: entry.name, ids, pieces: ids.map((id) => entry.tokenizer.pieces[id] ?? `#${id}`), unknown: ids.filter((id) => id === entry.tokenizer.unkId).length }
  }
  const index = existingExampleIndex(dataset)
  const texts = index ? (await index.catch(() => null))?.rows.flatMap((r) => (r.text === null ? [] : [r.text])) ?? [text] : [text]
  const vocabulary = buildCharVocabulary(texts)
  const ids = charTokenize(vocabulary, text)
  const scope = texts.length > 1 ? `the dataset's ${texts.length} transcripts` : 'this transcript'
  return {
    tokenizer: `char vocabulary of ${scope} (${vocabulary.tokens.length} symbols)`,
    ids, pieces: ids.map((id) => vocabulary.tokens[id]), unknown: ids.filter((id) => id === vocabulary.unkIndex).length,
  }
}

async function inspect(params: InspectParams, dataset: OpenDataset, signal?: AbortSignal): Promise<InspectResult> {
  const { row, audio, ms } = await decodeExample(dataset, params.exampleId, signal)
  signal?.throwIfAborted()
  const where = { path: row.file, row: row.row, row_group: row.row_group }
  const findings: Finding[] = []
  const index = existingExampleIndex(dataset)
  if (index) findings.push(...((await index.catch(() => null))?.findings.get(params.exampleId) ?? []))
  findings.push(...dataset.findings.filter((f) => f.path === row.file && (f.row === null || f.row === row.row)))
  findings.push(...audio.warnings.map((w) => finding('info', 'audio-decode-warning', row.file, w, where)))
  if (!audio.trainable) findings.push(finding('error', 'untrainable-audio', row.file, `${params.exampleId}: training cannot read this row (what plays here is what decodes): ${audio.untrainable}`, where))
  findings.push(...audioLengthFindings(where, row.audioSize, audio))
  const { min_audio_len: min, max_audio_len: max } = params.config
  if (row.audioSize !== null && (row.audioSize < min || row.audioSize > max)) {
    findings.push(finding('warning', 'length-filtered', row.file,
      `audio_size ${row.audioSize} is outside [min_audio_len ${min}, max_audio_len ${max}]: training drops this example`, where))
  }
  const target = await featureTarget(params.device)
  let compareWith: Parameters<typeof modelInputDetails>[2]['compareWith']
  if (params.compare) {
    const other = await backendFor(target.backend ? 'cpu' : 'gpu')
    compareWith = target.backend || other.backend ? { backend: other.backend } : { unavailable: other.reason ?? 'no GPU' }
  }
  const input = await modelInputDetails(audio, params.config, { seed: params.seed, featureSpecAugment: params.featureSpecAugment, target, compareWith }, findings, where)
  signal?.throwIfAborted()
  const mono = toMono(audio.channels)
  const playChannels = audio.channels.length <= 2 ? audio.channels : [mono]
  const playRate = playableRate(audio.sampleRate) ? audio.sampleRate : 48000
  const wav = toWav16(playRate === audio.sampleRate ? playChannels : resampleChannels(playChannels, audio.sampleRate, playRate), playRate)
  const spectrogram = await displaySpectrogram(mono, audio.sampleRate, 0, mono.length, 1200, target.backend)
  return {
    meta: {
      id: params.exampleId, path: row.file, row: row.row, rowGroup: row.row_group, keys: row.keys, storedSamples: row.audioSize,
      decodedFrames: audio.frames, sampleRate: audio.sampleRate, channels: audio.channels.length, container: audio.container,
      codec: audio.codec, decoder: audio.decoder, encodedBytes: row.audio?.length ?? 0, warnings: audio.warnings,
    },
    text: row.text,
    tokens: await tokensOf(row.text, dataset, params.tokenizer),
    playback: { wav: wav.buffer.slice(wav.byteOffset, wav.byteOffset + wav.byteLength) as ArrayBuffer, sampleRate: playRate, channels: playChannels.length },
    display: mono === audio.channels[0] ? mono.slice() : mono,
    spectrogram,
    modelInput: input,
    findings: sortFindings(findings),
    gpu: gpuStatus(),
    decodeMs: ms,
  }
}

/** Handlers of the Inspector's kinds (the status bar's `engine-status` is status-handlers.ts'). */
export const inspectHandlers: HandlerTable<Exclude<keyof InspectRequests, 'engine-status'>> = {
  'inspect-example': (message, options, context) => inspect(message, context.dataset(message.dataset), options.signal),
  'inspect-spectrogram': async (message, options, context) => {
    const { audio } = await decodeExample(context.dataset(message.dataset), message.exampleId, options.signal)
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
