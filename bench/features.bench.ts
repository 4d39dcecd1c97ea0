/**
 * Features benchmark: Kaldi fbank + per-utterance standardization (the reference's fbank path) of ~10 minutes
 * of speech in training-sized batches (max_num_elements 960,000 samples per padded batch), in one run: the CPU path in
 * Node, the CPU path in a Chromium Worker, the WebGPU path (`FeaturePipeline.fbank`, one submission per batch) in a
 * Chromium Worker with the adapter it got, and transformers.js's `SeamlessM4TFeatureExtractor` (same Kaldi recipe plus
 * its per-bin normalization) in Node from the separate bench/transformers package, built from an inline config.
 * kaldi-native-fbank (knf) at the commit fairseq2 pins, the reference's own fbank, runs beside them when built
 * (KNF_BIN, bench/knf/README.md). Reports seconds of audio per second and ratios. Targets: CPU ≥ 3× transformers.js,
 * fbank ≥ 0.8× knf and ≥ 500× real time, one thread.
 * On SwiftShader (no GPU) the GPU figures are for correctness only; on a real GPU the same code prints its adapter.
 */
import { loadavg } from 'node:os'
import { describeAdapter, FbankComputer, type Features, kaldiFbank } from '../src/engine/node.ts'
import { BENCH_MAX_NUM_ELEMENTS, trainingBatches } from './browser/batches.ts'
import { featureChecksum, featurizeBatchCpu, maxAbsDiff } from './browser/featurize.ts'
import type { FbankReply } from './browser/protocol.ts'
import { startBenchBrowser } from './browser/runner.ts'
import { ensureSpeechCorpus, readCorpusPcm } from './browser/speech-corpus.ts'
import { maxAbsDiffVsKnf, runKnf } from './knf/knf.ts'
import type { BenchRow } from './table.ts'
import { loadTransformers, seamlessConfig } from './transformers-js.ts'

const REPEATS = 3

/** Fastest of `REPEATS` passes of `pass`, ms. */
async function fastest(pass: () => Promise<unknown> | unknown): Promise<number> {
  let best = Infinity
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now()
    await pass()
    best = Math.min(best, performance.now() - t0)
  }
  return best
}

export async function runFeaturesBench(): Promise<BenchRow[]> {
  const corpus = ensureSpeechCorpus()
  const seconds = corpus.totalSeconds
  const utterances = readCorpusPcm(corpus)
  const lengths = utterances.map((u) => u.length)
  const batches = await trainingBatches(lengths)
  const batchWaves = batches.map((b) => b.map((i) => utterances[i]))
  process.stderr.write(`bench: features, ${seconds.toFixed(0)} s of speech in ${batches.length} batches of ≤ ${BENCH_MAX_NUM_ELEMENTS} padded samples; ` +
    `load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
  const rows: BenchRow[] = []
  const speed = (ms: number) => seconds / (ms / 1000)

  // CPU in Node, one thread
  const computer = new FbankComputer(corpus.sampleRate)
  let nodeFeatures: Features[] = []
  const nodeMs = await fastest(() => { nodeFeatures = batchWaves.flatMap((w) => featurizeBatchCpu(computer, w)) })
  const nodeChecksum = featureChecksum(nodeFeatures)
  const frames = nodeFeatures.reduce((s, f) => s + f.frames, 0)
  const fbankOnlyMs = await fastest(() => { for (const waves of batchWaves) for (const w of waves) computer.compute(w) })

  // kaldi-native-fbank (C++), one thread, the same utterances in corpus order
  const knf = runKnf(corpus, REPEATS)

  // transformers.js in Node, one thread
  const transformers = loadTransformers()
  let tfMs = NaN
  let tfRow: BenchRow
  if (typeof transformers === 'string') {
    tfRow = { benchmark: 'features: transformers.js SeamlessM4TFeatureExtractor (Node)', engine: 'not run', note: transformers }
  } else {
    const extractor = new transformers.SeamlessM4TFeatureExtractor(seamlessConfig)
    let tfFrames = 0
    tfMs = await fastest(async () => {
      tfFrames = 0
      for (const waves of batchWaves) for (const w of waves) tfFrames += (await extractor(w)).input_features.dims[1] * seamlessConfig.stride
    })
    // same Kaldi recipe: compare the log-mel before normalization on a few utterances
    let rawDiff = 0
    for (const w of utterances.slice(0, 3)) {
      const t = await extractor._extract_fbank_features(w)
      const ours = kaldiFbank(w, corpus.sampleRate)
      rawDiff = Math.max(rawDiff, maxAbsDiff([{ data: t.data, frames: t.dims[0], bins: t.dims[1] }], [ours]))
    }
    tfRow = {
      benchmark: `features: transformers.js ${transformers.env.version} SeamlessM4TFeatureExtractor (Node)`, engine: 'cpu',
      'audio s': seconds, ms: tfMs, 'x realtime': speed(tfMs), 'x ref': 1, frames: tfFrames,
      note: `ref; log-mel max |Δ| vs ours ${rawDiff.toPrecision(2)} (before normalization)`,
    }
  }
  const vsTf = (ms: number) => (Number.isFinite(tfMs) ? tfMs / ms : '')
  rows.push({
    benchmark: `features: CPU, Node ${process.versions.node}`, engine: 'cpu', 'audio s': seconds, ms: nodeMs, 'x realtime': speed(nodeMs),
    'x ref': vsTf(nodeMs), frames, note: `checksum ${nodeChecksum.toFixed(3)}`,
  })
  rows.push({
    benchmark: `features: CPU, Node ${process.versions.node}, fbank only (no standardize)`, engine: `cpu (${computer.engine})`,
    'audio s': seconds, ms: fbankOnlyMs, 'x realtime': speed(fbankOnlyMs), 'x ref': vsTf(fbankOnlyMs), frames,
    ...(typeof knf === 'string' ? {} : { note: `${(knf.wallMs / fbankOnlyMs).toFixed(2)}x knf` }),
  })
  rows.push(typeof knf === 'string'
    ? { benchmark: 'features: kaldi-native-fbank (C++, 1 thread), fbank only', engine: 'not run', note: knf }
    : {
      benchmark: `features: kaldi-native-fbank ${knf.commit} (C++, 1 thread), fbank only`, engine: 'cpu', 'audio s': seconds,
      ms: knf.wallMs, 'x realtime': speed(knf.wallMs), 'x ref': vsTf(knf.wallMs), frames: knf.frames,
      note: `max |ours − knf| ${maxAbsDiffVsKnf(utterances.map((u) => computer.compute(u)), knf.features).toPrecision(2)}`,
    })

  const browser = await startBenchBrowser()
  try {
    const request = { kind: 'fbank', pcmUrl: '/speech/pcm.f32', sampleRate: corpus.sampleRate, lengths, batches } as const
    const cpu = await browser.call<FbankReply>({ ...request, device: 'cpu', repeats: REPEATS })
    rows.push({
      benchmark: `features: CPU, Chromium ${browser.version.split('.')[0]} Worker`, engine: 'cpu', 'audio s': seconds, ms: cpu.bestMs,
      'x realtime': speed(cpu.bestMs), 'x ref': vsTf(cpu.bestMs), frames: cpu.frames,
      note: `checksum ${cpu.checksum.toFixed(3)} (${cpu.checksum === nodeChecksum ? 'same as Node' : `Node − this ${(nodeChecksum - cpu.checksum).toPrecision(2)}`})`,
    })
    const gpu = await browser.call<FbankReply>({ ...request, device: 'gpu', repeats: REPEATS, repeatsOnFallback: 1 })
    if (gpu.adapter) process.stderr.write(`bench: WebGPU adapter in Chromium: ${JSON.stringify(gpu.adapter)}\n`)
    rows.push(gpu.adapter ? {
      benchmark: `features: WebGPU, Chromium ${browser.version.split('.')[0]} Worker`, engine: describeAdapter(gpu.adapter), 'audio s': seconds,
      ms: gpu.bestMs, 'x realtime': speed(gpu.bestMs), 'x ref': vsTf(gpu.bestMs), frames: gpu.frames,
      note: `max |GPU − CPU| ${gpu.maxAbsDiffVsCpu?.toPrecision(2)} (standardized), ${gpu.submissionsPerBatch} submission/batch` +
        `${gpu.gpuErrors.length ? `, errors: ${gpu.gpuErrors.join('; ')}` : ''}`,
    } : { benchmark: `features: WebGPU, Chromium ${browser.version.split('.')[0]} Worker`, engine: 'none', note: gpu.unavailable ?? '' })
  } finally {
    await browser.close()
  }
  rows.push(tfRow)

  const realtime = speed(nodeMs)
  rows.push({ benchmark: 'target: CPU (Node, 1 thread) ≥ 500x real time', 'x realtime': realtime, target: realtime >= 500 ? 'met' : 'NOT MET' })
  if (Number.isFinite(tfMs)) {
    rows.push({ benchmark: 'target: CPU (Node) ≥ 3x transformers.js', 'x ref': tfMs / nodeMs, target: tfMs / nodeMs >= 3 ? 'met' : 'NOT MET' })
  }
  if (typeof knf !== 'string') {
    const ratio = knf.wallMs / fbankOnlyMs
    rows.push({ benchmark: 'target: CPU fbank (Node, 1 thread) ≥ 0.8x knf', 'x knf': ratio, target: ratio >= 0.8 ? 'met' : 'NOT MET' })
  }
  return rows
}
