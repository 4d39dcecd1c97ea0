/**
 * The recently opened list, kept in localStorage: URL datasets (reopenable), the demo, datasets in the browser's
 * storage (reopenable by folder name) and folder names (a folder cannot be reopened without the user picking it
 * again). Nothing else is stored: no file contents, no handles.
 */
import type { DatasetRequest } from '../../stores/dataset-store.ts'

/** One remembered open. */
export interface RecentDataset {
  kind: 'url' | 'demo' | 'folder' | 'browser'
  /** Display name (folder name, URL, `Demo dataset`). */
  name: string
  /** The dataset URL (`url` kind only). */
  url?: string
  /** The folder in the browser's storage (`browser` kind only). */
  storage?: string
  /** When it was opened (ms since the epoch). */
  at: number
}

export const recentKey = 'mixscope.recent-datasets'
/** Entries kept, newest first. */
export const recentLimit = 8

/** What to remember of a request that opened (`null` for nothing). */
export function recentEntry(request: DatasetRequest, at: number): RecentDataset {
  const d = request.description
  if (d.type === 'url') return { kind: 'url', name: request.label, url: d.url, at }
  if (d.type === 'demo') return { kind: 'demo', name: request.label, at }
  if (request.browserStorage) return { kind: 'browser', name: request.label, storage: request.browserStorage, at }
  return { kind: 'folder', name: request.label, at }
}

/** `list` with `entry` first, its older duplicate (same kind, URL and name) removed, cut to `recentLimit`. */
export function withRecent(list: readonly RecentDataset[], entry: RecentDataset): RecentDataset[] {
  const same = (r: RecentDataset) => r.kind === entry.kind && r.url === entry.url && r.storage === entry.storage && r.name === entry.name
  return [entry, ...list.filter((r) => !same(r))].slice(0, recentLimit)
}

/** Parses the stored list; anything malformed is dropped. */
export function parseRecent(text: string | null): RecentDataset[] {
  if (!text) return []
  try {
    const value = JSON.parse(text) as unknown
    if (!Array.isArray(value)) return []
    return value.filter((r): r is RecentDataset => r !== null && typeof r === 'object' && ['url', 'demo', 'folder', 'browser'].includes((r as RecentDataset).kind) &&
      typeof (r as RecentDataset).name === 'string' && typeof (r as RecentDataset).at === 'number' && ((r as RecentDataset).kind !== 'url' || typeof (r as RecentDataset).url === 'string') &&
      ((r as RecentDataset).kind !== 'browser' || typeof (r as RecentDataset).storage === 'string'))
      .slice(0, recentLimit)
  } catch {
    return []
  }
}

/** Reads the list from `storage` (localStorage in the app). */
export function loadRecent(storage: Pick<Storage, 'getItem'> | null): RecentDataset[] {
  try {
    return parseRecent(storage?.getItem(recentKey) ?? null)
  } catch {
    return [] // storage disabled
  }
}

/** Adds `entry` to the stored list; returns the new list. */
export function rememberRecent(storage: Pick<Storage, 'getItem' | 'setItem'> | null, entry: RecentDataset): RecentDataset[] {
  const next = withRecent(loadRecent(storage), entry)
  try {
    storage?.setItem(recentKey, JSON.stringify(next))
  } catch {
    // storage full or disabled: the list just is not kept
  }
  return next
}
