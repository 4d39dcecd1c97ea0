/**
 * The HTTP dataset manifest `<root>_manifest.json` (docs/conventions.md "HTTP datasets"): the file list a static host cannot give.
 */
import { compareUtf8, MixscopeError } from '../core/findings.ts'
import type { SourceFile } from './source.ts'

/** Manifest file name, inside the dataset root (the leading `_` keeps the reference from reading it). */
export const manifestName = '_manifest.json'

/** The manifest document. */
export interface Manifest {
  format: 'mixscope-manifest'
  version: 1
  /** Every non-ignored file under the root (parquet and TSV), not the manifest itself, in UTF-8 path order. */
  files: SourceFile[]
}

/** True when a path relative to the root has a component starting with `.` or `_` (pyarrow's default ignore prefixes). */
export function isIgnoredPath(path: string): boolean {
  // a component starts with "." or "_" exactly when the path does or one follows a "/" (no split: 100,000 paths)
  return path.startsWith('.') || path.startsWith('_') || path.includes('/.') || path.includes('/_')
}

/** Builds the manifest for the files under a root: ignored paths dropped, sorted by UTF-8 bytes. */
export function buildManifest(files: SourceFile[]): Manifest {
  const kept = files
    .filter((f) => !isIgnoredPath(f.path))
    .map((f) => ({ path: f.path, size: f.size }))
    .sort((a, b) => compareUtf8(a.path, b.path))
  return { format: 'mixscope-manifest', version: 1, files: kept }
}

/** Serializes a manifest deterministically (two-space JSON, trailing newline). */
export function formatManifest(manifest: Manifest): string {
  return JSON.stringify(manifest, null, 2) + '\n'
}

/** Parses and checks a manifest; errors name the URL and the bad field. */
export function parseManifest(text: string, where: string): Manifest {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new MixscopeError(`manifest: ${where} is not JSON (${(error as Error).message})`, 'bad-manifest', 'io')
  }
  const m = doc as Partial<Manifest>
  if (!m || m.format !== 'mixscope-manifest') {
    throw new MixscopeError(`manifest: ${where} has format ${JSON.stringify(m?.format)}, expected "mixscope-manifest"`, 'bad-manifest', 'io')
  }
  if (m.version !== 1) throw new MixscopeError(`manifest: ${where} has version ${JSON.stringify(m.version)}, expected 1`, 'bad-manifest', 'io')
  if (!Array.isArray(m.files)) throw new MixscopeError(`manifest: ${where} has no "files" array`, 'bad-manifest', 'io')
  m.files.forEach((f, i) => {
    if (typeof f?.path !== 'string' || typeof f?.size !== 'number' || !Number.isInteger(f.size) || f.size < 0) {
      throw new MixscopeError(`manifest: ${where} files[${i}] is ${JSON.stringify(f)}, expected {"path": string, "size": non-negative integer}`, 'bad-manifest', 'io')
    }
  })
  return { format: 'mixscope-manifest', version: 1, files: m.files }
}
