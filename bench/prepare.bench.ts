/**
 * Dataprep benchmark: hours of audio converted per minute by `mixscope prepare` (NeMo input: 44.1 kHz
 * stereo WAV → 16 kHz mono 16-bit FLAC in parquet), in Node on one thread and on every core, and in Chromium (the
 * Prepare view on its helper Workers, into OPFS), next to the same audio conversion with the command-line tools in
 * the same run: `sox in.wav -t wav -r 16000 -c 1 -b 16 - | flac -5 -s -o out.flac -`, one file at a time.
 * Target: ≥ 0.5× the tools' speed per core. The corpus (espeak-ng speech, copied to `CLIPS` files) is generated
 * once into bench/.cache/prepare.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chromiumArgs } from '../test/helpers/chromium-args.ts'
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { main } from '../src/cli/main.ts'
import { startStaticServer } from '../test/helpers/static-server.ts'
import { benchCacheDir } from './browser/speech-corpus.ts'
import type { BenchRow } from './table.ts'

const CLIPS = 160
const dir = join(benchCacheDir, 'prepare')
const input = join(dir, 'nemo')

const sentences = [
  'The quick brown fox jumps over the lazy dog while the band plays on.',
  'Speech recognition systems learn from many hours of transcribed audio.',
  'Please call Stella and ask her to bring these things with her from the store.',
  'A large language model can be fine tuned on data from sixteen hundred languages.',
  'The weather today is cloudy with a chance of rain in the late afternoon.',
  'She sells sea shells by the sea shore, and the shells she sells are surely sea shells.',
  'Numbers like one hundred and twenty three are read out as words by the speaker.',
  'Every partition of the dataset is a pair of a corpus and a language.',
]

/** The corpus: `CLIPS` 44.1 kHz stereo 16-bit WAV files and a NeMo manifest. @returns seconds of audio */
function ensureCorpus(): number {
  const done = join(dir, 'ready.json')
  if (existsSync(done)) return (JSON.parse(execFileSync('cat', [done], { encoding: 'utf8' })) as { seconds: number }).seconds
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(input, 'audio'), { recursive: true })
  const uniques = sentences.map((s, i) => {
    const raw = join(dir, `raw-${i}.wav`)
    execFileSync('espeak-ng', ['-v', 'en', '-s', '150', '-w', raw, `${s} ${s}`])
    const wav = join(dir, `u-${i}.wav`)
    execFileSync('sox', [raw, '-r', '44100', '-c', '2', '-b', '16', wav])
    return wav
  })
  const lines: string[] = []
  let seconds = 0
  for (let i = 0; i < CLIPS; i++) {
    const file = `audio/clip-${i}.wav`
    copyFileSync(uniques[i % uniques.length], join(input, file))
    seconds += (statSync(join(input, file)).size - 44) / (44100 * 4)
    lines.push(JSON.stringify({ audio_filepath: file, text: `${sentences[i % sentences.length]} (${i})`, lang: 'en', split: i % 10 === 0 ? 'dev' : 'train' }))
  }
  writeFileSync(join(input, 'manifest.jsonl'), lines.join('\n') + '\n')
  writeFileSync(done, JSON.stringify({ seconds }))
  return seconds
}

/** Wall seconds of `sox … | flac …` over every file, one at a time. */
function timeTools(): number {
  const out = join(dir, 'tools-out')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out)
  const files = readdirSync(join(input, 'audio')).sort()
  const t0 = performance.now()
  for (const f of files) {
    const r = spawnSync('sh', ['-c', `sox "$1" -t wav -r 16000 -c 1 -b 16 - | flac -5 -s -f -o "$2" -`, 'sh', join(input, 'audio', f), join(out, f.replace(/\.wav$/, '.flac'))])
    if (r.status !== 0) throw new Error(`bench: sox | flac failed on ${f}: ${r.stderr}`)
  }
  return (performance.now() - t0) / 1000
}

/** Wall seconds of `mixscope prepare` with `jobs` worker threads (0: in the calling thread). */
async function timeCli(jobs: number): Promise<number> {
  const out = join(dir, `cli-out-${jobs}`)
  rmSync(out, { recursive: true, force: true })
  const t0 = performance.now()
  const code = await main(['prepare', input, '--out', out, '--jobs', String(jobs), '--json'], { stdout: () => {}, stderr: (t) => process.stderr.write(t) })
  if (code !== 0) throw new Error(`bench: mixscope prepare exited ${code}`)
  return (performance.now() - t0) / 1000
}

/** Wall seconds of the Prepare view converting the corpus into OPFS, from the click to the report. */
async function timeBrowser(): Promise<{ seconds: number; helpers: number }> {
  const web = join(benchCacheDir, 'web-prepare')
  const { build } = await import('vite')
  await build({ root: join(import.meta.dirname, '..'), configFile: join(import.meta.dirname, '..', 'vite.config.ts'), base: '/web-prepare/', logLevel: 'error', build: { outDir: web, emptyOutDir: true, reportCompressedSize: false } })
  const server = await startStaticServer({ root: benchCacheDir })
  const browser = await chromium.launch({ executablePath: process.env.MIXSCOPE_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs() })
  try {
    const page = await browser.newPage()
    await page.goto(`${server.url}web-prepare/index.html?view=prepare`)
    await page.getByLabel('Input folder (file dialog)').setInputFiles(input)
    await page.getByRole('table', { name: 'Partitions to write' }).waitFor({ timeout: 120_000 })
    const helpers = await page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency, 16)))
    const t0 = performance.now()
    await page.getByRole('button', { name: 'Convert into browser storage' }).click()
    await page.getByText(/Wrote \d+ rows/).waitFor({ timeout: 600_000 })
    return { seconds: (performance.now() - t0) / 1000, helpers }
  } finally {
    await browser.close()
    await server.close()
  }
}

export async function runPrepareBench(): Promise<BenchRow[]> {
  const seconds = ensureCorpus()
  const hours = seconds / 3600
  const cores = availableParallelism()
  const perMinute = (wall: number) => hours / (wall / 60)
  const tools = timeTools()
  const toolsRate = perMinute(tools)
  const single = await timeCli(0)
  const all = await timeCli(cores)
  const rows: BenchRow[] = [
    { benchmark: 'sox | flac -5 (one file at a time)', 'audio h': hours, 'wall s': tools, 'h/min': toolsRate, cores: 1, 'per core vs tools': 1 },
    { benchmark: 'mixscope prepare --jobs 0 (Node, one thread)', 'audio h': hours, 'wall s': single, 'h/min': perMinute(single), cores: 1, 'per core vs tools': perMinute(single) / toolsRate },
    // worker threads convert; the main thread reads input and writes parquet: per core of the machine's cores used
    { benchmark: `mixscope prepare (Node, ${cores} worker threads + main)`, 'audio h': hours, 'wall s': all, 'h/min': perMinute(all), cores, 'per core vs tools': perMinute(all) / cores / toolsRate },
  ]
  try {
    const b = await timeBrowser()
    // threads: the helpers plus the engine worker (reading input, writing parquet)
    const used = Math.min(b.helpers, cores)
    rows.push({ benchmark: `Prepare view (Chromium, ${b.helpers} helper Workers + engine worker, into OPFS)`, 'audio h': hours, 'wall s': b.seconds, 'h/min': perMinute(b.seconds), cores: used, 'per core vs tools': perMinute(b.seconds) / used / toolsRate })
  } catch (error) {
    rows.push({ benchmark: `Prepare view (Chromium): not measured (${(error as Error).message.split('\n')[0]})` })
  }
  return rows
}
