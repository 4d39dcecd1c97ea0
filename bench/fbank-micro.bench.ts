/**
 * Micro benchmark of the CPU fbank path (issue 5): the whole `FbankComputer.compute` on the speech corpus, and the real
 * FFTs it and the SpecAugment STFT use (512: half-size radix-4 + split; 400: half-size Bluestein + split). Timed in
 * process CPU time (user + system), best of several passes, so a busy shared machine disturbs it less than wall time.
 * Run: `npx tsx bench/fbank-micro.bench.ts` (or as a `bench/run.ts` group).
 */
import { FbankComputer } from '../src/engine/dsp/fbank.ts'
import { RealFft } from '../src/engine/dsp/fft.ts'
import { ensureSpeechCorpus, readCorpusPcm } from './browser/speech-corpus.ts'
import { formatTable, type BenchRow } from './table.ts'

const PASSES = 7

/** Least CPU time of `PASSES` runs of `pass`, ms. */
function cpuMs(pass: () => void): number {
  let best = Infinity
  for (let r = 0; r < PASSES; r++) {
    const t0 = process.cpuUsage()
    pass()
    const d = process.cpuUsage(t0)
    best = Math.min(best, (d.user + d.system) / 1000)
  }
  return best
}

export async function runFbankMicroBench(): Promise<BenchRow[]> {
  const corpus = ensureSpeechCorpus()
  const utterances = readCorpusPcm(corpus)
  const computer = new FbankComputer(corpus.sampleRate)
  let frames = 0
  for (const w of utterances) frames += computer.compute(w).frames
  const fbankMs = cpuMs(() => { for (const w of utterances) computer.compute(w) })
  const seconds = corpus.totalSeconds
  const rows: BenchRow[] = [{
    benchmark: `fbank micro: FbankComputer.compute, Node ${process.versions.node}, CPU time`, 'audio s': seconds, frames,
    ms: fbankMs, 'µs/frame': (1000 * fbankMs) / frames, 'x realtime/core': seconds / (fbankMs / 1000),
  }]
  for (const size of [512, 400]) {
    const fft = new RealFft(size)
    const frame = Float64Array.from({ length: size }, (_, i) => Math.sin(0.37 * i) + 0.1 * Math.cos(2.1 * i))
    const spectrum = new Float64Array(2 * fft.bins)
    const count = 50_000
    const ms = cpuMs(() => { for (let t = 0; t < count; t++) fft.forward(spectrum, frame) })
    rows.push({ benchmark: `fbank micro: RealFft(${size}).forward, CPU time`, frames: count, ms, 'µs/frame': (1000 * ms) / count })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(formatTable(await runFbankMicroBench()) + '\n')
}
