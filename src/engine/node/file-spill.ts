/**
 * A `RowSpill` (`RandomAccessBuckets`, src/engine/core/byte-buckets.ts) on disk: one temporary folder (`mixscope-spill-XXXXXX` under the system's temporary
 * folder, or `dir`), one file per bucket, appends written in order per bucket; `take` reads a bucket back and deletes
 * its file, `close` removes the folder. The audit's metadata pass then holds one partition's rows at a time, and the
 * findings collector (src/engine/core/findings-sink.ts) one file's findings. At most `maxOpen` bucket files are open
 * at once (the least recently written is closed, and opened again for its next append), so a bucket per dataset
 * file stays under `ulimit -n`. `read` reads a range of a bucket in place (positioned reads on a handle of its own,
 * after the bucket's pending appends): the near-duplicate search reads its fingerprints back so.
 */
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RandomAccessBuckets } from '../core/byte-buckets.ts'

/** Bucket files open at once by default. */
const defaultMaxOpen = 16

/**
 * Creates a spill in a new temporary folder.
 * @param dir where to make the folder (default `os.tmpdir()`)
 */
export async function createFileSpill(dir: string = tmpdir(), options: { maxOpen?: number } = {}): Promise<RandomAccessBuckets> {
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
  // read handles, one per bucket read in place (closed by take and close)
  const readers = new Map<number, Promise<FileHandle>>()
  const closeReader = async (bucket: number) => {
    const r = readers.get(bucket)
    readers.delete(bucket)
    if (r) await (await r).close()
  }
  const settle = async (bucket: number) => {
    closeHandle(bucket)
    await tails.get(bucket)
    tails.delete(bucket)
    await closeReader(bucket)
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
    async read(bucket, offset, length) {
      // after the appends issued so far (their bytes are in the file once written, whichever handle reads them)
      await tails.get(bucket)
      const out = new Uint8Array(length)
      if (length === 0) return out
      if (!written.has(bucket)) throw new Error(`spill: bucket ${bucket} is empty, cannot read bytes ${offset}–${offset + length}`)
      let r = readers.get(bucket)
      if (!r) readers.set(bucket, r = open(pathOf(bucket), 'r'))
      const h = await r
      for (let at = 0; at < length;) {
        const { bytesRead } = await h.read(out, at, length - at, offset + at)
        if (bytesRead === 0) throw new Error(`spill: bytes ${offset}–${offset + length} are past the end of bucket ${bucket} (${offset + at} bytes)`)
        at += bytesRead
      }
      return out
    },
    async close() {
      await Promise.allSettled([...new Set([...handles.keys(), ...tails.keys(), ...readers.keys()])].map(settle))
      await rm(root, { recursive: true, force: true })
    },
  }
}
