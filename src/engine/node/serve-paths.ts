/**
 * Request paths of `mixscope serve` mapped onto a folder, refusing anything that could read outside it: the raw
 * request target is split before it is decoded, so `%2e%2e`, `%2f` and `%5c` are never path syntax, and the file's
 * real path (every symlink resolved) must lie inside the folder's real path.
 */
import { realpath } from 'node:fs/promises'
import { join, sep } from 'node:path'

/** A request target's path as decoded segments, or why it was refused. */
export type RequestPath =
  | { ok: true; segments: string[]; folder: boolean }
  | { ok: false; reason: string }

/**
 * Splits a request target (`/data/x%20y/a.parquet?q`) into decoded segments. Refused: a target not starting with
 * `/` (absolute-form, `*`), a backslash anywhere, an empty segment (`//`), malformed percent-encoding, and a decoded
 * segment that is `.` or `..` or holds `/`, `\` or a control character (NUL included). A trailing `/` sets `folder`.
 */
export function parseRequestPath(target: string): RequestPath {
  const raw = target.split(/[?#]/, 1)[0]
  if (!raw.startsWith('/')) return { ok: false, reason: `not an origin-form path: ${JSON.stringify(raw.slice(0, 200))}` }
  if (raw.includes('\\')) return { ok: false, reason: 'a backslash' }
  const parts = raw.slice(1).split('/')
  const folder = parts.at(-1) === ''
  if (folder) parts.pop()
  const segments: string[] = []
  for (const part of parts) {
    if (part === '') return { ok: false, reason: 'an empty path segment' }
    let segment: string
    try {
      segment = decodeURIComponent(part)
    } catch {
      return { ok: false, reason: `malformed percent-encoding in ${JSON.stringify(part.slice(0, 200))}` }
    }
    // eslint-disable-next-line no-control-regex
    if (segment === '.' || segment === '..' || /[/\\\u0000-\u001f\u007f]/.test(segment)) {
      return { ok: false, reason: `the segment ${JSON.stringify(segment.slice(0, 200))}` }
    }
    segments.push(segment)
  }
  return { ok: true, segments, folder }
}

/** Where a path under a folder leads. */
export type Resolved =
  | { kind: 'inside'; path: string }
  | { kind: 'missing' }
  | { kind: 'outside'; path: string }

/**
 * Resolves `segments` under `base` (itself a real path, from `realpath`) to the real path of what they name:
 * `inside` when it lies in `base`, `outside` when a symlink leads elsewhere (nothing there is read), `missing` when
 * nothing is there (or a link is dangling or loops).
 */
export async function resolveInside(base: string, segments: string[]): Promise<Resolved> {
  const real = await realpath(join(base, ...segments)).catch(() => null)
  if (real === null) return { kind: 'missing' }
  return isInside(base, real) ? { kind: 'inside', path: real } : { kind: 'outside', path: real }
}

/** True when the real path `path` is `base` or lies below it. */
export function isInside(base: string, path: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep)
}
