/**
 * The dataprep's output folder on disk. Each file is written through `openAtomic` (./atomic-write.ts): a dot-named
 * temporary beside its final name (ignored by readers, as every `.` path is), flushed and renamed on close, so a killed
 * run never leaves a partial parquet file.
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { MixscopeError } from '../core/findings.ts'
import { LOCK_FILE, type OutputFile, type OutputSink } from '../prepare/write/sink.ts'
import { openAtomic } from './atomic-write.ts'
import { createFsSource } from './fs-source.ts'

interface LockInfo { pid: number; host: string; since: string; owner: string }

/** Whether process `pid` of this host is running (a lock left by a killed run may be taken over). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Creates `<root>/_prepare.lock` exclusively (O_CREAT|O_EXCL: a planted symlink is not followed). A lock whose run
 * is gone (same host, process not running) is taken over once.
 */
async function takeLock(root: string, owner: string): Promise<() => Promise<void>> {
  const path = join(root, LOCK_FILE)
  await mkdir(root, { recursive: true })
  const info: LockInfo = { pid: process.pid, host: hostname(), since: new Date().toISOString(), owner }
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx')
      await handle.writeFile(JSON.stringify(info) + '\n')
      await handle.close()
      return async () => { await rm(path, { force: true }) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let other: Partial<LockInfo> = {}
      try { other = JSON.parse(await readFile(path, 'utf8')) as LockInfo } catch { /* being written, or not ours: held */ }
      const stale = attempt === 0 && other.host === info.host && typeof other.pid === 'number' && other.pid !== process.pid && !alive(other.pid)
      if (stale) {
        await rm(path, { force: true })
        continue
      }
      const who = other.pid ? `pid ${other.pid} on ${other.host}, since ${other.since}` : 'its lock file cannot be read'
      throw new MixscopeError(`prepare: ${root} is being written by another prepare run (${who}); wait for it to finish, or remove ${path} if that run is gone`, 'output-locked', 'usage')
    }
  }
}

function checkPath(path: string): void {
  if (path.split('/').some((p) => p === '' || p === '.' || p === '..')) throw new Error(`fs-sink: "${path}" is not a plain relative path`)
}

/** An output sink writing under `root` (created when missing). */
export function createFsSink(root: string): OutputSink {
  return {
    async create(path) {
      checkPath(path)
      const final = join(root, ...path.split('/'))
      await mkdir(dirname(final), { recursive: true })
      const atomic = await openAtomic(final)
      const file: OutputFile = {
        write: (bytes) => atomic.write(bytes),
        close: () => atomic.commit(),
        abort: () => atomic.abort(),
      }
      return file
    },
    async size(path) {
      checkPath(path)
      return stat(join(root, ...path.split('/'))).then((s) => s.size, () => null)
    },
    async read(path) {
      checkPath(path)
      return readFile(join(root, ...path.split('/'))).then((b) => new Uint8Array(b), () => null)
    },
    async source(path) {
      checkPath(path)
      const dir = join(root, ...path.split('/'))
      return (await stat(dir).catch(() => null))?.isDirectory() ? createFsSource(dir) : null
    },
    lock: (owner) => takeLock(root, owner),
  }
}
