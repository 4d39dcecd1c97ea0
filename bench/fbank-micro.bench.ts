/**
 * Micro benchmark of the CPU fbank path: `FbankComputer.compute` over the speech corpus (~608 s) with the
 * WebAssembly SIMD kernel and with the TypeScript loop, beside kaldi-native-fbank at the commit fairseq2 pins (knf, C++,
 * when built: KNF_BIN, bench/knf/README.md) and transformers.js's Kaldi fbank (`_extract_fbank_features` of its
 * SeamlessM4TFeatureExtractor, before its normalization), all in one run and one thread; then the real FFTs the fbank
 * and the SpecAugment STFT use (512: half-size radix-4 + split; 400: half-size Bluestein + split). Timed in process CPU
 * time (user + system), best of several passes, so a busy shared machine disturbs it less than wall time.
 * Targets: ours ≥ 0.8× knf and ≥ 3× transformers.js.
 * Run: `npm run bench -- fbank-micro` (or `npx tsx bench/fbank-micro.bench.ts`).
 */
import { FbankComputer, type Features, RealFft } from '../src/engine/node.ts'
import { ensureSpeechCorpus, readCorpusPcm } from './browser/speech-corpus.ts'
import { maxAbsDiffVsKnf, runKnf } from './knf/knf.ts'
import { formatTable, type BenchRow } from './table.ts'
import { loadTransformers, seamlessConfig } from './transformers-js.ts'

const PASSES = 7

/** Least CPU time of `PASSES` runs of `pass`, ms. */
async function cpuMs(pass: () => unknown, passes = PASSES): Promise<number> {
  let best = Infinity
  for (let r = 0; r < passes; r++) {
    const t0 = process.cpuUsage()
    await pass()
    const d = process.cpuUsage(t0)
    best = Math.min(best, (d.user + d.system) / 1000)
  }
  return best
}

export async function runFbankMicroBench(): Promise<BenchRow[]> {
  const corpus = ensureSpeechCorpus()
  const utterances = readCorpusPcm(corpus)
  const seconds = corpus.totalSeconds
  const rows: BenchRow[] = []
  const row = (benchmark: string, engine: string, ms: number, frames: number, extra: Record<string, string | number> = {}) =>
    rows.push({ benchmark, engine, 'audio s': seconds, frames, ms, 'µs/frame': (1000 * ms) / frames,
      'x realtime/core': seconds / (ms / 1000), ...extra })

  const wasm = new FbankComputer(corpus.sampleRate)
  const js = new FbankComputer(corpus.sampleRate, 80, 'js')
  let ours: Features[] = []
  const oursMs = await cpuMs(() => { ours = utterances.map((w) => wasm.compute(w)) })
  const frames = ours.reduce((n, f) => n + f.frames, 0)
  const jsMs = await cpuMs(() => { for (const w of utterances) js.compute(w) }, 3)

  const knf = runKnf(corpus, PASSES)
  const transformers = loadTransformers()
  let tjsMs = NaN, tjsFrames = 0, tjsNote = ''
  if (typeof transformers !== 'string') {
    const extractor = new transformers.SeamlessM4TFeatureExtractor(seamlessConfig)
    tjsMs = await cpuMs(async () => {
      tjsFrames = 0
      for (const w of utterances) tjsFrames += (await extractor._extract_fbank_features(w)).dims[0]
    }, 3)
    tjsNote = `transformers.js ${transformers.env.version}`
  }

  const ratios = (ms: number) => ({
    'x knf': typeof knf === 'string' ? '' : knf.cpuMs / ms,
    'x tjs': Number.isFinite(tjsMs) ? tjsMs / ms : '',
  })
  row(`fbank micro: FbankComputer.compute, Node ${process.versions.node}`, wasm.engine, oursMs, frames, {
    ...ratios(oursMs), note: typeof knf === 'string' ? '' : `max |ours − knf| ${maxAbsDiffVsKnf(ours, knf.features).toPrecision(2)}`,
  })
  row(`fbank micro: FbankComputer.compute, Node ${process.versions.node}`, js.engine, jsMs, frames, ratios(jsMs))
  if (typeof knf === 'string') rows.push({ benchmark: 'fbank micro: kaldi-native-fbank (C++)', engine: 'not run', note: knf })
  else row(`fbank micro: kaldi-native-fbank ${knf.commit} (C++, Ooura FFT in double)`, 'cpu', knf.cpuMs, knf.frames, ratios(knf.cpuMs))
  if (typeof transformers === 'string') rows.push({ benchmark: 'fbank micro: transformers.js', engine: 'not run', note: transformers })
  else row('fbank micro: transformers.js SeamlessM4TFeatureExtractor._extract_fbank_features', 'cpu', tjsMs, tjsFrames,
    { ...ratios(tjsMs), note: tjsNote })

  for (const size of [512, 400]) {
    const fft = new RealFft(size)
    const frame = Float64Array.from({ length: size }, (_, i) => Math.sin(0.37 * i) + 0.1 * Math.cos(2.1 * i))
    const spectrum = new Float64Array(2 * fft.bins)
    const count = 50_000
    const ms = await cpuMs(() => { for (let t = 0; t < count; t++) fft.forward(spectrum, frame) })
    rows.push({ benchmark: `fbank micro: RealFft(${size}).forward (TypeScript)`, engine: 'js', frames: count, ms, 'µs/frame': (1000 * ms) / count })
  }

  if (typeof knf !== 'string') {
    const ratio = knf.cpuMs / oursMs
    rows.push({ benchmark: 'target: FbankComputer ≥ 0.8x knf (1 thread)', 'x knf': ratio, target: ratio >= 0.8 ? 'met' : 'NOT MET' })
  }
  if (Number.isFinite(tjsMs)) {
    const ratio = tjsMs / oursMs
    rows.push({ benchmark: 'target: FbankComputer ≥ 3x transformers.js', 'x tjs': ratio, target: ratio >= 3 ? 'met' : 'NOT MET' })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(formatTable(await runFbankMicroBench()) + '\n')
}
