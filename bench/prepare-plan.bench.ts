/**
 * The dataprep's plan at corpus scale: `mixscope prepare --dry-run` on a NeMo manifest and on a Common Voice release
 * of 10⁶ rows (`npm run bench -- prepare-scale`: 10⁶ and 10⁷; or `MIXSCOPE_PREPARE_ROWS=1000000,10000000`, and
 * `MIXSCOPE_PREPARE_LAYOUTS=nemo,commonvoice`), whole and as shards 0/4 and 3/4, each under GNU time: wall seconds,
 * peak RSS, µs per input row, that cost against the smallest size's (`vs first size`) and the rows the run planned.
 * Target: 10⁷ rows in ≤ 1 GB, a shard planning a quarter, the cost per row flat. The inputs (40 languages, train/dev/
 * test, every row pointing at one of 4 short WAV files; the manifest with 2 corpora, Common Voice's `train.tsv`,
 * `dev.tsv`, `test.tsv` with `--corpus cv`) are written once into
 * `<MIXSCOPE_BENCH_DATA or bench/.cache>/prepare-manifest-<rows>/` and `prepare-commonvoice-<rows>/`. At 10⁶ rows
 * (`MIXSCOPE_PREPARE_MERGE_ROWS` sets the sizes) it also runs a sharded dataprep in 4 shards with a stand-in
 * converter and `mixscope merge` of its parts (`shardAndMerge`).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchRow } from './table.ts'

const bin = join(import.meta.dirname, '..', 'bin', 'mixscope.js')
const langs = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'ru', 'uk', 'cs', 'ro', 'hu', 'fi', 'tr', 'el', 'bg', 'hr', 'sk', 'sl', 'lt', 'lv', 'et', 'da', 'ar', 'fa', 'hi', 'bn', 'ta', 'te', 'ur', 'vi', 'th', 'id', 'ms', 'sw', 'yo', 'ha', 'zu']
const words = 'the quick brown fox jumps over lazy dog speech data corpus language model training audio sample test hello world number one two three'.split(' ')

/** The manifest of `rows` rows (written once; `npm run bench -- rows` plans them too). @returns its path */
export async function ensureManifest(rows: number): Promise<string> {
  const dir = join(process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache'), `prepare-manifest-${rows}`)
  const manifest = join(dir, 'manifest.jsonl')
  if (existsSync(manifest)) return manifest
  mkdirSync(join(dir, 'audio'), { recursive: true })
  for (let i = 0; i < 4; i++) execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', join(dir, 'audio', `a${i}.wav`), 'synth', String(0.2 + i * 0.1), 'sine', String(300 + 100 * i)])
  let seed = 12345
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  const out = createWriteStream(`${manifest}.tmp`)
  let buf = ''
  for (let i = 0; i < rows; i++) {
    const lang = langs[Math.min(langs.length - 1, Math.floor(-Math.log(1 - rnd()) * 6))]
    const split = rnd() < 0.9 ? 'train' : rnd() < 0.5 ? 'dev' : 'test'
    let text = ''
    for (let j = 5 + Math.floor(rnd() * 12); j > 0; j--) text += (text ? ' ' : '') + words[Math.floor(rnd() * words.length)]
    if (i % 7 === 0) text += `, ${i}!`
    buf += JSON.stringify({ audio_filepath: `audio/a${i % 4}.wav`, text, duration: 5 + Math.round(rnd() * 1000) / 100, lang, split, corpus: i % 3 ? 'mls' : 'fleurs' }) + '\n'
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()))
      buf = ''
    }
  }
  await new Promise<void>((resolve, reject) => out.end(buf, () => resolve()).once('error', reject))
  renameSync(`${manifest}.tmp`, manifest)
  return manifest
}

/** A Common Voice release folder of `rows` rows over its three split TSVs (written once). @returns its path */
export async function ensureCommonVoice(rows: number): Promise<string> {
  const dir = join(process.env.MIXSCOPE_BENCH_DATA ?? join(import.meta.dirname, '.cache'), `prepare-commonvoice-${rows}`)
  if (existsSync(join(dir, 'test.tsv'))) return dir
  mkdirSync(join(dir, 'clips'), { recursive: true })
  for (let i = 0; i < 4; i++) execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', join(dir, 'clips', `c${i}.wav`), 'synth', String(0.2 + i * 0.1), 'sine', String(300 + 100 * i)])
  let seed = 54321
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  // train 90 %, dev 5 %, test 5 %, in that file order (test.tsv last: its presence says the folder is complete)
  for (const [split, share] of [['train', 0.9], ['dev', 0.05], ['test', 0.05]] as const) {
    const n = split === 'test' ? rows - Math.round(rows * 0.9) - Math.round(rows * 0.05) : Math.round(rows * share)
    const out = createWriteStream(join(dir, `${split}.tsv.tmp`))
    let buf = 'client_id\tpath\tsentence\tup_votes\tdown_votes\tage\tgender\taccents\tlocale\tsegment\n'
    for (let i = 0; i < n; i++) {
      const lang = langs[Math.min(langs.length - 1, Math.floor(-Math.log(1 - rnd()) * 6))]
      let text = ''
      for (let j = 5 + Math.floor(rnd() * 12); j > 0; j--) text += (text ? ' ' : '') + words[Math.floor(rnd() * words.length)]
      if (i % 7 === 0) text += `, "${i}"!`
      buf += `${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}\tc${i % 4}.wav\t${text}\t2\t0\t\t\t\t${lang}\t\n`
      if (buf.length > 1 << 20) {
        if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()))
        buf = ''
      }
    }
    await new Promise<void>((resolve, reject) => out.end(buf, () => resolve()).once('error', reject))
    renameSync(join(dir, `${split}.tsv.tmp`), join(dir, `${split}.tsv`))
  }
  return dir
}

/** `mixscope prepare <manifest> --dry-run --json [args]` under GNU time. */
function dryRun(manifest: string, args: string[]): { seconds: number; rssMB: number; rows: number; planned: number } {
  const r = spawnSync('/usr/bin/time', ['-v', 'node', bin, 'prepare', manifest, '--dry-run', '--json', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
  if (r.status !== 0) throw new Error(`bench prepare-plan: prepare exited ${r.status}: ${r.stderr.slice(-2000)}`)
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)!
  const plan = (JSON.parse(r.stdout) as { plan: { input_rows: number; partitions: { rows: number }[] } }).plan
  return {
    seconds: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), rssMB: Number(kb[1]) / 1024,
    rows: plan.input_rows, planned: plan.partitions.reduce((n, p) => n + p.rows, 0),
  }
}

/** `node [args]` under GNU time: wall seconds, peak RSS, stdout. */
function timedNode(args: string[]): { seconds: number; rssMB: number; stdout: string } {
  const r = spawnSync('/usr/bin/time', ['-v', 'node', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
  if (r.status !== 0) throw new Error(`bench prepare-plan: node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`)
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)!
  return { seconds: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), rssMB: Number(kb[1]) / 1024, stdout: r.stdout }
}

/**
 * A sharded dataprep of `input` in 4 shards with a stand-in converter (bench/prepare-shard-run.ts: every row's clips
 * entry and plan line, no decoding), then `mixscope merge` of the parts into a dataset folder: each step's wall
 * seconds and peak RSS. Target: the merge ≤ 2 GB whatever the row count.
 */
function shardAndMerge(name: string, input: string, size: number, args: string[]): BenchRow[] {
  const dir = mkdtempSync(join(process.env.MIXSCOPE_BENCH_DATA ?? tmpdir(), 'mixscope-prepare-merge-'))
  const loaders = join(import.meta.dirname, '..', 'src', 'cli', 'lib', 'loaders.mjs')
  const options = JSON.stringify(args[0] === '--corpus' ? { corpus: args[1] } : {})
  const rows: BenchRow[] = []
  try {
    let slowest = { seconds: 0, rssMB: 0 }
    for (let i = 0; i < 4; i++) {
      const r = timedNode(['--import', loaders, join(import.meta.dirname, 'prepare-shard-run.ts'), input, String(i), '4', join(dir, 'parts', `p-${i}.part`), options])
      if (r.rssMB > slowest.rssMB) slowest = r
    }
    rows.push({ benchmark: 'prepare --shard i/4 (stand-in clips), largest RSS', layout: name, 'input rows': size, 'wall s': slowest.seconds, 'RSS peak MB': Math.round(slowest.rssMB), '≤ 2 GB': slowest.rssMB <= 2048 ? 'yes' : 'NO' })
    const m = timedNode([bin, 'merge', join(dir, 'parts'), '--out', join(dir, 'out'), '--json'])
    const written = (JSON.parse(m.stdout) as { rows_written: number }).rows_written
    rows.push({
      benchmark: 'merge of 4 parts', layout: name, 'input rows': size, 'rows kept': written, 'wall s': m.seconds,
      'µs/row planned': (m.seconds * 1e6) / size, 'RSS peak MB': Math.round(m.rssMB), '≤ 2 GB': m.rssMB <= 2048 ? 'yes' : 'NO',
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

/** The inputs measured: each layout's input of `rows` rows and the options it needs. */
const layouts: Record<string, { input: (rows: number) => Promise<string>; args: string[] }> = {
  nemo: { input: ensureManifest, args: [] },
  commonvoice: { input: ensureCommonVoice, args: ['--corpus', 'cv'] },
}

/** @param defaultSizes the row counts measured when `MIXSCOPE_PREPARE_ROWS` is not set */
export async function runPreparePlanBench(defaultSizes = '1000000'): Promise<BenchRow[]> {
  const sizes = (process.env.MIXSCOPE_PREPARE_ROWS ?? defaultSizes).split(',').map(Number)
  const names = (process.env.MIXSCOPE_PREPARE_LAYOUTS ?? 'nemo,commonvoice').split(',')
  const mergeSizes = (process.env.MIXSCOPE_PREPARE_MERGE_ROWS ?? '1000000').split(',').map(Number)
  const rows: BenchRow[] = []
  for (const name of names) {
    const layout = layouts[name]
    if (!layout) throw new Error(`bench prepare-plan: unknown layout ${name} (${Object.keys(layouts).join(', ')})`)
    const first = new Map<string, number>()
    for (const size of sizes) {
      const input = await layout.input(size)
      for (const args of [[], ['--shard', '0/4'], ['--shard', '3/4']]) {
        const label = `prepare --dry-run ${args.join(' ')}`.trim()
        const r = dryRun(input, [...layout.args, ...args])
        const perRow = (r.seconds * 1e6) / r.rows
        if (!first.has(label)) first.set(label, perRow)
        rows.push({
          benchmark: label, layout: name, 'input rows': size, 'rows planned': r.rows, 'rows kept': r.planned,
          'wall s': r.seconds, 'µs/row planned': perRow, 'vs first size': perRow / first.get(label)!, 'RSS peak MB': Math.round(r.rssMB), '≤ 1 GB': r.rssMB <= 1024 ? 'yes' : 'NO',
        })
      }
      if (mergeSizes.includes(size)) rows.push(...shardAndMerge(name, input, size, layout.args))
    }
  }
  return rows
}
