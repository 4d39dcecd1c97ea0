/** Drop a dataset folder (or parquet files) anywhere on the page: an overlay says so while dragging. */
import { useState, type DragEvent, type ReactNode } from 'react'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { readDrop } from './drop-folder.ts'

export function DropZone({ onOpen, children }: { onOpen: (request: DatasetRequest) => void; children: ReactNode }) {
  const [over, setOver] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  function onDragOver(event: DragEvent) {
    if (![...event.dataTransfer.types].includes('Files')) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setOver(true)
  }

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setOver(false)
    setProblem(null)
    void readDrop(event.dataTransfer.items).then((dropped) => {
      if (dropped.kind === 'directory') onOpen({ description: { type: 'directory', handle: dropped.handle }, label: dropped.handle.name })
      else if (dropped.kind === 'files') onOpen({ description: { type: 'files', files: dropped.files }, label: dropped.files.length === 1 ? dropped.files[0].name : `${dropped.files.length} dropped files` })
      else if (dropped.kind === 'unsupported') setProblem(dropped.reason)
    })
  }

  return (
    <div className="drop-zone" onDragOver={onDragOver} onDragLeave={(e) => { if (e.currentTarget === e.target) setOver(false) }} onDrop={onDrop}>
      {children}
      {over && <div className="drop-overlay" aria-hidden="true">Drop to open this dataset</div>}
      {problem && <p className="field-problem" role="alert">{problem}</p>}
    </div>
  )
}
