/**
 * The benchmarks' speech: ~10 minutes of espeak-ng speech in the demo's 8 languages, as training-sized utterances
 * (about 2–25 s, 16 kHz mono 16-bit) and as one long concatenation, each encoded as FLAC, Ogg Vorbis, Ogg Opus and
 * MP3 with the Debian encoders. Built once into `bench/.cache/speech` (behind a marker file); deterministic choices.
 *
 * Layout: `utt-NNN.{wav,flac,ogg,opus,mp3}`, `long.{wav,flac,ogg,opus,mp3}`, `pcm.f32` (all utterances' samples,
 * float32 little-endian, s16 / 32768, concatenated in utterance order) and `corpus.json` ({@link SpeechCorpus}).
 * Needs `espeak-ng`, `sox`, `flac`, `oggenc`, `opusenc`, `lame`.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { demoSentences, demoVoices, type DemoLanguage } from '../../scripts/demo-sentences.ts'
import { wavSampleCount } from '../../scripts/demo-audio.ts'
import { splitUtterances } from './featurize.ts'
import { mulberry32 as makeRng } from '../../src/engine/index.ts'

/** Codecs the benchmarks compare, with the file extension each is stored under. */
export const benchCodecs = [
  { codec: 'flac', ext: 'flac' },
  { codec: 'vorbis', ext: 'ogg' },
  { codec: 'opus', ext: 'opus' },
  { codec: 'mp3', ext: 'mp3' },
] as const

export type BenchCodec = (typeof benchCodecs)[number]['codec']

/** What `corpus.json` says about the built corpus. */
export interface SpeechCorpus {
  /** Absolute folder of the files. */
  dir: string
  sampleRate: number
  /** Utterances in order: base name (`utt-000`) and length in samples (of the 16 kHz WAV before encoding). */
  utterances: { name: string; samples: number }[]
  /** Samples of all utterances together (= samples of `long.wav` and of `pcm.f32`). */
  totalSamples: number
  /** Seconds of audio in all utterances (and in each `long.*` file). */
  totalSeconds: number
}

/** Cache root of the benchmarks (git-ignored). */
export const benchCacheDir = join(import.meta.dirname, '..', '.cache')
const corpusDir = join(benchCacheDir, 'speech')
/** Bump when the recipe changes, so old caches are rebuilt. */
const recipeVersion = 1
const targetSeconds = 600
const sampleRate = 16000

function run(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`bench: ${cmd} ${args.slice(0, 6).join(' ')}… failed: ${stderr.trim() || (error as Error).message}`)
  }
}


/** Encodes `wav` (16 kHz mono s16) next to it as `<base>.flac/.ogg/.opus/.mp3`. */
function encodeAll(dir: string, base: string, serial: number): void {
  const wav = join(dir, `${base}.wav`)
  run('flac', ['-s', '-f', '-5', wav, '-o', join(dir, `${base}.flac`)])
  run('oggenc', ['-Q', '-q', '3', '--serial', String(serial), wav, '-o', join(dir, `${base}.ogg`)])
  run('opusenc', ['--quiet', '--bitrate', '24', '--serial', String(serial), wav, join(dir, `${base}.opus`)])
  run('lame', ['--quiet', '--noreplaygain', '-b', '64', wav, join(dir, `${base}.mp3`)])
}

/** Reads a sox-written 16-bit mono WAV as float32 (s16 / 32768, libsndfile's scaling). */
function wavToFloat32(path: string): Float32Array {
  const bytes = new Uint8Array(readFileSync(path))
  const samples = wavSampleCount(bytes)
  const data = bytes.byteLength - samples * 2
  const view = new DataView(bytes.buffer, bytes.byteOffset + data, samples * 2)
  const out = new Float32Array(samples)
  for (let i = 0; i < samples; i++) out[i] = view.getInt16(2 * i, true) / 32768
  return out
}

/**
 * Returns the benchmark corpus, building it first when the cache lacks it (~1 minute).
 * @throws when an encoder is missing or fails (the message names the command)
 */
export function ensureSpeechCorpus(): SpeechCorpus {
  const marker = join(corpusDir, 'corpus.json')
  if (existsSync(marker)) {
    const saved = JSON.parse(readFileSync(marker, 'utf8')) as SpeechCorpus & { recipeVersion: number }
    if (saved.recipeVersion === recipeVersion) return { ...saved, dir: corpusDir }
  }
  rmSync(corpusDir, { recursive: true, force: true })
  mkdirSync(corpusDir, { recursive: true })
  process.stderr.write(`bench: synthesizing ~${targetSeconds} s of speech into ${corpusDir}...\n`)
  const rng = makeRng(20240611)
  const languages = Object.keys(demoSentences) as DemoLanguage[]
  const utterances: SpeechCorpus['utterances'] = []
  let total = 0
  for (let i = 0; total < targetSeconds * sampleRate; i++) {
    const language = languages[i % languages.length]
    const sentences = demoSentences[language]
    const count = 1 + Math.floor(rng() * 7) // 1–7 sentences: ~2–25 s
    const text = Array.from({ length: count }, () => sentences[Math.floor(rng() * sentences.length)]).join(' ')
    const voices = demoVoices[language]
    const voice = voices[Math.floor(rng() * voices.length)]
    const speed = 130 + Math.floor(rng() * 60)
    const name = `utt-${String(i).padStart(3, '0')}`
    const raw = join(corpusDir, 'espeak.wav')
    run('espeak-ng', ['-v', voice, '-s', String(speed), '-w', raw, text])
    // -R repeatable, -D no dither: 16 kHz mono s16 as the dataprep stores it
    run('sox', ['-R', '-D', raw, '-r', String(sampleRate), '-c', '1', '-b', '16', join(corpusDir, `${name}.wav`)])
    const samples = wavSampleCount(new Uint8Array(readFileSync(join(corpusDir, `${name}.wav`))))
    encodeAll(corpusDir, name, 1000 + i)
    utterances.push({ name, samples })
    total += samples
  }
  rmSync(join(corpusDir, 'espeak.wav'))
  run('sox', ['-R', '-D', ...utterances.map((u) => join(corpusDir, `${u.name}.wav`)), join(corpusDir, 'long.wav')])
  encodeAll(corpusDir, 'long', 999)
  const pcm = new Float32Array(total)
  let offset = 0
  for (const u of utterances) {
    pcm.set(wavToFloat32(join(corpusDir, `${u.name}.wav`)), offset)
    offset += u.samples
  }
  writeFileSync(join(corpusDir, 'pcm.f32'), new Uint8Array(pcm.buffer))
  const corpus: SpeechCorpus = { dir: corpusDir, sampleRate, utterances, totalSamples: total, totalSeconds: total / sampleRate }
  writeFileSync(marker, JSON.stringify({ ...corpus, recipeVersion }, null, 1))
  return corpus
}

/** Reads `pcm.f32` back as one `[samples]` array per utterance (views into one buffer). */
export function readCorpusPcm(corpus: SpeechCorpus): Float32Array[] {
  const bytes = readFileSync(join(corpus.dir, 'pcm.f32'))
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  return splitUtterances(all, corpus.utterances.map((u) => u.samples))
}
