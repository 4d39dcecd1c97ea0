/**
 * hyparquet's `AsyncBuffer` over a `DatasetSource` file, with the shared chunk cache in front.
 */
import type { AsyncBuffer } from 'hyparquet'
import type { DatasetSource, ReadOptions } from '../source/source.ts'
import type { ChunkCache } from './chunk-cache.ts'

/**
 * An AsyncBuffer for `path` (`size` bytes). Every slice goes through `cache` when given.
 * Slices are returned as exact ArrayBuffers (copied when the source returns a view).
 */
export function sourceAsyncBuffer(
  source: DatasetSource,
  path: string,
  size: number,
  cache?: ChunkCache,
  options: ReadOptions = {},
): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      let bytes = cache?.getRange(path, start, end)
      if (!bytes) {
        bytes = await source.read(path, start, end, options)
        cache?.setRange(path, start, bytes)
      }
      return exactArrayBuffer(bytes)
    },
  }
}

/** The bytes of `view` as an ArrayBuffer of exactly that length (no copy when it already is one). */
function exactArrayBuffer(view: Uint8Array): ArrayBuffer {
  if (view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer) {
    return view.buffer
  }
  return view.slice().buffer as ArrayBuffer
}
