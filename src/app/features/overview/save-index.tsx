/**
 * "Save the dataset index into this folder" (minimal hookup, to be styled by the Overview's owner): for a local folder
 * opened without a fresh index, writes `_mixscope_index.parquet` into it (the `index-write` kind), so the next open
 * reads no footer. A folder picked with `showDirectoryPicker` is asked for read-write permission first (the browser
 * shows the prompt); a `webkitdirectory` pick has no handle to write through, so the file is offered as a download.
 */
import { useState } from 'react'
import { engineClient } from '../../engine-client.ts'
import type { OpenResult } from '../../../engine/worker/protocol/dataset.ts'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { formatBytes } from '../../lib/format.ts'

/** The part of `FileSystemHandle` with the permission request (not in every TS lib). */
interface PermissionHandle {
  requestPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>
}

/** Whether the Overview offers to save the index: a local folder, fully open, not all of it described by an index. */
export function canSaveIndex(report: OpenResult): boolean {
  return (report.sourceKind === 'directory-handle' || report.sourceKind === 'file-list') && !report.provisional &&
    report.described.fromIndex < report.files.parquet
}

export function SaveIndex({ report, request }: { report: OpenResult; request: DatasetRequest | null }) {
  const [state, setState] = useState<{ status: 'idle' | 'saving' | 'done' | 'error'; text: string; download?: string }>({ status: 'idle', text: '' })
  if (!canSaveIndex(report)) return null
  async function save() {
    setState({ status: 'saving', text: 'Writing the index…' })
    try {
      const handle = request?.description.type === 'directory' ? request.description.handle as unknown as PermissionHandle : null
      if (handle?.requestPermission) await handle.requestPermission({ mode: 'readwrite' })
      const result = await engineClient.request('index-write', { dataset: report.dataset })
      if (result.written) setState({ status: 'done', text: `Saved ${result.written} (${formatBytes(result.size)}): the next open of this folder reads no footer.` })
      else if (result.bytes) {
        const url = URL.createObjectURL(new Blob([result.bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.apache.parquet' }))
        setState({ status: 'done', text: `Could not write into the folder (${result.reason}). Save this file as _mixscope_index.parquet in the folder:`, download: url })
      }
    } catch (error) {
      setState({ status: 'error', text: `Could not write the index: ${(error as Error).message}` })
    }
  }
  return (
    <div className="save-index">
      <button type="button" onClick={() => void save()} disabled={state.status === 'saving'}>Save dataset index into this folder</button>
      {state.text && <span role="status"> {state.text}</span>}
      {state.download && <> <a href={state.download} download="_mixscope_index.parquet">_mixscope_index.parquet</a></>}
    </div>
  )
}
