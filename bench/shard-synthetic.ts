/**
 * The 100,000-file synthetic dataset of the shard benchmark (`<MIXSCOPE_BENCH_DATA or bench/.cache>/shard-100k/version=0`): 1,000 languages
 * × 2 corpora × 2 splits × 25 files, each one row group of 10 rows (1,000,000 rows): a transcript of 4–12 words
 * from a per-language vocabulary (some dev rows repeat a train row's, some are empty), `audio_size` 1–20 s,
 * `audio_bytes` a 32-byte placeholder (`binary`; the merge benchmark audits metadata, which never reads it), and
 * the stats TSV beside the root. Written once with hyparquet-writer (a marker records completion); deterministic.
 * Run: `npx tsx bench/shard-synthetic.ts`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { mulberry32 } from '../src/engine/node.ts'

/** Where the shard benchmark's data lives: `MIXSCOPE_BENCH_DATA` (a folder outside the repository, e.g. `/work/bench-data`), else `bench/.cache`. */
export const shardBenchData = process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache')
export const shard100kDir = join(shardBenchData, 'shard-100k')
const marker = join(shard100kDir, '.complete.json')

const languages = 1000
const corpora = ['c1', 'c2']
const splits = ['train', 'dev']
const filesPerPartition = 25
const rowsPerFile = 10

/** `aaa_Latn`, `aab_Latn`, … */
function languageCode(i: number): string {
  const a = 'abcdefghijklmnopqrstuvwxyz'
  return `${a[Math.floor(i / 676) % 26]}${a[Math.floor(i / 26) % 26]}${a[i % 26]}_Latn`
}

/** What `ensureShard100k` returns. */
export interface Shard100k { root: string; files: number; rows: number }

function build(): Shard100k {
  const staging = `${shard100kDir}.partial`
  rmSync(staging, { recursive: true, force: true })
  const root = join(staging, 'version=0')
  const rng = mulberry32(100_000)
  const placeholder = new Uint8Array(32)
  const tsv: string[] = ['corpus\tlanguage\thours']
  let files = 0
  for (const corpus of corpora) {
    for (let l = 0; l < languages; l++) {
      const language = languageCode(l)
      const vocabulary = Array.from({ length: 40 }, (_, w) => `${language.slice(0, 3)}${w}`)
      const train: string[] = []
      let samples = 0
      for (const split of splits) {
        const folder = join(root, `corpus=${corpus}`, `split=${split}`, `language=${language}`)
        mkdirSync(folder, { recursive: true })
        for (let f = 0; f < filesPerPartition; f++) {
          const text: string[] = []
          const sizes: bigint[] = []
          for (let r = 0; r < rowsPerFile; r++) {
            const x = rng()
            let t: string
            if (split === 'dev' && x < 0.05 && train.length > 0) t = train[Math.floor(rng() * train.length)]
            else if (x < 0.06) t = ''
            else t = Array.from({ length: 4 + Math.floor(rng() * 9) }, () => vocabulary[Math.floor(rng() * vocabulary.length)]).join(' ')
            if (split === 'train' && t) train.push(t)
            const n = Math.floor((1 + rng() * 19) * 16000)
            samples += n
            text.push(t)
            sizes.push(BigInt(n))
          }
          const buffer = parquetWriteBuffer({
            columnData: [
              { name: 'text', data: text, type: 'STRING' },
              { name: 'audio_bytes', data: Array.from({ length: rowsPerFile }, () => placeholder), type: 'BYTE_ARRAY' },
              { name: 'audio_size', data: sizes, type: 'INT64' },
            ],
            rowGroupSize: rowsPerFile,
          })
          writeFileSync(join(folder, `part-${f}.parquet`), new Uint8Array(buffer))
          files++
        }
      }
      tsv.push(`${corpus}\t${language}\t${samples / 16000 / 3600}`)
    }
  }
  writeFileSync(join(staging, 'language_distribution_0.tsv'), tsv.join('\n') + '\n')
  const result = { files, rows: files * rowsPerFile }
  writeFileSync(join(staging, '.complete.json'), JSON.stringify(result) + '\n')
  rmSync(shard100kDir, { recursive: true, force: true })
  renameSync(staging, shard100kDir)
  return { root: join(shard100kDir, 'version=0'), ...result }
}

/** Builds the dataset unless its marker says it is complete. */
export function ensureShard100k(): Shard100k {
  if (existsSync(marker)) return { root: join(shard100kDir, 'version=0'), ...(JSON.parse(readFileSync(marker, 'utf8')) as { files: number; rows: number }) }
  return build()
}

if (import.meta.filename === process.argv[1]) {
  const started = Date.now()
  const d = ensureShard100k()
  console.log(`shard-synthetic: ${d.files} files, ${d.rows} rows at ${d.root} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
