/**
 * Long arrays cross the worker boundary in slices. The page's main thread deserializes each message in one task: an
 * open result of 100,000 partitions cloned at once was a single task of about half a second, during which the page
 * could not paint or take input. The worker instead posts every array longer than `chunkItems` (found in plain
 * objects down to `maxDepth` levels) as `chunk` messages of at most `chunkItems` items, then the message itself with
 * those arrays empty; the client puts the items back before anyone sees the message. Each slice is its own task.
 * Typed arrays and other non-plain objects are posted as they are (they clone as one block, cheaply).
 */

/** Items per `chunk` message (2,000 partitions deserialize in roughly 5–20 ms on one core). */
export const chunkItems = 2_000
const maxDepth = 4

/** One slice of a long array: where it goes (property names from the message's payload down) and its items. */
export interface ArrayChunk {
  path: string[]
  items: unknown[]
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Splits the long arrays out of `value`: a shallow-copied shell with each long array replaced by `[]`, and the
 * slices in order. `value` itself is not changed. With nothing long, `chunks` is empty and `shell` is `value`.
 */
export function splitLongArrays<T>(value: T, limit = chunkItems): { shell: T; chunks: ArrayChunk[] } {
  const chunks: ArrayChunk[] = []
  const walk = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) {
      if (node.length <= limit || path.length === 0) return node
      for (let start = 0; start < node.length; start += limit) chunks.push({ path, items: node.slice(start, start + limit) })
      return []
    }
    if (!isPlainObject(node) || path.length >= maxDepth) return node
    let copy: Record<string, unknown> | null = null
    for (const key of Object.keys(node)) {
      const child = node[key]
      const out = walk(child, [...path, key])
      if (out !== child) (copy ??= { ...node })[key] = out
    }
    return copy ?? node
  }
  const shell = walk(value, []) as T
  return { shell, chunks }
}

/**
 * Puts slices back into a shell from `splitLongArrays` (in place: the shell is the client's own copy), in the order
 * they came. Throws when a slice's path does not lead to an array (a protocol bug, never a data problem).
 */
export function joinLongArrays<T>(shell: T, chunks: readonly ArrayChunk[]): T {
  for (const { path, items } of chunks) {
    let node: unknown = shell
    for (const key of path) node = (node as Record<string, unknown> | null)?.[key]
    if (!Array.isArray(node)) throw new Error(`worker: a chunk for ${path.join('.')} has no array to go into`)
    for (const item of items) node.push(item)
  }
  return shell
}
