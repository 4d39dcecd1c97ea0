/**
 * A generated Lhotse recordings + supervisions pair for the join's memory (bench/lhotse-join-dry-run.ts): `n`
 * recordings (LibriSpeech-like ids and `file` sources, in a shuffled order) and `n` supervisions naming them at random
 * (so about a third of the recordings are named by none and some by several), as `.jsonl.gz`; the audio files are not
 * written (their rows are planned as missing audio all the same). `supervisions` (default `n`) sets their number.
 * Usage: tsx bench/make-lhotse.ts <folder> <n> [supervisions]
 */
import { createWriteStream, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createGzip } from 'node:zlib'
import { once } from 'node:events'
import { mulberry32 } from '../src/engine/node.ts'

const [dir, count, supCount] = process.argv.slice(2)
if (!dir || !count) throw new Error('bench make-lhotse: usage: make-lhotse.ts <folder> <n>')
const n = Number(count)
mkdirSync(dir, { recursive: true })
const id = (i: number) => `${1000 + (i % 2311)}-${130000 + (i % 9973)}-${String(i).padStart(8, '0')}`

async function write(name: string, line: (i: number) => string, lines = n): Promise<void> {
  const gz = createGzip()
  const done = gz.pipe(createWriteStream(join(dir, name)))
  let text = ''
  for (let i = 0; i < lines; i++) {
    text += line(i) + '\n'
    if (text.length > 1 << 20) { if (!gz.write(text)) await once(gz, 'drain'); text = '' }
  }
  gz.end(text)
  await once(done, 'finish')
}

// the recordings in a shuffled order (a random permutation), the supervisions naming random ones
const order = Array.from({ length: n }, (_, i) => i)
const rand = mulberry32(5)
for (let i = n - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [order[i], order[j]] = [order[j], order[i]] }
await write('bench_recordings_train.jsonl.gz', (i) => JSON.stringify({
  id: id(order[i]), sources: [{ type: 'file', channels: [0], source: `LibriSpeech/train-clean-100/${1000 + (order[i] % 2311)}/${id(order[i])}.flac` }],
  sampling_rate: 16000, num_samples: 16000 * (4 + (order[i] % 11)), duration: 4 + (order[i] % 11), channel_ids: [0],
}))
await write('bench_supervisions_train.jsonl.gz', (i) => {
  const r = Math.floor(rand() * n)
  return JSON.stringify({ id: `${id(r)}-${i}`, recording_id: id(r), start: 0, duration: 4 + (r % 11), channel: 0, text: `SUPERVISION NUMBER ${i} OF THE BENCH`, language: 'English', speaker: String(1000 + (r % 2311)) })
}, supCount ? Number(supCount) : n)
