/**
 * Small raw corpora for the dataprep tests, in the four input layouts, generated into a folder: real speech from
 * espeak-ng, converted by sox (rates 8–48 kHz, stereo, FLAC, MP3 via lame), plus the bad rows a real corpus has
 * (a missing file, a file that is not audio, a transcript that normalizes to nothing, an unknown language code,
 * a broken manifest line). The hf-parquet input is written by DuckDB with the audio struct `datasets` uses.
 * Needs espeak-ng, sox, lame (on .ci/run's apt line).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeParquet } from '../helpers/duckdb.ts'

/** One spoken clip of a fixture. */
export interface Clip { voice: string; text: string; lang: string; rate: number; channels: number; ext: 'wav' | 'flac' | 'mp3' }

/** Speaks `text` with espeak-ng and writes it at `rate` Hz, `channels` channels, as `ext`. */
export function speak(path: string, clip: Clip): void {
  mkdirSync(join(path, '..'), { recursive: true })
  const work = mkdtempSync(join(tmpdir(), 'mixscope-speak-'))
  const raw = join(work, 'espeak.wav')
  execFileSync('espeak-ng', ['-v', clip.voice, '-s', '190', '-w', raw, clip.text])
  if (clip.ext === 'mp3') {
    const wav = join(work, 'resampled.wav')
    execFileSync('sox', [raw, '-r', String(clip.rate), '-c', String(clip.channels), wav])
    execFileSync('lame', ['--quiet', '-b', '64', wav, path])
  } else {
    execFileSync('sox', [raw, '-r', String(clip.rate), '-c', String(clip.channels), ...(clip.ext === 'wav' ? ['-b', '16'] : []), path])
  }
  rmSync(work, { recursive: true, force: true })
}

export const clips: Clip[] = [
  { voice: 'en', text: 'Hello, World! The quick brown fox.', lang: 'en', rate: 22050, channels: 1, ext: 'wav' },
  { voice: 'en', text: 'Room 101 is on the second floor.', lang: 'en', rate: 44100, channels: 2, ext: 'wav' },
  { voice: 'en', text: 'Speech data for training (Gen 1:1) models.', lang: 'en-US', rate: 48000, channels: 1, ext: 'flac' },
  { voice: 'de', text: 'Guten Tag, wie geht es Ihnen?', lang: 'de', rate: 16000, channels: 1, ext: 'wav' },
  { voice: 'de', text: 'Das Wetter ist heute schön.', lang: 'de', rate: 8000, channels: 1, ext: 'wav' },
  { voice: 'hi', text: 'नमस्ते। आप कैसे हैं॥', lang: 'hi', rate: 24000, channels: 2, ext: 'flac' },
  { voice: 'cmn', text: '你好，世界！', lang: 'zh-CN', rate: 32000, channels: 1, ext: 'wav' },
]

/** NeMo: manifest.jsonl (split and corpus per row, one absolute path, bad rows) + audio/. @returns expected good rows */
export function makeNemo(dir: string): number {
  const lines: string[] = []
  clips.forEach((c, i) => {
    const file = `audio/clip-${i}.${c.ext}`
    speak(join(dir, file), c)
    const audio = i === 1 ? `/somewhere/else/${file}` : file // absolute path from another machine: found by its tail
    lines.push(JSON.stringify({ audio_filepath: audio, text: c.text, duration: 1.5, lang: c.lang, corpus: 'nemo', split: i % 3 === 2 ? 'validation' : 'train' }))
  })
  writeFileSync(join(dir, 'audio', 'broken.wav'), 'RIFF this is not audio at all')
  lines.push(JSON.stringify({ audio_filepath: 'audio/missing.wav', text: 'missing file', lang: 'en', corpus: 'nemo', split: 'train' }))
  lines.push(JSON.stringify({ audio_filepath: 'audio/broken.wav', text: 'broken audio', lang: 'en', corpus: 'nemo', split: 'train' }))
  lines.push(JSON.stringify({ audio_filepath: 'audio/clip-0.wav', text: '123 !!!', lang: 'en', corpus: 'nemo', split: 'train' }))
  lines.push(JSON.stringify({ audio_filepath: 'audio/clip-0.wav', text: 'unknown language', lang: 'xx', corpus: 'nemo', split: 'train' }))
  lines.push('{"audio_filepath": broken json')
  writeFileSync(join(dir, 'manifest.jsonl'), lines.join('\n') + '\n')
  return clips.length
}

/** Common Voice: clips/*.mp3 (48 kHz, as Common Voice ships), train/dev/test.tsv with locale. @returns good rows */
export function makeCommonVoice(dir: string): number {
  const header = 'client_id\tpath\tsentence_id\tsentence\tsentence_domain\tup_votes\tdown_votes\tage\tgender\taccents\tvariant\tlocale\tsegment'
  const tsv: Record<string, string[]> = { train: [header], dev: [header], test: [header] }
  const de = clips.filter((c) => c.voice === 'de' || c.voice === 'en').slice(0, 4)
  de.forEach((c, i) => {
    const name = `common_voice_x_${i}.mp3`
    speak(join(dir, 'clips', name), { ...c, rate: 48000, channels: 1, ext: 'mp3' })
    const split = ['train', 'train', 'dev', 'test'][i]
    tsv[split].push(['c1', name, `s${i}`, c.text, '', '2', '0', '', '', '', '', c.lang.slice(0, 2), ''].join('\t'))
  })
  tsv.train.push(['c2', 'common_voice_x_missing.mp3', 's9', 'Ein "Zitat" fehlt.', '', '2', '0', '', '', '', '', 'de', ''].join('\t'))
  for (const [split, rows] of Object.entries(tsv)) writeFileSync(join(dir, `${split}.tsv`), rows.join('\n') + '\n')
  writeFileSync(join(dir, 'validated.tsv'), header + '\n')
  return de.length
}

/** audiofolder: train/ and test/ with metadata.csv (quoted fields), language column. @returns good rows */
export function makeAudiofolder(dir: string): number {
  const pick = [clips[0], clips[3], clips[5], clips[6]]
  const meta: Record<string, string[]> = { train: ['file_name,transcription,language'], test: ['file_name,transcription,language'] }
  pick.forEach((c, i) => {
    const split = i < 3 ? 'train' : 'test'
    const file = `${i}.${c.ext}`
    speak(join(dir, split, file), c)
    meta[split].push(`${file},"${c.text.replaceAll('"', '""')}",${c.lang}`)
  })
  meta.train.push('nothing.wav,"gone, gone",en')
  for (const [split, rows] of Object.entries(meta)) writeFileSync(join(dir, split, 'metadata.csv'), rows.join('\n') + '\n')
  return pick.length
}

/** hf-parquet: data/train-00000-of-00001.parquet, data/test-00000-of-00001.parquet with audio{bytes,path}. @returns good rows */
export async function makeHfParquet(dir: string): Promise<number> {
  const tmp = join(dir, '..', 'hf-audio')
  const pick = [clips[1], clips[2], clips[4], clips[6]]
  const selects: Record<string, string[]> = { train: [], test: [] }
  const q = (v: string) => `'${v.replaceAll("'", "''")}'`
  const add = (split: string, file: string, text: string, lang: string) =>
    selects[split].push(`SELECT {'bytes': content, 'path': ${q(file.slice(file.lastIndexOf('/') + 1))}} AS audio, ${q(text)} AS text, ${q(lang)} AS language FROM read_blob(${q(file)})`)
  pick.forEach((c, i) => {
    const file = join(tmp, `${i}.${c.ext}`)
    speak(file, c)
    add(i < 3 ? 'train' : 'test', file, c.text, c.lang)
  })
  add('train', join(tmp, '0.wav'), '', 'en') // an empty transcript
  for (const split of ['train', 'test']) {
    await writeParquet(join(dir, 'data', `${split}-00000-of-00001.parquet`), selects[split].join(' UNION ALL '), 'ROW_GROUP_SIZE 2')
  }
  return pick.length
}
