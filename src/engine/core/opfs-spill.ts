/**
 * `RandomAccessBuckets` (byte-buckets.ts) in the browser's origin-private file system (OPFS): the browser's counterpart
 * of Node's file spill (src/engine/node/file-spill.ts), so that an audit in the explorer's worker keeps its row records,
 * findings and fingerprints on disk, not in the worker's memory. One folder `mixscope-spill-<ms>-<random>` under the
 * directory handed in (the OPFS root) holding one file, written and read through one synchronous access handle (a
 * dedicated worker's fast path: `FileSystemFileHandle.createSyncAccessHandle`), opened when the spill is made and
 * closed by `close`, which removes the folder. A folder a closed tab left behind is removed by the next spill once it
 * is a day old (a live one is never a day old: its audit would have to run that long).
 *
 * Why one file and one handle: an access handle opened again on a file whose handle was just closed can wait forever
 * in Chromium (seen in Chromium 156 with helper Workers busy: `createSyncAccessHandle()` never settled, and the audit
 * with it); a spill with a file per bucket has to close and reopen handles once its buckets outnumber the handles it
 * may hold. So the buckets are extents of the one file: an append fills the extents that taken buckets freed (the
 * last freed first) before it grows the file, so the file is never larger than the most bytes the buckets held at
 * once; it is emptied when every bucket is taken. Per extent the spill keeps 3 numbers in memory; consecutive appends
 * to a bucket that land next to each other make one extent.
 *
 * The directory handle is passed in (I/O injected): the engine never reaches for `navigator.storage` itself.
 */
import type { RandomAccessBuckets } from './byte-buckets.ts'

/** Folders of spills older than this are left-overs (milliseconds). */
const staleAfterMs = 24 * 3600 * 1000
const prefix = 'mixscope-spill-'
const fileName = 'buckets.bin'
/** How long the one access handle may take to open before the spill is given up (milliseconds). */
const defaultOpenTimeoutMs = 10_000

/** The part of OPFS's synchronous access handle the spill uses (Chromium ≥ 108: every method synchronous). */
interface SyncHandle {
  read(buffer: Uint8Array, options: { at: number }): number
  write(buffer: Uint8Array, options: { at: number }): number
  truncate(size: number): void
  getSize(): number
  flush(): void
  close(): void
}

/** The parts of `FileSystemDirectoryHandle` the spill uses. */
export interface SpillDirectory {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<SpillDirectory>
  getFileHandle(name: string, options?: { create?: boolean }): Promise<{ createSyncAccessHandle(): Promise<SyncHandle> }>
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>
  keys(): AsyncIterableIterator<string>
}

/** Whether this realm offers OPFS synchronous access handles (a dedicated worker in a browser that has them). */
export function opfsSpillSupported(): boolean {
  const proto = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle?.prototype
  return !!proto && 'createSyncAccessHandle' in proto
}

/** Where a bucket's bytes lie in the file: extent `i` holds its bytes `starts[i]…starts[i] + lengths[i]` at `offsets[i]`. */
interface Extents { offsets: number[]; lengths: number[]; starts: number[]; size: number }

/** A free extent of the file. */
interface Free { offset: number; length: number }

/**
 * Creates a spill in a new folder under `root`.
 * @param root where to make the folder (the OPFS root: `await navigator.storage.getDirectory()`)
 * @param options `now`: the clock (ms) that names the folder and ages left-overs; `openTimeoutMs`: how long opening the
 * file's access handle may take (default 10 s) before the spill throws (the caller then spills to memory)
 * @throws when the folder, the file or its access handle cannot be made (a full quota, a private window, a timeout)
 */
export async function createOpfsSpill(root: SpillDirectory, options: { now?: number; openTimeoutMs?: number } = {}): Promise<RandomAccessBuckets> {
  const now = options.now ?? Date.now()
  await removeStale(root, now)
  const name = `${prefix}${now}-${Math.random().toString(36).slice(2, 10)}`
  const dir = await root.getDirectoryHandle(name, { create: true })
  let handle: SyncHandle
  try {
    handle = await openHandle(dir, options.openTimeoutMs ?? defaultOpenTimeoutMs, () => root.removeEntry(name, { recursive: true }).catch(() => undefined))
  } catch (error) {
    await root.removeEntry(name, { recursive: true }).catch(() => undefined)
    throw error
  }
  const buckets = new Map<number, Extents>()
  /** Free extents; the next append takes the last first. */
  let free: Free[] = []
  let fileSize = 0
  let live = 0
  // every operation in turn: appends keep their order and nothing touches the file while it closes
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(task: () => T | Promise<T>): Promise<T> => {
    const run = queue.then(task)
    queue = run.catch(() => undefined)
    return run
  }
  const writeAll = (bytes: Uint8Array, at: number) => {
    for (let done = 0; done < bytes.byteLength;) {
      const n = handle.write(bytes.subarray(done), { at: at + done })
      if (n <= 0) throw new Error(`spill: the browser's storage took no bytes (${at + done} bytes into ${name}): is it full?`)
      done += n
    }
  }
  const readAll = (out: Uint8Array, at: number) => {
    for (let done = 0; done < out.byteLength;) {
      const n = handle.read(out.subarray(done), { at: at + done })
      if (n <= 0) throw new Error(`spill: the browser's storage gave back ${at + done} bytes of ${name} where ${at + out.byteLength} were written`)
      done += n
    }
  }
  const addExtent = (b: Extents, offset: number, length: number) => {
    const last = b.offsets.length - 1
    if (last >= 0 && b.offsets[last] + b.lengths[last] === offset) b.lengths[last] += length
    else {
      b.offsets.push(offset)
      b.lengths.push(length)
      b.starts.push(b.size)
    }
    b.size += length
  }
  /** Copies the bucket's bytes `[offset, offset + out.length)` into `out`. */
  const readExtents = (b: Extents, offset: number, out: Uint8Array) => {
    // the last extent starting at or before `offset`
    let lo = 0, hi = b.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (b.starts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    for (let i = lo, done = 0; done < out.byteLength; i++) {
      const within = offset + done - b.starts[i]
      const n = Math.min(b.lengths[i] - within, out.byteLength - done)
      readAll(out.subarray(done, done + n), b.offsets[i] + within)
      done += n
    }
  }
  /** Frees `b`'s extents for the next appends (a stack: no sorting, whatever the number of extents); the file is emptied when every bucket is. */
  const release = (b: Extents) => {
    live -= b.size
    if (live === 0) {
      free = []
      fileSize = 0
      handle.truncate(0)
      return
    }
    // pushed last to first: the next append takes the bucket's first extent first
    for (let i = b.offsets.length - 1; i >= 0; i--) free.push({ offset: b.offsets[i], length: b.lengths[i] })
  }
  let closed = false
  const open = (what: string) => {
    if (closed) throw new Error(`spill: ${what} after the spill was closed`)
  }
  return {
    append(bucket, bytes) {
      return serial(() => {
        open('append')
        let b = buckets.get(bucket)
        if (!b) buckets.set(bucket, b = { offsets: [], lengths: [], starts: [], size: 0 })
        let done = 0
        while (done < bytes.byteLength && free.length > 0) {
          const f = free[free.length - 1]
          const n = Math.min(f.length, bytes.byteLength - done)
          writeAll(bytes.subarray(done, done + n), f.offset)
          addExtent(b, f.offset, n)
          if (n === f.length) free.pop()
          else { f.offset += n; f.length -= n }
          done += n
        }
        if (done < bytes.byteLength) {
          writeAll(bytes.subarray(done), fileSize)
          addExtent(b, fileSize, bytes.byteLength - done)
          fileSize += bytes.byteLength - done
        }
        live += bytes.byteLength
      })
    },
    take(bucket) {
      return serial(() => {
        open('take')
        const b = buckets.get(bucket)
        if (!b) return new Uint8Array(0)
        const out = new Uint8Array(b.size)
        readExtents(b, 0, out)
        buckets.delete(bucket)
        release(b)
        return out
      })
    },
    read(bucket, offset, length) {
      return serial(() => {
        open('read')
        const b = buckets.get(bucket)
        const size = b?.size ?? 0
        if (!(offset >= 0 && length >= 0 && offset + length <= size)) throw new Error(`spill: bytes ${offset}–${offset + length} are past the end of bucket ${bucket} (${size} bytes)`)
        const out = new Uint8Array(length)
        if (length > 0) readExtents(b!, offset, out)
        return out
      })
    },
    close() {
      return serial(async () => {
        if (closed) return
        closed = true
        buckets.clear()
        free = []
        handle.close()
        await root.removeEntry(name, { recursive: true })
      })
    },
  }
}

/**
 * Opens the spill's file and its access handle, or throws after `timeoutMs`; a handle that opens after the timeout is
 * closed and `late` runs (the folder is removed).
 */
async function openHandle(dir: SpillDirectory, timeoutMs: number, late: () => Promise<unknown>): Promise<SyncHandle> {
  const opening = dir.getFileHandle(fileName, { create: true }).then((f) => f.createSyncAccessHandle())
  let timer: ReturnType<typeof setTimeout> | undefined
  let timedOut = false
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true
      reject(new Error(`spill: the browser's storage did not open a file in ${timeoutMs / 1000} s`))
    }, timeoutMs)
  })
  opening.then((h) => { if (timedOut) { h.close(); void late() } }, () => undefined)
  try {
    return await Promise.race([opening, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Removes spill folders under `root` named more than a day before `now` (a removal that fails is left alone). */
async function removeStale(root: SpillDirectory, now: number): Promise<void> {
  const stale: string[] = []
  for await (const entry of root.keys()) {
    if (!entry.startsWith(prefix)) continue
    const made = Number(entry.slice(prefix.length).split('-')[0])
    if (Number.isFinite(made) && now - made > staleAfterMs) stale.push(entry)
  }
  for (const entry of stale) await root.removeEntry(entry, { recursive: true }).catch(() => undefined)
}
