/**
 * The dataprep's output folder on disk. Each file is written through `openAtomic` (./atomic-write.ts): a dot-named
 * temporary beside its final name (ignored by readers, as every `.` path is), flushed and renamed on close, so a killed
 * run never leaves a partial parquet file.
 */
import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { OutputFile, OutputSink } from '../prepare/write/sink.ts'
import { openAtomic } from './atomic-write.ts'

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
  }
}
