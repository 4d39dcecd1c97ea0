/**
 * Decode benchmark (issue 4): throughput in seconds of audio per second for FLAC, Ogg Vorbis, Ogg Opus and MP3 on the
 * same ~10-minute files, in one run: WebCodecs and WASM in a Chromium Worker, WASM in Node, and the native command-line
 * decoders (`flac -d`, `oggdec`, `opusdec`, `ffmpeg` for MP3; plus `ffmpeg` on every codec), as ratios to the native
 * decoder. Then, per training batch (max_num_elements 960,000), the browser's decode time of the batch's files against
 * the CPU fbank time of the same batch in the same Worker.
 * Targets: the browser path ≥ 50% of native speed for FLAC; decode never the bottleneck of featurizing a batch.
 * Wall-clock times, fastest of `REPEATS` runs, one thread each.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { decodeAudio } from '../src/engine/audio/decode.ts'
import { DEFAULT_STREAM_DECODERS } from '../src/engine/audio/webcodecs.ts'
import { trainingBatches } from './browser/batches.ts'
import type { DecodeReply, FbankReply } from './browser/protocol.ts'
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

/** Decode vs CPU fbank, per training batch, in the Chromium Worker (browser's default decoder per codec). */
async function decodeVsFbank(browser: BenchBrowser, corpus: SpeechCorpus): Promise<BenchRow[]> {
  const lengths = corpus.utterances.map((u) => u.samples)
  const batches = await trainingBatches(lengths)
  const fbank = await browser.call<FbankReply>({
    kind: 'fbank', device: 'cpu', pcmUrl: '/speech/pcm.f32', sampleRate: corpus.sampleRate, lengths, batches, repeats: 2,
  })
  const rows: BenchRow[] = []
  for (const { codec, ext } of benchCodecs) {
    const urls = corpus.utterances.map((u) => `/speech/${u.name}.${ext}`)
    const fallback = codec === 'opus' ? 'wasm' : 'webcodecs' // decodeAudio's default in a browser
    for (const prefer of ['webcodecs', 'wasm'] as const) {
      const decoded = await browser.call<DecodeReply>({ kind: 'decode', urls, prefer, repeats: 2 })
      const ratios = batches.map((b, i) => b.reduce((s, u) => s + decoded.files[u].bestMs, 0) / fbank.batchMs[i])
      const decodeMs = decoded.files.reduce((s, f) => s + f.bestMs, 0)
      const worst = Math.max(...ratios)
      rows.push({
        benchmark: `decode ${codec} per utterance vs CPU fbank per batch (Chromium Worker${prefer === fallback ? ', default' : ''})`,
        engine: decoded.files[0].decoder, 'audio s': corpus.totalSeconds, ms: decodeMs, 'x realtime': corpus.totalSeconds / (decodeMs / 1000),
        'x ref': fbank.bestMs / decodeMs,
        note: `ref: fbank ${fbank.bestMs.toFixed(0)} ms; decode/fbank worst of ${batches.length} batches ${worst.toFixed(2)}`,
        target: worst < 1 ? 'met (fbank slower)' : 'NOT MET (decode slower)',
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
      const ways = [{ prefer: 'webcodecs' as const }, { prefer: 'wasm' as const }]
      if (codec === 'flac') ways.splice(1, 0, { prefer: 'webcodecs', streamDecoders: 1 } as never)
      for (const way of ways as { prefer: 'webcodecs' | 'wasm'; streamDecoders?: number }[]) {
        const [r] = (await browser.call<DecodeReply>({ kind: 'decode', urls: [`/speech/long.${ext}`], ...way, repeats: REPEATS })).files
        const engine = way.streamDecoders === 1 ? `${r.decoder} (1 decoder)` : codec === 'flac' && way.prefer === 'webcodecs' ? `${r.decoder} (${DEFAULT_STREAM_DECODERS} decoders)` : r.decoder
        rows.push(row(codec, `Chromium ${browser.version.split('.')[0]} Worker`, engine, r.bestMs, seconds, nativeMs, r.frames))
      }
      const node = await timeNodeWasm(file)
      rows.push(row(codec, `Node ${process.versions.node}`, node.decoder, node.ms, seconds, nativeMs, node.frames))
    }
    rows.push(...await decodeVsFbank(browser, corpus))
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
