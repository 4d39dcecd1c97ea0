/**
 * The planted near-duplicate set: real speech (espeak-ng, the demo's sentences and voices) turned into the variants
 * a corpus assembled from many sources holds — re-encoded to Opus at 20–24 kb/s (opusenc) and MP3 at 32 kb/s
 * (lame), resampled through 8 kHz (sox), −6 dB and peak-normalized gain, 150 ms trimmed at either end, white noise
 * at 30 dB SNR, and a combination — never by mixscope's own encoders. Next to them: other sentences by the same
 * voices, and the same sentences spoken again by another voice or at another speed (different utterances of the
 * same text: a near-duplicate finder must keep them apart).
 *
 * Written as a hive dataset by DuckDB (`scripts/demo-parquet.ts`): originals in corpus `src` (train), variants in
 * corpus `web` (mostly test and dev, some in train), each clip also as its own file for `fpcalc`. Cached under
 * `test/.cache/near-duplicates-v2` (the tools are deterministic: sox -R -D, fixed Ogg serials).
 * Needs espeak-ng, sox, flac, opusenc, lame (on .ci/run's apt line).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDuckDb, writeParquet } from '../../../scripts/demo-parquet.ts'
import { demoSentences, type DemoLanguage } from '../../../scripts/demo-sentences.ts'

/** One clip of the planted set. */
export interface PlantedClip {
  /** Example id `<file>:<row>` in the planted dataset. */
  id: string
  /** The utterance it is a recording of: equal for an original and its variants, different otherwise. */
  utterance: number
  /** `original`, `respoken` (same text, another voice or speed) or the variant's kind. */
  kind: string
  split: string
  /** The encoded clip as its own file (for fpcalc). */
  file: string
}

/** The planted set on disk. */
export interface PlantedSet {
  /** Dataset root (`…/version=0`). */
  root: string
  clips: PlantedClip[]
}

const cacheDir = fileURLToPath(new URL('../../.cache/near-duplicates-v2', import.meta.url))

function run(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    throw new Error(`planted: ${cmd} ${args.join(' ')} failed: ${(error as { stderr?: Buffer }).stderr?.toString() ?? (error as Error).message}`)
  }
}

/** RMS of a 16-bit PCM WAV written by sox (full scale 1). */
function wavRms(path: string): number {
  const wav = readFileSync(path)
  let offset = 12
  while (offset + 8 <= wav.length) {
    const id = wav.toString('latin1', offset, offset + 4)
    const size = wav.readUInt32LE(offset + 4)
    if (id === 'data') {
      let sum = 0
      const n = size / 2
      for (let i = 0; i < n; i++) sum += (wav.readInt16LE(offset + 8 + 2 * i) / 32768) ** 2
      return Math.sqrt(sum / n)
    }
    offset += 8 + size + (size & 1)
  }
  throw new Error(`planted: ${path} has no data chunk`)
}

/** The variant kinds, each made from the original's 16 kHz WAV by external tools; returns the file's extension. */
const variants: Record<string, (wav: string, out: string, serial: number) => string> = {
  'opus-24k': (wav, out, serial) => { run('opusenc', ['--quiet', '--bitrate', '24', '--serial', String(serial), wav, `${out}.opus`]); return 'opus' },
  'mp3-32k': (wav, out) => { run('lame', ['--quiet', '-b', '32', wav, `${out}.mp3`]); return 'mp3' },
  'resampled-8k': (wav, out) => { run('sox', ['-R', '-D', wav, '-r', '8000', `${out}-8k.wav`]); run('sox', ['-R', '-D', `${out}-8k.wav`, '-r', '16000', '-b', '16', `${out}.flac`]); return 'flac' },
  'gain-6db-down': (wav, out) => { run('sox', ['-R', '-D', wav, '-b', '16', `${out}.flac`, 'gain', '-6']); return 'flac' },
  'peak-normalized': (wav, out) => { run('sox', ['-R', '-D', wav, '-b', '16', `${out}.flac`, 'gain', '-n', '-1']); return 'flac' },
  'trim-start-150ms': (wav, out) => { run('sox', ['-R', '-D', wav, '-b', '16', `${out}.flac`, 'trim', '0.15']); return 'flac' },
  'trim-end-150ms': (wav, out) => { run('sox', ['-R', '-D', wav, '-b', '16', `${out}.flac`, 'trim', '0', '-0.15']); return 'flac' },
  'noise-30db': (wav, out) => {
    // sox's white noise is uniform in [-1, 1] (RMS 1/√3): scaled to the speech's RMS − 30 dB
    const volume = wavRms(wav) * 10 ** (-30 / 20) * Math.sqrt(3)
    run('sox', ['-R', '-D', wav, `${out}-noise.wav`, 'synth', 'whitenoise', 'vol', volume.toFixed(6)])
    run('sox', ['-R', '-D', '-m', '-v', '1', wav, '-v', '1', `${out}-noise.wav`, '-b', '16', `${out}.flac`])
    return 'flac'
  },
  'opus-20k-trimmed-quieter': (wav, out, serial) => {
    run('sox', ['-R', '-D', wav, '-b', '16', `${out}-pre.wav`, 'trim', '0.15', 'gain', '-6'])
    run('opusenc', ['--quiet', '--bitrate', '20', '--serial', String(serial), `${out}-pre.wav`, `${out}.opus`])
    return 'opus'
  },
  'mp3-32k-from-44k-noisy': (wav, out) => {
    const volume = wavRms(wav) * 10 ** (-30 / 20) * Math.sqrt(3)
    run('sox', ['-R', '-D', wav, `${out}-noise.wav`, 'synth', 'whitenoise', 'vol', volume.toFixed(6)])
    run('sox', ['-R', '-D', '-m', '-v', '1', wav, '-v', '1', `${out}-noise.wav`, '-r', '44100', '-b', '16', `${out}-44k.wav`])
    run('lame', ['--quiet', '-b', '32', `${out}-44k.wav`, `${out}.mp3`])
    return 'mp3'
  },
}

/** Variant kinds in the order they are dealt to the originals. */
export const variantKinds = Object.keys(variants)

interface Row { text: string; bytes: Uint8Array; samples: number; clip: Omit<PlantedClip, 'id'>; }

/**
 * Makes (or reuses) the planted set: 24 originals (8 pairs of sentences in each of English, German, French), each with two
 * variants dealt round-robin from `variantKinds` (48), plus 8 re-spoken sentences.
 */
export async function plantedSet(): Promise<PlantedSet> {
  const root = join(cacheDir, 'version=0')
  const truth = join(cacheDir, 'planted.json')
  if (existsSync(truth)) return { root, clips: JSON.parse(readFileSync(truth, 'utf8')) as PlantedClip[] }
  rmSync(cacheDir, { recursive: true, force: true })
  const work = join(cacheDir, 'work')
  const clipsDir = join(cacheDir, 'clips')
  mkdirSync(work, { recursive: true })
  mkdirSync(clipsDir, { recursive: true })
  const languages: [DemoLanguage, string[]][] = [['eng_Latn', ['en-us', 'en-gb+m3']], ['deu_Latn', ['de', 'de+f4']], ['fra_Latn', ['fr-fr', 'fr-fr+m4']]]
  const partitions = new Map<string, Row[]>()
  const add = (corpus: string, split: string, language: string, row: Row) => {
    const key = `corpus=${corpus}/split=${split}/language=${language}`
    const list = partitions.get(key)
    if (list) list.push(row)
    else partitions.set(key, [row])
  }
  let utterance = 0
  let serial = 5000
  let dealt = 0
  const speak = (text: string, voice: string, speed: number, name: string): string => {
    const raw = join(work, `${name}-espeak.wav`)
    const wav = join(work, `${name}.wav`)
    run('espeak-ng', ['-v', voice, '-s', String(speed), '-w', raw, text])
    run('sox', ['-R', '-D', raw, '-r', '16000', '-c', '1', '-b', '16', wav])
    return wav
  }
  const samplesOf = (wav: string) => (readFileSync(wav).length - 44) / 2
  for (const [language, voices] of languages) {
    const sentences = demoSentences[language]
    for (let s = 0; s < 8; s++) {
      const u = utterance++
      const name = `u${u}`
      // two sentences per utterance: 5–8 s, the length of a typical corpus's clip
      const text = `${sentences[s]} ${sentences[s + 8]}`
      const wav = speak(text, voices[s % 2], 160 + 10 * (s % 3), name)
      run('flac', ['-s', '-f', '-8', '--no-padding', wav, '-o', join(clipsDir, `${name}-original.flac`)])
      const original = join(clipsDir, `${name}-original.flac`)
      add('src', 'train', language, { text, bytes: readFileSync(original), samples: samplesOf(wav), clip: { utterance: u, kind: 'original', split: 'train', file: original } })
      for (let v = 0; v < 2; v++) {
        const kind = variantKinds[dealt % variantKinds.length]
        // every fifth utterance keeps both variants in train (near-duplicates within a split only), every fifth
        // variant of the others stays in train too, the rest go to test or dev
        const split = u % 5 === 4 || dealt % 5 === 4 ? 'train' : dealt % 2 ? 'dev' : 'test'
        dealt++
        const out = join(work, `${name}-${kind}`)
        const ext = variants[kind](wav, out, serial++)
        const file = join(clipsDir, `${name}-${kind}.${ext}`)
        writeFileSync(file, readFileSync(`${out}.${ext}`))
        add('web', split, language, { text, bytes: readFileSync(file), samples: Math.round(samplesOf(wav)), clip: { utterance: u, kind, split, file } })
      }
      if (s < 3) {
        // the same sentence again: another voice and speed, a different utterance
        const r = utterance++
        const again = speak(text, voices[(s + 1) % 2], 200, `u${r}`)
        const file = join(clipsDir, `u${r}-respoken.flac`)
        run('flac', ['-s', '-f', '-8', '--no-padding', again, '-o', file])
        add('web', 'test', language, { text, bytes: readFileSync(file), samples: samplesOf(again), clip: { utterance: r, kind: 'respoken', split: 'test', file } })
      }
    }
  }
  const conn = await openDuckDb(1)
  const clips: PlantedClip[] = []
  for (const [key, rows] of [...partitions].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const path = `${key}/part-0.parquet`
    await writeParquet(conn, join(root, path), [
      { name: 'text', type: 'VARCHAR', values: rows.map((r) => r.text) },
      { name: 'audio_bytes', type: 'TINYINT[]', values: rows.map((r) => r.bytes) },
      { name: 'audio_size', type: 'BIGINT', values: rows.map((r) => r.samples) },
    ], { rowGroupSize: 4, compression: 'snappy' })
    rows.forEach((r, i) => clips.push({ id: `${path}:${i}`, ...r.clip }))
  }
  rmSync(work, { recursive: true, force: true })
  writeFileSync(truth, JSON.stringify(clips, null, 1))
  return { root, clips }
}
