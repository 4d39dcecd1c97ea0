/**
 * NeMo manifests: JSON Lines (`.json`, `.jsonl`, either gzip-compressed as `.gz`) with `audio_filepath` (or
 * `audio_filename`), `text`, and optionally `duration` and `offset` (s: a segment of a longer file), `lang` /
 * `language`, `split`, `corpus`. The split of a row without one comes from the manifest's name
 * (`an4_train.json`, `train_manifest.json`).
 *
 * Audio paths follow NeMo's `get_full_path` (nemo/collections/common/parts/preprocessing/manifest.py): a relative path
 * is taken from the manifest's folder when that file exists, else as it is — relative to the working directory (NeMo's
 * own test manifests rely on it); absolute paths as they are. A path that lands outside the input folder is looked
 * up by its tail (a manifest written on another machine), else reported missing.
 */
import type { AudioRef, InputRow, RowRange } from './types.ts'
import { dirOf, resolveAudioPath, splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { decodeLine, isBlankLine, readLineBytes } from './lines.ts'

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)
const seconds = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null)

/** Where the manifests were found, to apply NeMo's path rules (both absolute, `/`-separated). */
export interface NemoPaths {
  /** The input folder. */
  root?: string
  /** The working directory relative paths fall back to (NeMo's `os.path.join` of a relative path). */
  workingDir?: string
}

/** `a/./b/../c` → `a/c` for an absolute path (`..` above the root stays at the root). */
function normalizeAbsolute(path: string): string {
  const out: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return '/' + out.join('/')
}

/** The input-relative path of an absolute one inside `root`, or null. */
function underRoot(abs: string, root: string): string | null {
  const r = root.replace(/\/+$/, '')
  return abs.startsWith(r + '/') ? abs.slice(r.length + 1) : null
}

/** Resolves one `audio_filepath` by NeMo's rules (see the module comment). */
export function resolveNemoPath(input: InputFiles, manifestDir: string, raw: string, paths: NemoPaths): string {
  const p = raw.trim().replace(/\\/g, '/')
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p)
  if (!absolute) {
    const beside = resolveAudioPath(input, manifestDir, p)
    if (input.sizes.has(beside)) return beside
    if (paths.workingDir && paths.root) {
      const inside = underRoot(normalizeAbsolute(`${paths.workingDir}/${p}`), normalizeAbsolute(paths.root))
      if (inside !== null) return inside
    }
    return beside
  }
  if (paths.root && p.startsWith('/')) {
    const inside = underRoot(normalizeAbsolute(p), normalizeAbsolute(paths.root))
    if (inside !== null) return inside
  }
  return resolveAudioPath(input, manifestDir, p)
}

/** How the manifests are read. */
export interface NemoReadOptions {
  signal?: AbortSignal
  paths?: NemoPaths
  /** Only these rows are parsed and yielded; lines before them are only counted, reading stops after them. */
  range?: RowRange
  /** Bytes read at a time (tests force small pieces). */
  pieceSize?: number
}

/**
 * The rows of the manifests `manifests`, in file then line order, one non-blank line each, read as a stream (a
 * manifest is never one string), numbered from 0 across the manifests.
 */
export async function* nemoRows(input: InputFiles, manifests: string[], options: NemoReadOptions = {}): AsyncGenerator<InputRow> {
  const { signal, paths = {}, range } = options
  let index = 0
  for (const path of manifests) {
    const base = dirOf(path)
    const fileSplit = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    for await (const { bytes, number } of readLineBytes(input, path, { signal, pieceSize: options.pieceSize })) {
      if (range && index >= range.end) return
      if (isBlankLine(bytes)) continue
      if (range && index < range.first) { index++; continue }
      yield nemoRow(input, decodeLine(bytes), `${path}:${number}`, index++, base, fileSplit, paths)
    }
  }
}

/**
 * How many rows the manifests hold (their non-blank lines), counted on the bytes: no line is parsed.
 */
export async function countNemoRows(input: InputFiles, manifests: string[], options: Pick<NemoReadOptions, 'signal' | 'pieceSize'> = {}): Promise<number> {
  let n = 0
  for (const path of manifests) {
    for await (const { bytes } of readLineBytes(input, path, options)) if (!isBlankLine(bytes)) n++
  }
  return n
}

/** One manifest line as an input row. */
function nemoRow(input: InputFiles, line: string, where: string, index: number, base: string, fileSplit: string | null, paths: NemoPaths): InputRow {
  const empty = { index, where, audio: null, text: null, language: null, split: fileSplit, corpus: null, duration: null }
  let entry: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(line)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object')
    entry = parsed as Record<string, unknown>
  } catch (error) {
    return { ...empty, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object (${(error as Error).message})` } }
  }
  const audioPath = str(entry.audio_filepath) ?? str(entry.audio_filename)
  const duration = seconds(entry.duration)
  const offset = seconds(entry.offset)
  let audio: AudioRef | null = null
  if (audioPath) {
    audio = { kind: 'file', path: resolveNemoPath(input, base, audioPath, paths) }
    // a segment of a longer file: NeMo reads `duration` seconds from `offset`
    if (offset) audio.segment = { offset, duration }
  }
  return {
    index,
    where,
    audio,
    text: str(entry.text),
    language: str(entry.lang) ?? str(entry.language),
    split: str(entry.split) ?? fileSplit,
    corpus: str(entry.corpus),
    duration,
    problem: audioPath ? null : { reason: 'bad-input-row', message: `${where}: no "audio_filepath"` },
  }
}
