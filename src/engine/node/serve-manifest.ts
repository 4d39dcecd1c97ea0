/**
 * The `_manifest.json` `mixscope serve` answers with (docs/conventions.md "HTTP datasets"): built from the folder by
 * the engine's own walk and builder (`createFsSource(...).list()` → `buildManifest` → `formatManifest`, what
 * `mixscope manifest` writes), at most `maxAgeMs` old, so a file added, removed or rewritten shows within that time.
 * Files reached through a symlink leading out of the folder are left out: the server refuses to read them.
 */
import { createHash } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { buildManifest, formatManifest } from '../source/manifest.ts'
import type { SourceFile } from '../source/source.ts'
import { createFsSource } from './fs-source.ts'
import { isInside } from './serve-paths.ts'

/** One build of the manifest. */
export interface BuiltManifest {
  /** The document's bytes (`formatManifest`'s text, UTF-8). */
  body: Uint8Array
  /** Strong validator: a hash of `body`, so a client sees any change to the listing. */
  etag: string
  /** How many files it lists. */
  files: number
  /** Relative paths left out because their real path lies outside the folder (first 20). */
  outside: string[]
  /** How many were left out so. */
  outsideCount: number
}

/** Builds the manifest of the folder whose real path is `root`. */
export async function buildServedManifest(root: string): Promise<BuiltManifest> {
  const source = await createFsSource(root)
  let listed: SourceFile[]
  try {
    listed = await source.list()
  } finally {
    source.close?.()
  }
  const kept: SourceFile[] = []
  const outside: string[] = []
  let outsideCount = 0
  const batch = 256 // realpath calls in flight at once
  for (let i = 0; i < listed.length; i += batch) {
    const slice = listed.slice(i, i + batch)
    const reals = await Promise.all(slice.map((f) => realpath(join(root, ...f.path.split('/'))).catch(() => null)))
    slice.forEach((f, k) => {
      const real = reals[k]
      if (real !== null && isInside(root, real)) kept.push(f)
      else if (real !== null && outsideCount++ < 20) outside.push(f.path)
    })
  }
  const manifest = buildManifest(kept)
  const body = new TextEncoder().encode(formatManifest(manifest))
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`
  return { body, etag, files: manifest.files.length, outside, outsideCount }
}

/** A manifest rebuilt when the last build is older than `maxAgeMs` (ms); concurrent callers share one build. */
export function manifestCache(root: string, maxAgeMs: number, now: () => number = Date.now): () => Promise<BuiltManifest> {
  let built: { at: number; manifest: Promise<BuiltManifest> } | null = null
  return () => {
    const t = now()
    if (!built || t - built.at > maxAgeMs) {
      const manifest = buildServedManifest(root)
      const entry = { at: t, manifest }
      built = entry
      manifest.catch(() => { if (built === entry) built = null })
    }
    return built.manifest
  }
}
