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
import type { AudioRef, InputRow } from './types.ts'
import { dirOf, resolveAudioPath, splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { readLines } from './lines.ts'

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

/** Rows of the manifests `manifests`, in file then line order (`index` is filled in by the caller). */
export async function readNemo(input: InputFiles, manifests: string[], signal?: AbortSignal, paths: NemoPaths = {}): Promise<Omit<InputRow, 'index'>[]> {
  const rows: Omit<InputRow, 'index'>[] = []
  for (const path of manifests) {
    const base = dirOf(path)
    const fileSplit = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    for await (const { line, number } of readLines(input, path, signal)) {
      if (line.trim() === '') continue
      const where = `${path}:${number}`
      const empty = { where, audio: null, text: null, language: null, split: fileSplit, corpus: null, duration: null }
      let entry: Record<string, unknown>
      try {
        const parsed: unknown = JSON.parse(line)
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object')
        entry = parsed as Record<string, unknown>
      } catch (error) {
        rows.push({ ...empty, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object (${(error as Error).message})` } })
        continue
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
      rows.push({
        where,
        audio,
        text: str(entry.text),
        language: str(entry.lang) ?? str(entry.language),
        split: str(entry.split) ?? fileSplit,
        corpus: str(entry.corpus),
        duration,
        problem: audioPath ? null : { reason: 'bad-input-row', message: `${where}: no "audio_filepath"` },
      })
    }
  }
  return rows
}
