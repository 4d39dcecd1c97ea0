/**
 * A `RowSpill` on disk: one temporary folder (`mixscope-spill-XXXXXX` under the system's temporary folder, or
 * `dir`), one file per bucket, appends written in order per bucket; `take` reads a bucket back and deletes its file,
 * `close` removes the folder. The audit's metadata pass then holds one partition's rows at a time.
 */
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RowSpill } from '../audit/rows/spill.ts'

/**
 * Creates a spill in a new temporary folder.
 * @param dir where to make the folder (default `os.tmpdir()`)
 */
export async function createFileSpill(dir: string = tmpdir()): Promise<RowSpill> {
  const root = await mkdtemp(join(dir, 'mixscope-spill-'))
  const handles = new Map<number, Promise<FileHandle>>()
  // per bucket: the last write, so the next one starts after it (appends keep their order)
  const tails = new Map<number, Promise<void>>()
  const pathOf = (bucket: number) => join(root, `bucket-${bucket}.bin`)
  const handleOf = (bucket: number) => {
    let h = handles.get(bucket)
    if (!h) handles.set(bucket, h = open(pathOf(bucket), 'a'))
    return h
  }
  const settle = async (bucket: number) => {
    await tails.get(bucket)
    tails.delete(bucket)
    const h = handles.get(bucket)
    handles.delete(bucket)
    if (h) await (await h).close()
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
      const had = handles.has(bucket)
      await settle(bucket)
      if (!had) return new Uint8Array(0)
      const path = pathOf(bucket)
      const buffer = await readFile(path)
      await rm(path, { force: true })
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    },
    async close() {
      await Promise.allSettled([...handles.keys()].map(settle))
      await rm(root, { recursive: true, force: true })
    },
  }
}
