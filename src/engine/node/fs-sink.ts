/**
 * The dataprep's output folder on disk. A file is written to a dot-named temporary beside its final name (ignored
 * by readers, as every `.` path is) and renamed on close, so a killed run never leaves a partial parquet file.
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { OutputFile, OutputSink } from '../prepare/write/sink.ts'

function checkPath(path: string): void {
  if (path.split('/').some((p) => p === '' || p === '.' || p === '..')) throw new Error(`fs-sink: "${path}" is not a plain relative path`)
}

/** An output sink writing under `root` (created when missing). */
export function createFsSink(root: string): OutputSink {
  return {
    async create(path) {
      checkPath(path)
      const final = join(root, ...path.split('/'))
      const temp = join(dirname(final), `.${basename(final)}.partial`)
      await mkdir(dirname(final), { recursive: true })
      const stream: WriteStream = createWriteStream(temp)
      await new Promise<void>((ok, fail) => stream.once('open', () => ok()).once('error', fail))
      const file: OutputFile = {
        write: (bytes) => new Promise<void>((ok, fail) => {
          stream.write(bytes, (error) => (error ? fail(error) : ok()))
        }),
        async close() {
          await new Promise<void>((ok, fail) => stream.end((error?: Error | null) => (error ? fail(error) : ok())))
          await rename(temp, final)
        },
        async abort() {
          if (!stream.closed) await new Promise<void>((ok) => { stream.once('close', () => ok()); stream.destroy() })
          await rm(temp, { force: true })
        },
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
