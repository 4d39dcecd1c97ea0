/**
 * Reading an input folder: which layout it is (`--input-format`, else guessed from its files), and its rows.
 */
import type { DatasetSource } from '../../source/source.ts'
import type { PlanBudget } from '../plan-store.ts'
import { INPUT_FORMATS, type InputFormat, type InputScan, type RowRange } from './types.ts'
import { RowLog } from './row-log.ts'
import { audiofolderMetadata, readAudiofolder } from './audiofolder.ts'
import { COMMON_VOICE_SPLITS, readCommonVoice } from './commonvoice.ts'
import { hfParquetFiles, readHfParquet } from './hf-parquet.ts'
import { listInput, type InputFiles } from './input-files.ts'
import { countNemoRows, nemoRows, type NemoPaths } from './nemo.ts'
import { lhotseKind, lhotseManifests, readLhotse } from './lhotse.ts'
import { nemoTarredManifests, readNemoTarred } from './nemo-tarred.ts'
import { readWebdataset, webdatasetShards } from './webdataset.ts'

/** What to read. */
export interface ScanOptions {
  inputFormat?: InputFormat
  /** A file of the folder the user named (`prepare manifest.jsonl`): only it is read (NeMo, hf-parquet). */
  entry?: string
  textColumn?: string
  signal?: AbortSignal
  /** The input folder and working directory as absolute paths, for NeMo's path rules (the CLI knows them). */
  paths?: NemoPaths
  /** Bytes of a manifest read at a time (tests force small pieces). */
  pieceSize?: number
  /** Memory the scanned rows of layouts other than NeMo's may hold, and where the rest goes (row-log.ts). */
  budget?: PlanBudget
}

/** A NeMo manifest's name: `.json` or `.jsonl`, gzip-compressed or not. */
const NEMO_MANIFEST = /\.(jsonl|json)(\.gz)?$/i

/** NeMo manifests at the top of the folder. */
function nemoManifests(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => !p.includes('/') && NEMO_MANIFEST.test(p))
}

/**
 * The layout of an input folder, from its files: Common Voice (`clips/` + a split TSV), audiofolder
 * (`metadata.csv`/`.jsonl`), hf-parquet (`.parquet` files), NeMo (`.json`/`.jsonl` manifests at the top).
 * @throws Error listing what was looked for when nothing fits
 */
export function detectFormat(input: InputFiles, entry?: string): InputFormat {
  if (entry) {
    if (/\.parquet$/i.test(entry)) return 'hf-parquet'
    if (lhotseKind(entry)) return 'lhotse'
    if (/(^|\/)tarred_audio_manifest[^/]*\.jsonl?(\.gz)?$/i.test(entry)) return 'nemo-tarred'
    if (/\.tar$/i.test(entry)) return 'webdataset'
    if (NEMO_MANIFEST.test(entry)) return 'nemo'
  }
  const paths = input.files.map((f) => f.path)
  if (paths.some((p) => p.startsWith('clips/')) && COMMON_VOICE_SPLITS.some((s) => input.sizes.has(`${s}.tsv`))) return 'commonvoice'
  if (nemoTarredManifests(input).length) return 'nemo-tarred'
  if (audiofolderMetadata(input).length) return 'audiofolder'
  if (hfParquetFiles(input).length) return 'hf-parquet'
  if (lhotseManifests(input).some((p) => lhotseKind(p) !== 'recordings')) return 'lhotse'
  if (nemoManifests(input).length) return 'nemo'
  if (webdatasetShards(input).length) return 'webdataset'
  throw new Error('prepare: cannot tell the input layout (looked for clips/ + train.tsv/dev.tsv/test.tsv, tarred_audio_manifest.json, metadata.csv/.jsonl/.parquet, *.parquet, Lhotse *cuts*/*supervisions* manifests, *.json/*.jsonl manifests, *.tar shards); pass --input-format ' + INPUT_FORMATS.join('|'))
}

/**
 * Lists the input and reads it: a NeMo manifest as its rows are iterated (`scan.rows()`), every other layout at
 * once, into a `RowLog` (one line of bytes per row, spilled past `options.budget`; `scan.close()` removes the spill).
 * Rows are numbered in reading order.
 */
export async function scanInput(source: DatasetSource, options: ScanOptions = {}): Promise<{ input: InputFiles; scan: InputScan }> {
  const input = await listInput(source, options.signal)
  const format = options.inputFormat ?? detectFormat(input, options.entry)
  const notes: string[] = []
  if (format === 'nemo') {
    const manifests = options.entry ? [options.entry] : nemoManifests(input)
    if (!manifests.length) throw new Error('nemo: no .json/.jsonl (or .gz) manifest at the top of the input folder')
    const read = { signal: options.signal, paths: options.paths, pieceSize: options.pieceSize }
    return {
      input,
      scan: {
        format, notes,
        rows: (range?: RowRange) => nemoRows(input, manifests, { ...read, range }),
        count: () => countNemoRows(input, manifests, read),
        close: () => Promise.resolve(),
      },
    }
  }
  const log = new RowLog(options.budget)
  try {
    await readRows(input, format, log, notes, options)
  } catch (error) {
    await log.close()
    throw error
  }
  return { input, scan: { format, notes, ...log.scanRows() } }
}

/** Reads an input of a layout other than NeMo's into `log`. */
async function readRows(input: InputFiles, format: Exclude<InputFormat, 'nemo'>, log: RowLog, notes: string[], options: ScanOptions): Promise<void> {
  switch (format) {
    case 'commonvoice': {
      const r = await readCommonVoice(input, log, options.signal)
      if (!r.rows && !COMMON_VOICE_SPLITS.some((s) => input.sizes.has(`${s}.tsv`))) throw new Error('commonvoice: no train.tsv, dev.tsv or test.tsv in the input folder')
      notes.push(...r.notes)
      break
    }
    case 'nemo-tarred': {
      const manifests = options.entry ? [options.entry] : nemoTarredManifests(input)
      if (!manifests.length) throw new Error('nemo-tarred: no tarred_audio_manifest.json in the input folder')
      await readNemoTarred(input, manifests, log, options.signal)
      break
    }
    case 'webdataset': {
      const shards = options.entry ? [options.entry] : webdatasetShards(input)
      if (!shards.length) throw new Error('webdataset: no .tar shard in the input folder')
      const r = await readWebdataset(input, shards, log, options.signal)
      notes.push(...r.notes)
      break
    }
    case 'lhotse': {
      const manifests = options.entry ? [options.entry, ...lhotseManifests(input).filter((p) => p !== options.entry && lhotseKind(p) === 'recordings')] : lhotseManifests(input)
      if (!manifests.some((p) => lhotseKind(p) !== 'recordings')) throw new Error('lhotse: no cuts or supervisions manifest (*cuts*.jsonl[.gz], *supervisions*.jsonl[.gz]) in the input folder')
      const r = await readLhotse(input, manifests, log, options.signal, options.paths, options.budget)
      notes.push(...r.notes)
      break
    }
    case 'audiofolder':
      if (!audiofolderMetadata(input).length) throw new Error('audiofolder: no metadata.csv or metadata.jsonl in the input folder')
      await readAudiofolder(input, log, options.textColumn, options.signal)
      break
    case 'hf-parquet': {
      if (!hfParquetFiles(input).length) throw new Error('hf-parquet: no .parquet file in the input folder')
      const only = options.entry
      const sub = only ? { ...input, files: input.files.filter((f) => f.path === only) } : input
      await readHfParquet(sub, log, options.textColumn, options.signal)
      break
    }
  }
}
