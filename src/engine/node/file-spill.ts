/**
 * A `RowSpill` (`ByteBuckets`) on disk: one temporary folder (`mixscope-spill-XXXXXX` under the system's temporary
 * folder, or `dir`), one file per bucket, appends written in order per bucket; `take` reads a bucket back and deletes
 * its file, `close` removes the folder. The audit's metadata pass then holds one partition's rows at a time, and the
 * findings collector (src/engine/core/findings-sink.ts) one file's findings. At most `maxOpen` bucket files are open
 * at once (the least recently written is closed, and opened again for its next append), so a bucket per dataset
 * file stays under `ulimit -n`.
 */
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RowSpill } from '../audit/rows/spill.ts'

/** Bucket files open at once by default. */
const defaultMaxOpen = 16

/**
 * Creates a spill in a new temporary folder.
 * @param dir where to make the folder (default `os.tmpdir()`)
 */
export async function createFileSpill(dir: string = tmpdir(), options: { maxOpen?: number } = {}): Promise<RowSpill> {
  const root = await mkdtemp(join(dir, 'mixscope-spill-'))
  const maxOpen = Math.max(1, options.maxOpen ?? defaultMaxOpen)
  // open handles, least recently used first (a Map keeps insertion order)
  const handles = new Map<number, Promise<FileHandle>>()
  // buckets with a file on disk
  const written = new Set<number>()
  // per bucket: the last write (or close), so the next one starts after it (appends keep their order)
  const tails = new Map<number, Promise<void>>()
  const pathOf = (bucket: number) => join(root, `bucket-${bucket}.bin`)
  const closeHandle = (bucket: number) => {
    const h = handles.get(bucket)
    handles.delete(bucket)
    if (!h) return
    // after the bucket's pending writes; the bucket's next append waits for the close
    const closed = (tails.get(bucket) ?? Promise.resolve()).then(async () => (await h).close())
    tails.set(bucket, closed)
  }
  const handleOf = (bucket: number) => {
    let h = handles.get(bucket)
    if (h) {
      handles.delete(bucket)
      handles.set(bucket, h)
      return h
    }
    if (handles.size >= maxOpen) closeHandle(handles.keys().next().value!)
    handles.set(bucket, h = open(pathOf(bucket), 'a'))
    written.add(bucket)
    return h
  }
  const settle = async (bucket: number) => {
    closeHandle(bucket)
    await tails.get(bucket)
    tails.delete(bucket)
  }
  return {
    append(bucket, bytes) {
      const tail = (tails.get(bucket) ?? Promise.resolve()).then(async () => {
        const h = await handleOf(bucket)
        let at = 0
        while (at < bytes.byteLength) at += (await h.write(bytes, at, bytes.byteLength - at)).bytesWritten
      })
      tails.set(bucket, tail)
      return tail
    },
    async take(bucket) {
      await settle(bucket)
      if (!written.delete(bucket)) return new Uint8Array(0)
      const path = pathOf(bucket)
      const buffer = await readFile(path)
      await rm(path, { force: true })
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    },
    async close() {
      await Promise.allSettled([...new Set([...handles.keys(), ...tails.keys()])].map(settle))
      await rm(root, { recursive: true, force: true })
    },
  }
}
