/**
 * Hive partition keys from paths (docs/conventions.md "Discovery"; docs/reference-pipeline.md §2): every `key=value` folder segment below the
 * root, in any order and at any depth. Values are URI-decoded for display and matching; ids keep the raw path.
 */

/** Keys the reference needs as folder keys (docs/reference-pipeline.md §2). */
export const requiredKeys = ['split', 'language', 'corpus'] as const

/** The value pyarrow reads as null. */
export const hiveNull = '__HIVE_DEFAULT_PARTITION__'

/** Decodes a hive value like pyarrow's `segment_encoding="uri"`; a malformed escape is kept raw. */
export function decodeHiveValue(raw: string): string {
  if (!raw.includes('%')) return raw // nothing to decode (most keys): skips the call and its try
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * Hive keys of a file path relative to the root: folder segments only (the file name is not a key).
 * A key repeated deeper in the path overrides the shallower one.
 * @returns decoded values by key, in path order
 */
export function hiveKeysOf(path: string): Record<string, string> {
  const keys: Record<string, string> = {}
  const parts = path.split('/')
  for (const part of parts.slice(0, -1)) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    keys[decodeHiveValue(part.slice(0, eq))] = decodeHiveValue(part.slice(eq + 1))
  }
  return keys
}

/** Partition-folder id: all keys as `key=value`, sorted by key, joined by `/` (values decoded). */
export function partitionIdOf(keys: Record<string, string>): string {
  return Object.keys(keys).sort().map((k) => `${k}=${keys[k]}`).join('/')
}

/** The name of the root folder as hive sees it, e.g. `version=0` → `{ key: 'version', value: '0' }`. */
export function rootHiveKey(rootName: string): { key: string; value: string } | null {
  const eq = rootName.indexOf('=')
  return eq > 0 ? { key: rootName.slice(0, eq), value: decodeHiveValue(rootName.slice(eq + 1)) } : null
}
