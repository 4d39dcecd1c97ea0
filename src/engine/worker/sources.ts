/** Builds a DatasetSource from the serializable description that crossed the worker boundary. */
import type { DatasetSource } from '../source/source.ts'
import { createHttpSource } from '../source/http-source.ts'
import { createFileListSource } from '../source/file-list-source.ts'
import { createDirectoryHandleSource, type DirectoryHandleLike } from '../source/directory-handle-source.ts'
import type { SourceDescription } from './protocol/dataset.ts'

/** Callbacks a source may report through. */
export interface SourceHooks {
  /** An HTTP server answered a range read with the whole file. */
  onRangeIgnored?: (info: { url: string; path: string; size: number }) => void
}

/** Turns a description into the source the engine reads through (inside the worker, where `fetch` and files live). */
export function sourceFromDescription(description: SourceDescription, hooks: SourceHooks = {}): DatasetSource {
  switch (description.type) {
    case 'url':
    case 'demo':
      return createHttpSource(description.url, {
        allowWholeFileReads: description.allowWholeFileReads ?? false,
        ...(description.type === 'url' && description.redirectOrigins ? { redirectOrigins: description.redirectOrigins } : {}),
        onRangeIgnored: hooks.onRangeIgnored,
      })
    case 'files':
      return createFileListSource(description.files)
    case 'directory':
      // TS's WebWorker lib omits the handle's async `values()` (lib.webworker.asynciterable); browsers have it
      return createDirectoryHandleSource(description.handle as unknown as DirectoryHandleLike)
  }
}
