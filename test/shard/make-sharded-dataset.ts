/**
 * A generated dataset for the sharding tests: 4 languages (one without a `_Script` suffix) × 2 corpora × 3 splits
 * (some partitions without dev), 2 files each of 5–13 rows in row groups of 3 (so shards cut through files and
 * languages), written by DuckDB. Its defects are spread over the whole dataset, so that a shard alone cannot judge
 * them: transcripts of held-out rows that occur (in another case and spacing) in train files far away, the same
 * audio (bytes, or samples in another encoding) in distant files, speaking rates whose median only the whole
 * language gives, foreign-script characters, empty and whitespace-only transcripts, null cells, garbage audio,
 * lengths outside the length filter, and a stats TSV with a wrong, a missing and an extra row.
 * Deterministic for a seed.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toWav16, toWavFloat32 } from '../../src/engine/audio/wav-encode.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { writeParquet } from '../helpers/duckdb.ts'

const sql = (s: string) => `'${s.replaceAll("'", "''")}'`
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

const languages = ['eng_Latn', 'rus_Cyrl', 'hin_Deva', 'xyz']
const words: Record<string, string[]> = {
  eng_Latn: ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'river', 'stone'],
  rus_Cyrl: ['привет', 'мир', 'добрый', 'день', 'река', 'камень', 'лес', 'поле', 'небо', 'дом'],
  hin_Deva: ['नमस्ते', 'दुनिया', 'पानी', 'पत्थर', 'नदी', 'जंगल', 'आसमान', 'घर', 'खेत', 'दिन'],
  xyz: ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'si', 'tu', 'vo', 'we'],
}

function tone(seconds: number, freq: number): Float32Array {
  const n = Math.round(seconds * 16000)
  const x = new Float32Array(n)
  for (let i = 0; i < n; i++) x[i] = 0.25 * Math.sin(2 * Math.PI * freq * i / 16000)
  return x
}

/** Writes the dataset under `dir` (`dir/version=0` is the root, the TSV beside it). @returns the root */
export async function makeShardedDataset(dir: string, seed = 7): Promise<string> {
  const rng = mulberry32(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)]
  const root = join(dir, 'version=0')
  const trainTexts: Record<string, string[]> = Object.fromEntries(languages.map((l) => [l, []]))
  const sharedAudio: Uint8Array[] = []
  const hours = new Map<string, number>()
  let freq = 200
  const folders: { corpus: string; split: string; language: string }[] = []
  for (const corpus of ['c1', 'c2']) {
    for (const split of ['train', 'dev', 'test']) {
      for (const language of languages) {
        if (split === 'dev' && corpus === 'c2' && language !== 'eng_Latn') continue // missing dev splits
        folders.push({ corpus, split, language })
      }
    }
  }
  // train first (so held-out rows can copy train transcripts), then the rest; written in path order later
  folders.sort((a, b) => Number(a.split !== 'train') - Number(b.split !== 'train'))
  const jobs: { path: string; select: string }[] = []
  for (const { corpus, split, language } of folders) {
    for (let part = 0; part < 2; part++) {
      const n = 5 + Math.floor(rng() * 9)
      const values: string[] = []
      for (let i = 0; i < n; i++) {
        const r = rng()
        let text: string | null
        if (split !== 'train' && r < 0.3 && trainTexts[language].length > 0) {
          // leakage: a train transcript in another case and spacing
          const t = pick(trainTexts[language])
          text = `  ${t.toUpperCase().replaceAll(' ', '   ')} `
        } else if (r < 0.33) text = ''
        else if (r < 0.35) text = '   '
        else if (r < 0.37) text = null
        else {
          const k = 2 + Math.floor(rng() * 5)
          text = Array.from({ length: k }, () => pick(words[language])).join(' ')
          if (rng() < 0.06) text += language === 'eng_Latn' ? ' мир' : ' fox' // foreign script
          if (split === 'train') trainTexts[language].push(text)
        }
        const chars = text === null ? 10 : Math.max(1, Array.from(text).length)
        // ~12 characters per second, some far off (speaking-rate outliers), some outside the length filter
        let size = Math.round((chars / 12) * 16000 * (0.8 + 0.4 * rng()))
        const odd = rng()
        if (odd < 0.04) size = Math.round(size / 6)
        else if (odd < 0.08) size *= 5
        else if (odd < 0.1) size = 0
        else if (odd < 0.11) size = 900_000
        const sizeSql = rng() < 0.02 ? 'NULL' : `${size}::BIGINT`
        let bytes: Uint8Array | null
        const a = rng()
        if (a < 0.08 && sharedAudio.length > 0) bytes = pick(sharedAudio) // the same bytes as a row far away
        else if (a < 0.12 && sharedAudio.length > 0) bytes = toWavFloat32([decode16(pick(sharedAudio))], 16000) // the same samples as float WAV
        else if (a < 0.14) bytes = new TextEncoder().encode('garbage, not audio')
        else if (a < 0.15) bytes = null
        else {
          bytes = toWav16([tone(0.03, freq += 37)], 16000)
          if (rng() < 0.15) sharedAudio.push(bytes)
        }
        values.push(`(${i}, ${text === null ? 'NULL' : sql(text)}, ${bytes === null ? 'NULL' : `from_hex('${hex(bytes)}')`}, ${sizeSql})`)
        if (sizeSql !== 'NULL') hours.set(`${corpus}\t${language}`, (hours.get(`${corpus}\t${language}`) ?? 0) + size / 16000 / 3600)
      }
      jobs.push({
        path: join(root, `corpus=${corpus}/split=${split}/language=${language}/part-${part}.parquet`),
        select: `SELECT text, audio_bytes, audio_size FROM (VALUES ${values.join(', ')}) AS t(i, text, audio_bytes, audio_size) ORDER BY i`,
      })
    }
  }
  for (const job of jobs) await writeParquet(job.path, job.select, 'ROW_GROUP_SIZE 3, COMPRESSION snappy')
  const tsv = [...hours].filter(([k]) => k !== 'c2\thin_Deva').map(([k, h]) => `${k}\t${k === 'c1\teng_Latn' ? h * 1.5 : h}`)
  tsv.push('c3\teng_Latn\t1.25')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'language_distribution_0.tsv'), ['corpus\tlanguage\thours', ...tsv].join('\n') + '\n')
  return root
}

/** The samples of a 16-bit mono WAV written by `toWav16` (44-byte header), as floats. */
function decode16(wav: Uint8Array): Float32Array {
  const view = new DataView(wav.buffer, wav.byteOffset + 44, wav.byteLength - 44)
  const x = new Float32Array(view.byteLength / 2)
  for (let i = 0; i < x.length; i++) x[i] = view.getInt16(2 * i, true) / 32768
  return x
}
