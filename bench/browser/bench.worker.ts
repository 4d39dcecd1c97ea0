/**
 * Benchmark Worker (module worker started by e2e/harness/bench.harness.ts in Chromium): times `decodeAudio`
 * (WebCodecs or WASM), the fbank paths (CPU reference, WebGPU `FeaturePipeline`) and batch planning where the app runs them,
 * in a Worker. One request at a time; replies per bench/browser/protocol.ts.
 */
import {
  auditDataset,
  type BatchDecoder,
  computeStats,
  createAuditPool,
  createDecodePool,
  createFeaturePipeline,
  createHttpSource,
  decodeAudio,
  FbankComputer,
  type Features,
  featurizeBatches,
  getGpu,
  inThreadBatchDecoder,
  openDataset,
} from '../../src/engine/index.ts'
import type { FeaturePipeline } from '../../src/engine/features/gpu/feature-pipeline.ts'
import { planSynthetic } from '../plan-synthetic.ts'
import { featureChecksum, featurizeBatchCpu, maxAbsDiff, splitUtterances } from './featurize.ts'
import type { AuditReply, AuditRequest, BenchReply, BenchRequest, DecodeReply, DecodeRequest, FbankReply, FbankRequest, FeaturizeReply, FeaturizeRequest, StatsReply, StatsRequest } from './protocol.ts'
import type { DecodeItem } from '../../src/engine/audio/decode.ts'
import type { DecodedAudio } from '../../src/engine/audio/types.ts'

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`bench worker: GET ${url} answered ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}

async function stats(request: StatsRequest): Promise<StatsReply> {
  const t0 = performance.now()
  const source = createHttpSource(request.url, { ...(request.cache ? { cache: request.cache } : {}), ...(request.concurrency ? { concurrency: request.concurrency } : {}) })
  const report = await computeStats(await openDataset(source, { facts: true }))
  return {
    kind: 'stats', ms: performance.now() - t0, requests: source.counters.requests, bytes: source.counters.bytes,
    files: report.totals.files, rows: report.totals.rows, samples: report.totals.samples, parallelism: source.parallelism ?? 0,
  }
}

async function decode(request: DecodeRequest): Promise<DecodeReply> {
  const files: DecodeReply['files'] = []
  for (const url of request.urls) {
    const bytes = await fetchBytes(url)
    let best = Infinity
    let last = null
    for (let r = 0; r < request.repeats; r++) {
      const t0 = performance.now()
      last = await decodeAudio(bytes, { id: url, prefer: request.prefer, streamDecoders: request.streamDecoders, timeoutMs: 300_000 })
      best = Math.min(best, performance.now() - t0)
    }
    if (!last) throw new Error('bench worker: repeats must be ≥ 1')
    files.push({ url, bestMs: best, frames: last.frames, sampleRate: last.sampleRate, decoder: last.decoder, warnings: last.warnings })
  }
  return { kind: 'decode', files }
}

async function fbank(request: FbankRequest): Promise<FbankReply> {
  const all = new Float32Array((await fetchBytes(request.pcmUrl)).buffer)
  const utterances = splitUtterances(all, request.lengths)
  const batches = request.batches.map((b) => b.map((i) => utterances[i]))
  const computer = new FbankComputer(request.sampleRate)
  const base = { kind: 'fbank' as const, device: request.device, maxAbsDiffVsCpu: null, submissionsPerBatch: null, gpuErrors: [] }
  let pipeline: FeaturePipeline | null = null
  let run: (waves: Float32Array[]) => Promise<Features[]> = async (waves) => featurizeBatchCpu(computer, waves)
  let adapter = null
  let repeats = request.repeats
  if (request.device === 'gpu') {
    const gpu = await getGpu(navigator.gpu)
    if (typeof gpu === 'string') return { ...base, adapter: null, unavailable: gpu, bestMs: NaN, batchMs: [], frames: 0, checksum: NaN }
    adapter = gpu.adapterInfo
    if (adapter.isFallbackAdapter) repeats = request.repeatsOnFallback ?? repeats
    const p = await createFeaturePipeline(gpu)
    pipeline = p
    run = (waves) => p.fbank(waves, request.sampleRate, { standardize: true })
    await run(batches[0]) // compiles the pipelines: not part of the timed passes
  }
  let bestMs = Infinity, batchMs: number[] = [], output: Features[][] = []
  const submissionsBefore = pipeline?.submissions ?? 0
  for (let r = 0; r < repeats; r++) {
    const times: number[] = [], out: Features[][] = []
    const t0 = performance.now()
    for (const waves of batches) {
      const b0 = performance.now()
      out.push(await run(waves))
      times.push(performance.now() - b0)
    }
    const ms = performance.now() - t0
    if (ms < bestMs) { bestMs = ms; batchMs = times; output = out }
  }
  const flat = output.flat()
  const reply: FbankReply = {
    ...base, adapter, unavailable: null, bestMs, batchMs, frames: flat.reduce((s, f) => s + f.frames, 0), checksum: featureChecksum(flat),
  }
  if (pipeline) {
    reply.submissionsPerBatch = (pipeline.submissions - submissionsBefore) / (repeats * batches.length)
    reply.maxAbsDiffVsCpu = maxAbsDiff(flat, batches.flatMap((waves) => featurizeBatchCpu(computer, waves)))
    reply.gpuErrors = [...pipeline.gpu.errors]
    pipeline.destroy()
  }
  return reply
}

async function audit(request: AuditRequest): Promise<AuditReply> {
  const t0 = performance.now()
  // as the app's Audit view does: this Worker plus helper Workers, one row group each (audio-pool.ts)
  const pool = createAuditPool()
  const dataset = await openDataset(createHttpSource(new URL(request.url, self.location.origin + '/').href))
  const report = await auditDataset(dataset, { deep: true, ...(pool ? { measure: pool.measure, concurrency: pool.lanes } : { concurrency: 2 }) })
  pool?.close()
  return { kind: 'audit', ms: performance.now() - t0, rowsDecoded: report.totals.rows_decoded, hoursDecoded: report.totals.hours_decoded }
}

async function featurize(request: FeaturizeRequest): Promise<FeaturizeReply> {
  const bytes = await Promise.all(request.urls.map(fetchBytes))
  const batches: DecodeItem[][] = request.batches.map((b) => b.map((i) => ({ id: request.urls[i], bytes: bytes[i] })))
  const options = {
    prefer: request.prefer, streamDecoders: request.streamDecoders, ...(request.concurrency ? { concurrency: request.concurrency } : {}),
  }
  const pool = request.decoder === 'pool' ? createDecodePool(navigator.hardwareConcurrency, options) : null
  if (request.decoder === 'pool' && !pool) throw new Error('bench worker: no helper Workers here')
  const decoder: BatchDecoder = pool?.decoder ?? inThreadBatchDecoder(options)
  const computer = new FbankComputer(16000)
  const features = (audio: DecodedAudio[]) => featurizeBatchCpu(computer, audio.map((a) => a.channels[0]))
  try {
    const decoders = new Set<string>()
    const failures: string[] = []
    // the decode stage alone, batch by batch, and the audio the fbank-alone pass works on
    let decodeBatchMs: number[] = []
    let decoded: DecodedAudio[][] = []
    for (let r = 0; r < request.repeats; r++) {
      const times: number[] = [], out: DecodedAudio[][] = []
      for (const items of batches) {
        const t0 = performance.now()
        const results = await decoder.decode(items)
        times.push(performance.now() - t0)
        for (const x of results) if (x.ok) decoders.add(x.audio.decoder); else failures.push(x.error)
        out.push(results.flatMap((x) => (x.ok ? [x.audio] : [])))
      }
      if (r === 0 || times.reduce((a, b) => a + b) < decodeBatchMs.reduce((a, b) => a + b)) { decodeBatchMs = times; decoded = out }
    }
    let fbankMs = Infinity, fbankBatchMs: number[] = [], checksumAlone = 0
    for (let r = 0; r < request.repeats; r++) {
      const times: number[] = []
      const t0 = performance.now()
      const all = decoded.map((audio) => { const b0 = performance.now(); const f = features(audio); times.push(performance.now() - b0); return f })
      const ms = performance.now() - t0
      if (ms < fbankMs) { fbankMs = ms; fbankBatchMs = times; checksumAlone = featureChecksum(all.flat()) }
    }
    decoded = []
    let pipelineMs = Infinity, firstWaitMs = 0, laterWaitMs = 0, checksum = 0
    for (let r = 0; r < request.repeats; r++) {
      const t0 = performance.now()
      const out: Features[] = []
      let first = 0, later = 0
      for await (const b of featurizeBatches(batches, decoder, features, { prefetch: request.prefetch })) {
        if (b.index === 0) first = b.waitMs; else later += b.waitMs
        for (const f of b.features) if (f) out.push(f)
      }
      const ms = performance.now() - t0
      if (ms < pipelineMs) { pipelineMs = ms; firstWaitMs = first; laterWaitMs = later; checksum = featureChecksum(out) }
    }
    return {
      kind: 'featurize', decoders: [...decoders], lanes: decoder.lanes, cores: navigator.hardwareConcurrency, fbankMs, fbankBatchMs, decodeBatchMs, pipelineMs, firstWaitMs, laterWaitMs,
      checksum, checksumAlone, failures: failures.slice(0, 5),
    }
  } finally {
    pool?.close()
  }
}

async function handle(request: BenchRequest): Promise<BenchReply> {
  try {
    if (request.kind === 'featurize') return await featurize(request)
    if (request.kind === 'plan') return { kind: 'plan', ...await planSynthetic() }
    if (request.kind === 'audit') return await audit(request)
    if (request.kind === 'stats') return await stats(request)
    return request.kind === 'decode' ? await decode(request) : await fbank(request)
  } catch (e) {
    return { kind: 'error', message: (e as Error).message }
  }
}

self.onmessage = (event: MessageEvent<{ id: number; request: BenchRequest }>) => {
  void handle(event.data.request).then((reply) => self.postMessage({ id: event.data.id, reply }))
}
