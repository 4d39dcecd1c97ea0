/**
 * The input folder as the readers see it: the file list (ignored `.`/`_` names included, as a user's corpus may
 * have them), whole-file text reads, and audio paths resolved against it.
 */
import type { DatasetSource, SourceFile } from '../../source/source.ts'

/** The input folder, listed once. */
export interface InputFiles {
  source: DatasetSource
  /** Every file, sorted by path (UTF-8 order of JS strings is close enough for reading order here: see `byPath`). */
  files: SourceFile[]
  /** path → size */
  sizes: Map<string, number>
  /** The input folder's own name (default corpus, Common Voice locale). */
  rootName: string
}

/** Lists the input folder. */
export async function listInput(source: DatasetSource, signal?: AbortSignal): Promise<InputFiles> {
  const files = (await source.list({ signal })).slice().sort((a, b) => byPath(a.path, b.path))
  return { source, files, sizes: new Map(files.map((f) => [f.path, f.size])), rootName: source.rootName }
}

/** Orders paths by their UTF-8 bytes (docs/conventions.md "Discovery"), which for strings is code point order. */
export function byPath(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i].codePointAt(0)! - y[i].codePointAt(0)!
  }
  return x.length - y.length
}

/** Reads a whole file as UTF-8 text (a BOM is dropped). */
export async function readText(input: InputFiles, path: string, signal?: AbortSignal): Promise<string> {
  const size = input.sizes.get(path) ?? 0
  const bytes = await input.source.read(path, 0, size, { signal })
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}

/** The folder part of a path (`''` at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

/**
 * Resolves an audio path of the input against the folder. Relative paths are taken from `baseDir` (`.` and `..`
 * resolved, `\` read as `/`); absolute paths (`/data/x.wav`, `C:\x.wav`, `file:///data/x.wav`) become the longest tail
 * of them that names a file of the folder, so a manifest written on another machine still finds its audio. Nothing
 * is percent-decoded (`%2e%2e` is a file name, as for NeMo and Lhotse).
 * @returns the path under the input root when it stays there (it may not exist: the plan reports it as missing);
 *   else what `outsideInput` recognizes: a relative path climbing above the root keeps its leading `../`, an absolute
 *   path with no tail in the folder and a URL come back as written (`/` for `\`)
 */
export function resolveAudioPath(input: InputFiles, baseDir: string, raw: string): string {
  const p = raw.trim().replace(/\\/g, '/')
  if (urlScheme.test(p) && !/^file:\/\//i.test(p)) return p
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p) || /^file:\/\//i.test(p)
  if (absolute) {
    const parts = p.replace(/^file:\/\//i, '').replace(/^[A-Za-z]:/, '').split('/').filter(Boolean)
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join('/')
      if (input.sizes.has(tail)) return tail
    }
    return p
  }
  const out: string[] = baseDir ? baseDir.split('/') : []
  let above = 0
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue
    if (part !== '..') out.push(part)
    else if (out.length > 0) out.pop()
    else above++
  }
  return '../'.repeat(above) + out.join('/')
}

/** `scheme://` (two letters at least, so `C:/` stays a Windows path). */
const urlScheme = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//

/**
 * Why a resolved audio path (`resolveAudioPath`) is not a path under the input folder, or null when it is one:
 * a URL, a relative path climbing above the folder, an absolute path none of whose tails is a file of it. `prepare`
 * reads audio only under the input folder (docs/hostile-input.md).
 */
export function outsideInput(path: string): string | null {
  if (urlScheme.test(path) && !/^file:\/\//i.test(path)) return 'is a URL; prepare reads audio only from the input folder'
  if (path === '..' || path.startsWith('../')) return 'leads outside the input folder; prepare reads audio only under it'
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path) || /^file:\/\//i.test(path)) {
    return 'is not in the input folder (an absolute path is looked up by its tails under the folder, and none is a file there)'
  }
  return null
}

/**
 * The split names `prepare` recognizes, and what each becomes (the reference writes `train`, `dev`, `test`;
 * FLEURS' `validation` is renamed `dev`, OA:hf_dataset_ingestion_example.py:240). Any other name is never guessed
 * into one of them: its rows are skipped until `--split-map NAME=train|dev|test` decides.
 */
export const SPLIT_NAMES: Readonly<Record<string, 'train' | 'dev' | 'test'>> = {
  train: 'train', training: 'train',
  dev: 'dev', validation: 'dev', valid: 'dev', val: 'dev', eval: 'dev', evaluation: 'dev', development: 'dev',
  test: 'test', testing: 'test',
}

/** A recognized split name (any case) as written (`validation` → `dev`), or null for any other name. */
export function recognizeSplit(name: string): 'train' | 'dev' | 'test' | null {
  return SPLIT_NAMES[name.trim().toLowerCase()] ?? null
}

const keyword = Object.keys(SPLIT_NAMES).join('|')
/** A split keyword between delimiters, as `datasets` matches them in paths (`[-._ 0-9]` or the segment's ends). */
const keywordInSegment = new RegExp(`(?:^|[-._ 0-9])(${keyword})(?:[-._ 0-9]|$)`)
/** `datasets`' sharded file names `<split>-00000-of-00004.<ext>`, whatever the split is called (MLS: `9_hours`). */
const shardedName = /^(.+?)-\d{5}-of-\d{5}(\.[^/]*)?$/

/**
 * The split a path names, read as Hugging Face `datasets` reads data files (its split keywords between delimiters
 * in folder or file names, and the `<split>-NNNNN-of-NNNNN` shard names), from the last segment back:
 * `data/train-00000-of-00004.parquet` → `train`, `validation/metadata.csv` → `dev`, `an4_val.json` → `dev`,
 * `training/x` → `train`, `data/9_hours-00000-of-00001.parquet` → `{ name: '9_hours' }` (a split, but not one
 * `prepare` recognizes), `audio/clips.jsonl` → null (no split named).
 */
export function splitFromPath(path: string): string | { name: string } | null {
  const segments = path.toLowerCase().split('/').filter(Boolean)
  for (let i = segments.length - 1; i >= 0; i--) {
    const sharded = shardedName.exec(segments[i])
    if (sharded) return recognizeSplit(sharded[1]) ?? { name: sharded[1] }
    const m = keywordInSegment.exec(segments[i])
    if (m) return SPLIT_NAMES[m[1]]
  }
  return null
}

/** The raw split name of `splitFromPath`'s answer (recognized or not), or null. */
export function splitName(found: string | { name: string } | null): string | null {
  return found === null ? null : typeof found === 'string' ? found : found.name
}

/**
 * The split of one data file of a Hugging Face layout (audiofolder metadata, parquet files), as `datasets` decides
 * it: the split its path names; when no file of the input names one, `train` (`datasets` puts a folder without
 * split names in `train`); otherwise the file's top folder (a split name `prepare` does not recognize, skipped until
 * mapped), or null at the root.
 * @param path the data file
 * @param all every data file of the input
 */
export function hfSplit(path: string, all: readonly string[]): string | null {
  const found = splitName(splitFromPath(path))
  if (found) return found
  if (!all.some((p) => splitFromPath(p) !== null)) return 'train'
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : null
}
