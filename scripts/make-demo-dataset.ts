/**
 * Builds public/demo: the app's default dataset, real (synthesized) speech in 8 languages, laid out exactly as the
 * Omnilingual dataprep writes it (`version=0/corpus=…/split=…/language=…/part-N.parquet`, `text` /
 * `audio_bytes: list<int8>` / `audio_size: int64`), plus `_manifest.json`, `language_distribution_0.tsv`,
 * `defects.json` and `README.md`.
 *
 * Run: `npx tsx scripts/make-demo-dataset.ts` (needs espeak-ng, sox, flac, vorbis-tools, opus-tools).
 * Deterministic: every choice comes from a fixed seed; encoders get fixed Ogg serials; DuckDB runs on one thread.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildManifest, formatManifest, manifestName } from '../src/engine/source/manifest.ts'
import type { SourceFile } from '../src/engine/source/source.ts'
import { createFsSource } from '../src/engine/node/fs-source.ts'
import { synthesizeClip, truncateFlac } from './demo-audio.ts'
import type { DemoCodec, EncodedClip } from './demo-audio.ts'
import { demoCorpora, demoDefects, demoSeed, demoSplits } from './demo-plan.ts'
import type { DemoCorpus, PlannedDefect } from './demo-plan.ts'
import { demoSentences, demoVoices } from './demo-sentences.ts'
import type { DemoLanguage } from './demo-sentences.ts'
import { openDuckDb, writeParquet } from './demo-parquet.ts'
import { writeDemoReadme } from './demo-readme.ts'
import type { DemoSummaryRow, RecordedDefect } from './demo-readme.ts'
import { mulberry32 as makeRng } from '../src/engine/random/mulberry32.ts'

const demoDir = join(import.meta.dirname, '..', 'public', 'demo')
const rootDir = join(demoDir, 'version=0')


interface DemoRow {
  text: string
  clip: EncodedClip
  codec: DemoCodec
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]
}

function defectAt(corpus: string, split: string, language: string, index: number): PlannedDefect | undefined {
  return demoDefects.find((d) => d.corpus === corpus && d.split === split && d.language === language && d.index === index)
}

function makeRow(corpus: DemoCorpus, split: string, language: DemoLanguage, index: number, rng: () => number,
  serial: number, workDir: string): DemoRow {
  const defect = defectAt(corpus.name, split, language, index)
  const draw = rng()
  const codec: DemoCodec = draw < corpus.opusShare ? 'opus' : draw < corpus.opusShare + corpus.vorbisShare ? 'vorbis' : 'flac'
  let text = pick(rng, demoSentences[language])
  const voice = pick(rng, demoVoices[language])
  let speed = Math.round(corpus.speed[0] + rng() * (corpus.speed[1] - corpus.speed[0]))
  const pitch = 30 + Math.floor(rng() * 40)
  const amplitude = 40 + Math.floor(rng() * 50)
  let tempo = 1
  if (defect?.kind === 'fast-speech') {
    // the longest sentence, said as fast as espeak goes, then compressed in time
    text = [...demoSentences[language]].sort((a, b) => b.length - a.length)[0]
    speed = 400
    tempo = 2.5
  }
  const clip = synthesizeClip({ text, voice, speed, pitch, amplitude, tempo, codec: defect?.kind === 'undecodable-audio' ? 'flac' : codec, serial }, workDir)
  if (defect?.kind === 'fast-speech' && clip.samples / text.length >= 160) {
    throw new Error(`make-demo: fast-speech row has ${clip.samples / text.length} samples per character, expected < 160`)
  }
  if (defect?.kind === 'empty-text') text = ''
  if (defect?.kind === 'undecodable-audio') return { text, clip: { bytes: truncateFlac(clip.bytes), samples: clip.samples }, codec: 'flac' }
  return { text, clip, codec }
}

/** Every file under `dir`, as the engine's fs source lists it (paths relative, `/`-separated). */
function listFiles(dir: string): Promise<SourceFile[]> {
  return createFsSource(dir).then((source) => source.list())
}

async function main(): Promise<void> {
  const started = Date.now()
  rmSync(demoDir, { recursive: true, force: true })
  const workDir = mkdtempSync(join(tmpdir(), 'mixscope-demo-'))
  const conn = await openDuckDb(1)
  const rng = makeRng(demoSeed)
  const samplesBy = new Map<string, number>()
  const codecCounts: Record<DemoCodec, number> = { flac: 0, vorbis: 0, opus: 0 }
  const recorded: RecordedDefect[] = []
  let serial = 1000
  const partitions: { corpus: DemoCorpus; split: string; language: DemoLanguage; rows: DemoRow[] }[] = []
  for (const corpus of demoCorpora) {
    for (const [language, counts] of Object.entries(corpus.rows) as [DemoLanguage, number[]][]) {
      demoSplits.forEach((split, s) => {
        const rows: DemoRow[] = []
        for (let i = 0; i < counts[s]; i++) rows.push(makeRow(corpus, split, language, i, rng, serial++, workDir))
        partitions.push({ corpus, split, language, rows })
      })
    }
  }
  for (const { corpus, split, language, rows } of partitions) {
    const folder = `corpus=${corpus.name}/split=${split}/language=${language}`
    for (let part = 0; part * corpus.rowsPerFile < rows.length; part++) {
      const fileRows = rows.slice(part * corpus.rowsPerFile, (part + 1) * corpus.rowsPerFile)
      const file = `${folder}/part-${part}.parquet`
      await writeParquet(conn, join(rootDir, file), [
        { name: 'text', type: 'VARCHAR', values: fileRows.map((r) => r.text) },
        { name: 'audio_bytes', type: 'TINYINT[]', values: fileRows.map((r) => r.clip.bytes) },
        { name: 'audio_size', type: 'BIGINT', values: fileRows.map((r) => r.clip.samples) },
      ], { rowGroupSize: corpus.rowGroupSize, compression: 'zstd' })
      fileRows.forEach((r, i) => {
        codecCounts[r.codec]++
        const defect = defectAt(corpus.name, split, language, part * corpus.rowsPerFile + i)
        if (defect) recorded.push({ id: `${file}:${i}`, kind: defect.kind, note: defect.note })
      })
    }
    const key = `${corpus.name}\t${language}`
    samplesBy.set(key, (samplesBy.get(key) ?? 0) + rows.reduce((sum, r) => sum + r.clip.samples, 0))
  }
  rmSync(workDir, { recursive: true, force: true })

  const summary: DemoSummaryRow[] = [...samplesBy.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, samples]) => {
    const [corpus, language] = key.split('\t')
    return { corpus, language, samples, hours: samples / 16000 / 3600 }
  })
  writeFileSync(join(demoDir, 'language_distribution_0.tsv'),
    'corpus\tlanguage\thours\n' + summary.map((r) => `${r.corpus}\t${r.language}\t${r.hours}`).join('\n') + '\n')
  writeFileSync(join(demoDir, 'defects.json'), JSON.stringify(recorded, null, 2) + '\n')
  writeFileSync(join(rootDir, manifestName), formatManifest(buildManifest(await listFiles(rootDir))))
  writeDemoReadme(join(demoDir, 'README.md'), { summary, defects: recorded, codecCounts, partitions: partitions.length })
  const files = await listFiles(demoDir)
  const bytes = files.reduce((sum, f) => sum + f.size, 0)
  console.log(`make-demo: ${files.length} files, ${(bytes / 1e6).toFixed(2)} MB, ${recorded.length} defects, ` +
    `codecs ${JSON.stringify(codecCounts)}, ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

await main()
