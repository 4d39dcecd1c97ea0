/**
 * The dataprep's plan at corpus scale: `mixscope prepare --dry-run` on a NeMo manifest of 10⁶ rows (and 10⁷ with
 * `MIXSCOPE_PREPARE_ROWS=1000000,10000000`), whole and as shards 0/4 and 3/4, each under GNU time: wall seconds, peak
 * RSS, µs per input row and the rows the run planned. Target: 10⁷ rows in ≤ 1 GB, a shard planning a quarter. The
 * manifests (40 languages, 2 corpora, train/dev/test, every row pointing at one of 4 short WAV files) are written
 * once into `<MIXSCOPE_BENCH_DATA or bench/.cache>/prepare-manifest-<rows>/`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs'
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

export async function runPreparePlanBench(): Promise<BenchRow[]> {
  const sizes = (process.env.MIXSCOPE_PREPARE_ROWS ?? '1000000').split(',').map(Number)
  const rows: BenchRow[] = []
  for (const size of sizes) {
    const manifest = await ensureManifest(size)
    for (const args of [[], ['--shard', '0/4'], ['--shard', '3/4']]) {
      const r = dryRun(manifest, args)
      rows.push({
        benchmark: `prepare --dry-run ${args.join(' ')}`.trim(), 'manifest rows': size, 'rows planned': r.rows, 'rows kept': r.planned,
        'wall s': r.seconds, 'µs/row planned': (r.seconds * 1e6) / r.rows, 'RSS peak MB': Math.round(r.rssMB), '≤ 1 GB': r.rssMB <= 1024 ? 'yes' : 'NO',
      })
    }
  }
  return rows
}
