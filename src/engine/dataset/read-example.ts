/**
 * One example by id (`<file>:<row>`, docs/conventions.md "example id"): its row group, stored length, text and encoded audio,
 * read through the dataset's parquet reader (so neighbours come from the chunk cache).
 */
import { MixscopeError } from '../core/findings.ts'
import { exampleIdOf, type ExampleIdentity } from './example-id.ts'
import type { OpenDataset } from './open.ts'
import { audioBytesOf } from '../parquet/audio-bytes.ts'
import { toNumber, toText } from '../parquet/reader.ts'
import type { ReadOptions } from '../source/source.ts'

/** What one row holds: its identity and its cells. */
export interface ExampleRow extends ExampleIdentity {
  /** Stored `audio_size` (samples at 16 kHz), `null` when null or absent. */
  audioSize: number | null
  text: string | null
  /** The encoded audio file, `null` when the cell is null. */
  audio: Uint8Array | null
}

/**
 * Reads row `row` of `file`.
 * @param columns which of `audio_bytes`, `audio_size`, `text` to read (default all three)
 * @throws MixscopeError naming the file and row when the file is unknown, unreadable or too short
 */
export async function readExample(
  dataset: OpenDataset,
  file: string,
  row: number,
  options: ReadOptions & { columns?: ('audio_bytes' | 'audio_size' | 'text')[] } = {},
): Promise<ExampleRow> {
  const info = dataset.files.find((f) => f.path === file)
  if (!info) throw new MixscopeError(`example: ${file} is not a parquet file of ${dataset.root}`, 'not-found', 'io')
  if (!info.readable) throw new MixscopeError(`example: ${file} is not readable parquet`, 'unreadable-parquet')
  const group = info.rowGroups.find((g) => row >= g.firstRow && row < g.firstRow + g.rows)
  if (!group) throw new MixscopeError(`example: ${file} has ${info.rows} rows; row ${row} does not exist`, 'not-found', 'io')
  const wanted = (options.columns ?? ['audio_bytes', 'audio_size', 'text']).filter((c) => info.columns.some((col) => col.name === c))
  const data = await dataset.parquet.readColumns(info, group.index, wanted, options)
  const i = row - group.firstRow
  return {
    id: exampleIdOf(file, row),
    path: file,
    row,
    rowGroup: group.index,
    audioSize: data.audio_size ? toNumber(data.audio_size[i]) : null,
    text: data.text ? toText(data.text[i]) : null,
    audio: data.audio_bytes ? audioBytesOf(data.audio_bytes[i]) : null,
    keys: info.keys,
  }
}
