/**
 * Writing a file whole or not at all. The bytes go to a temporary created exclusively (`wx`: `O_CREAT | O_EXCL`,
 * which never opens an existing file nor follows a symbolic link) under an unpredictable dot-name in the target's own
 * folder (readers ignore `.` names), are flushed to disk (fsync), then renamed over the target. `rename` replaces a
 * symbolic link at the target by the new file and never writes through it, so a link planted in a dataset folder
 * (`_manifest.json` → a file elsewhere) cannot make a command overwrite the file it points to (docs/conventions.md
 * "Writing files"). On any failure the temporary is removed and the target is left as it was.
 */
import { randomBytes } from 'node:crypto'
import { open, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { MixscopeError } from '../core/findings.ts'

/** A file being written; it appears under its name only on `commit`. */
export interface AtomicFile {
  /** The temporary's path (beside the target, dot-named). */
  readonly temp: string
  /** Appends text (UTF-8) or bytes. */
  write(data: string | Uint8Array): Promise<void>
  /** Flushes to disk, closes and renames the temporary over the target; on failure removes it and throws. */
  commit(): Promise<void>
  /** Closes and removes the temporary; the target is untouched. Safe to call after a failure; nothing after `commit`. */
  abort(): Promise<void>
}

/** A fresh temporary name beside `target`: `.<name>.<12 random hex digits>.tmp`. */
export function atomicTempPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
}

function writeError(target: string, error: unknown): MixscopeError {
  if (error instanceof MixscopeError) return error
  return new MixscopeError(`write: cannot write ${target} (${(error as Error).message})`, 'io', 'io')
}

async function writeAll(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  let offset = 0
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    offset += bytesWritten
  }
}

/** Flushes the folder entry of a rename to disk where the platform allows it (best effort). */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | null = null
  try {
    handle = await open(folder, 'r')
    await handle.sync()
  } catch {
    // not every platform or file system syncs a folder: the rename itself is already atomic
  } finally {
    await handle?.close().catch(() => undefined)
  }
}

/**
 * Starts writing `target` (its folder must exist).
 * @throws MixscopeError `io` (`write: cannot write <target> (...)`) when the temporary cannot be created
 */
export async function openAtomic(target: string): Promise<AtomicFile> {
  const temp = atomicTempPath(target)
  let handle: FileHandle | null
  try {
    handle = await open(temp, 'wx', 0o666)
  } catch (error) {
    throw writeError(target, error)
  }
  let done = false
  const drop = async () => {
    const h = handle
    handle = null
    await h?.close().catch(() => undefined)
    await rm(temp, { force: true }).catch(() => undefined)
  }
  return {
    temp,
    async write(data) {
      if (!handle) throw new MixscopeError(`write: ${target} is no longer open`, 'io', 'io')
      try {
        await writeAll(handle, data)
      } catch (error) {
        await drop()
        throw writeError(target, error)
      }
    },
    async commit() {
      if (!handle) throw new MixscopeError(`write: ${target} is no longer open`, 'io', 'io')
      try {
        await handle.sync()
        const h = handle
        handle = null
        await h.close()
        await rename(temp, target)
        done = true
      } catch (error) {
        await drop()
        throw writeError(target, error)
      }
      await syncFolder(dirname(target))
    },
    async abort() {
      if (!done) await drop()
    },
  }
}

/**
 * Writes `target` whole or not at all: `produce` receives `write` and appends the content in pieces (a streamed JSON
 * document); the file is committed when it resolves, and removed when it throws (its error is rethrown).
 */
export async function writeAtomic(target: string, produce: (write: (data: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  const file = await openAtomic(target)
  try {
    await produce((data) => file.write(data))
  } catch (error) {
    await file.abort()
    throw error
  }
  await file.commit()
}

/** Writes `data` to `target` whole or not at all (see `writeAtomic`). */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  await writeAtomic(target, (write) => write(data))
}
