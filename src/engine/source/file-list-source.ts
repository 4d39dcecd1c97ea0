/**
 * Source over the Files of an `<input type=file webkitdirectory>` pick. Each File's `webkitRelativePath`
 * starts with the picked folder's own name, which is stripped: paths are relative to that folder.
 */
import { MixscopeError } from '../core/findings.ts'
import { checkReadRange } from './memory-source.ts'
import { withMtime } from './directory-handle-source.ts'
import { newCounters, throwIfAborted } from './source.ts'
import type { DatasetSource, ReadOptions, SourceFile } from './source.ts'

/**
 * Creates a source from picked Files. `rootName` (and `root`) is the picked folder's name; Files without a
 * `webkitRelativePath` (a flat pick or drop) are placed at the root under their own names.
 * The browser gives no access above the picked folder, so there are no siblings.
 * @throws MixscopeError `file-list-mixed-roots` when the Files come from more than one folder,
 *   `file-list-duplicate` when two Files map to one path.
 */
export function createFileListSource(files: ArrayLike<File>): DatasetSource {
  const byPath = new Map<string, File>()
  let rootName: string | null = null
  for (const file of Array.from(files)) {
    const relative = file.webkitRelativePath || file.name
    const slash = relative.indexOf('/')
    const folder = slash < 0 ? '' : relative.slice(0, slash)
    const path = slash < 0 ? relative : relative.slice(slash + 1)
    if (rootName === null) rootName = folder
    else if (folder !== rootName) {
      throw new MixscopeError(`file-list: picked files come from folders "${rootName}" and "${folder}", expected one folder`, 'file-list-mixed-roots', 'usage')
    }
    if (byPath.has(path)) throw new MixscopeError(`file-list: two picked files map to "${path}"`, 'file-list-duplicate', 'usage')
    byPath.set(path, file)
  }
  const name = rootName ?? ''
  const counters = newCounters()
  return {
    kind: 'file-list',
    root: name,
    rootName: name,
    counters,
    async list(options?: ReadOptions): Promise<SourceFile[]> {
      throwIfAborted(options?.signal)
      return [...byPath].map(([path, file]) => withMtime({ path, size: file.size }, file))
    },
    async read(path: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array> {
      throwIfAborted(options?.signal)
      checkReadRange(path, start, end)
      const file = byPath.get(path)
      if (!file) throw new MixscopeError(`file-list: no file "${path}" in the picked folder "${name}"`, 'file-not-found', 'io')
      const bytes = new Uint8Array(await file.slice(start, Math.min(end, file.size)).arrayBuffer())
      throwIfAborted(options?.signal)
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
    async readOptional(path: string, options?: ReadOptions): Promise<Uint8Array | null> {
      throwIfAborted(options?.signal)
      const file = byPath.get(path)
      if (!file) return null
      const bytes = new Uint8Array(await file.arrayBuffer())
      counters.requests++
      counters.bytes += bytes.length
      return bytes
    },
  }
}
