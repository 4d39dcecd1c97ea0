/**
 * Decode benchmark: throughput in seconds of audio per second for FLAC, Ogg Vorbis, Ogg Opus and MP3 on the
 * same ~10-minute files, in one run: WebCodecs and WASM in a Chromium Worker, WASM in Node, and the native command-line
 * decoders (`flac -d`, `oggdec`, `opusdec`, `ffmpeg` for MP3; plus `ffmpeg` on every codec), as ratios to the native
 * decoder. Then training batches (max_num_elements 960,000) featurized from the encoded files in the browser, decode
 * stage ahead of the CPU fbank (`featurizeBatches`), against the fbank alone.
 * Targets: the browser path ≥ 50% of native speed for FLAC; decode never the bottleneck of featurizing a batch.
 * Wall-clock times, fastest of `REPEATS` runs, one thread each.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { decodeAudio, DEFAULT_STREAM_DECODERS } from '../src/engine/node.ts'
import { trainingBatches } from './browser/batches.ts'
import type { DecodeReply, FeaturizeReply } from './browser/protocol.ts'
import { startBenchBrowser, type BenchBrowser } from './browser/runner.ts'
import { benchCodecs, ensureSpeechCorpus, type BenchCodec, type SpeechCorpus } from './browser/speech-corpus.ts'
import type { BenchRow } from './table.ts'

const REPEATS = 3

/** The native decoder the issue names per codec, writing PCM to stdout (discarded). */
const nativeDecoders: Record<BenchCodec, { name: string; args: (file: string) => string[] }> = {
  flac: { name: 'flac -d', args: (f) => ['flac', '-d', '-s', '-c', f] },
  vorbis: { name: 'oggdec', args: (f) => ['oggdec', '-Q', '-o', '-', f] },
  opus: { name: 'opusdec', args: (f) => ['opusdec', '--quiet', '--no-dither', '--rate', '16000', f, '-'] },
  mp3: { name: 'ffmpeg', args: (f) => ['ffmpeg', '-v', 'error', '-nostdin', '-threads', '1', '-i', f, '-f', 'null', '-'] },
}
const ffmpegArgs = (f: string) => ['ffmpeg', '-v', 'error', '-nostdin', '-threads', '1', '-i', f, '-f', 'null', '-']

/** Fastest wall time of running `argv` (stdout discarded), ms. */
function timeCommand(argv: string[]): number {
  let best = Infinity
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now()
    const result = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 20 })
    const ms = performance.now() - t0
    if (result.error || result.status !== 0) {
      throw new Error(`bench: ${argv.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${result.stderr?.toString().trim()}`)
    }
    best = Math.min(best, ms)
  }
  return best
}

/** Fastest `decodeAudio` in Node with the WASM decoders, ms, and the decoded length. */
async function timeNodeWasm(path: string): Promise<{ ms: number; frames: number; decoder: string }> {
  const bytes = new Uint8Array(readFileSync(path))
  let best = Infinity, frames = 0, decoder = ''
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now()
    const audio = await decodeAudio(bytes, { id: path, prefer: 'wasm' })
    best = Math.min(best, performance.now() - t0)
    frames = audio.frames
    decoder = audio.decoder
  }
  return { ms: best, frames, decoder }
}

/** A throughput row; `x ref` is the speed relative to the codec's native decoder (> 1: faster than native). */
function row(codec: string, path: string, engine: string, ms: number, seconds: number, nativeMs: number, frames: number | string): BenchRow {
  return {
    benchmark: `decode ${codec}: ${path}`, engine, 'audio s': seconds, ms, 'x realtime': seconds / (ms / 1000),
    'x ref': nativeMs / ms, frames, note: ms === nativeMs ? 'ref: native decoder' : '',
  }
}

/**
 * Featurizing training batches in the Chromium Worker through `featurizeBatches` (decode stage ahead of the CPU
 * fbank), per codec with the browser's default decoder, the decode stage in the same Worker or on helper Workers.
 * Target "decode never the bottleneck": after the first batch (the pipeline filling), the feature stage waits for
 * audio less than 5% of its own time.
 */
async function featurizeRows(browser: BenchBrowser, corpus: SpeechCorpus): Promise<BenchRow[]> {
  const batches = await trainingBatches(corpus.utterances.map((u) => u.samples))
  const rows: BenchRow[] = []
  for (const { codec, ext } of benchCodecs) {
    const urls = corpus.utterances.map((u) => `/speech/${u.name}.${ext}`)
    for (const decoder of ['in-thread', 'pool'] as const) {
      const r = await browser.call<FeaturizeReply>({ kind: 'featurize', urls, batches, decoder, repeats: 2 })
      if (r.failures.length) throw new Error(`bench: featurize ${codec}: ${r.failures.join('; ')}`)
      if (r.checksum !== r.checksumAlone) throw new Error(`bench: featurize ${codec}: pipeline features differ from the fbank-alone pass (${r.checksum} vs ${r.checksumAlone})`)
      const worst = Math.max(...r.decodeBatchMs.map((d, i) => d / r.fbankBatchMs[i]))
      const decodeMs = r.decodeBatchMs.reduce((a, b) => a + b, 0)
      const where = decoder === 'pool' ? `${r.lanes} helper Worker${r.lanes === 1 ? '' : 's'}` : 'in the feature Worker'
      const met = r.laterWaitMs <= 0.05 * r.fbankMs
      // decode per core against fbank per core: helpers the decode stage needs to keep up, plus one core for features
      const helpersNeeded = Math.ceil(decodeMs / r.fbankMs)
      rows.push({
        benchmark: `featurize ${codec} batches: decode ${where}, CPU fbank (Chromium)`,
        engine: r.decoders.join(' '), 'audio s': corpus.totalSeconds, ms: r.pipelineMs, 'x realtime': corpus.totalSeconds / (r.pipelineMs / 1000),
        'x ref': r.fbankMs / r.pipelineMs,
        note: `ref: fbank alone ${r.fbankMs.toFixed(0)} ms; decode alone ${decodeMs.toFixed(0)} ms (worst batch ${worst.toFixed(2)}× its fbank); features waited ${r.firstWaitMs.toFixed(0)} ms for batch 1, ${r.laterWaitMs.toFixed(0)} ms after`,
        target: met ? 'met (features never wait)' : decoder === 'pool'
          ? `NOT MET here: decode ${(decodeMs / r.fbankMs).toFixed(2)}× fbank per core, needs ${helpersNeeded} helpers = ${helpersNeeded + 1} cores (have ${r.cores})`
          : 'NOT MET (decode shares the feature thread)',
      })
    }
  }
  return rows
}

export async function runDecodeBench(): Promise<BenchRow[]> {
  const corpus = ensureSpeechCorpus()
  const seconds = corpus.totalSeconds
  const rows: BenchRow[] = []
  process.stderr.write(`bench: decode, ${seconds.toFixed(0)} s of speech per codec; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`)
  const browser = await startBenchBrowser()
  try {
    for (const { codec, ext } of benchCodecs) {
      const file = join(corpus.dir, `long.${ext}`)
      const native = nativeDecoders[codec]
      const nativeMs = timeCommand(native.args(file))
      rows.push(row(codec, 'native CLI', native.name, nativeMs, seconds, nativeMs, ''))
      if (codec !== 'mp3') rows.push(row(codec, 'native CLI', 'ffmpeg', timeCommand(ffmpegArgs(file)), seconds, nativeMs, ''))
      const ways: { prefer: 'webcodecs' | 'wasm'; streamDecoders?: number }[] = [{ prefer: 'webcodecs' }, { prefer: 'wasm' }]
      if (codec === 'flac') ways.splice(1, 0, { prefer: 'webcodecs', streamDecoders: 1 })
      for (const way of ways) {
        const [r] = (await browser.call<DecodeReply>({ kind: 'decode', urls: [`/speech/long.${ext}`], ...way, repeats: REPEATS })).files
        const engine = way.streamDecoders === 1 ? `${r.decoder} (1 decoder)` : codec === 'flac' && way.prefer === 'webcodecs' ? `${r.decoder} (${DEFAULT_STREAM_DECODERS} decoders)` : r.decoder
        rows.push(row(codec, `Chromium ${browser.version.split('.')[0]} Worker`, engine, r.bestMs, seconds, nativeMs, r.frames))
      }
      const node = await timeNodeWasm(file)
      rows.push(row(codec, `Node ${process.versions.node}`, node.decoder, node.ms, seconds, nativeMs, node.frames))
    }
    rows.push(...await featurizeRows(browser, corpus))
  } finally {
    await browser.close()
  }
  const flacBrowser = rows.find((r) => r.benchmark.startsWith('decode flac: Chromium') && r.engine === `webcodecs:flac (${DEFAULT_STREAM_DECODERS} decoders)`)
  if (flacBrowser) {
    const ratio = flacBrowser['x ref'] as number
    rows.push({ benchmark: 'target: Chromium WebCodecs FLAC ≥ 0.5 x native', 'x ref': ratio, target: ratio >= 0.5 ? 'met' : 'NOT MET' })
  }
  return rows
}
