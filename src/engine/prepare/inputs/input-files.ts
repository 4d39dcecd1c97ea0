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
 * resolved, `\` read as `/`); absolute paths (`/data/x.wav`, `C:\x.wav`) become the longest tail of them that names
 * a file of the folder, so a manifest written on another machine still finds its audio.
 * @returns the path under the input root (which may not exist: the plan reports it as missing)
 */
export function resolveAudioPath(input: InputFiles, baseDir: string, raw: string): string {
  const p = raw.trim().replace(/\\/g, '/')
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p) || /^file:\/\//.test(p)
  if (absolute) {
    const parts = p.replace(/^file:\/\//, '').replace(/^[A-Za-z]:/, '').split('/').filter(Boolean)
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join('/')
      if (input.sizes.has(tail)) return tail
    }
    return parts.join('/')
  }
  const out: string[] = baseDir ? baseDir.split('/') : []
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return out.join('/')
}

/** A split name as the reference writes it: `validation`/`valid`/`val` → `dev` (FLEURS' renaming), lower case. */
export function normalizeSplit(name: string): string {
  const s = name.trim().toLowerCase()
  return s === 'validation' || s === 'valid' || s === 'val' ? 'dev' : s
}

/** A split named by a path (`train/…`, `train-00000-of-00002.parquet`, `dev_manifest.json`), or null. */
export function splitFromPath(path: string): string | null {
  const segments = path.toLowerCase().split('/')
  for (let i = segments.length - 1; i >= 0; i--) {
    const m = /(?:^|[^a-z])(train|dev|test|validation|valid|val)(?:[^a-z]|$)/.exec(segments[i])
    if (m) return normalizeSplit(m[1])
  }
  return null
}
