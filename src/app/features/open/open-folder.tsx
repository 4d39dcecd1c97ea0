/** "Open dataset folder": showDirectoryPicker, with a hidden `webkitdirectory` input as the fallback. */
import { useRef, useState, type ChangeEvent } from 'react'
import type { DatasetRequest } from '../../stores/dataset-store.ts'
import { hasDirectoryPicker, pickDirectory, pickedFolderName } from '../../lib/pick-directory.ts'

export function OpenFolder({ onOpen }: { onOpen: (request: DatasetRequest) => void }) {
  const input = useRef<HTMLInputElement | null>(null)
  const [fallbackReason, setFallbackReason] = useState<string | null>(null)

  async function openFolder() {
    if (!hasDirectoryPicker()) {
      input.current?.click() // synchronous: keeps the click's user activation for the file dialog
      return
    }
    const picked = await pickDirectory()
    if (picked.kind === 'handle') onOpen({ description: { type: 'directory', handle: picked.handle }, label: picked.handle.name })
    else if (picked.kind === 'unavailable') {
      setFallbackReason(picked.reason)
      input.current?.click()
    }
  }

  function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])]
    event.target.value = '' // picking the same folder again still fires change
    if (files.length > 0) onOpen({ description: { type: 'files', files }, label: pickedFolderName(files) })
  }

  return (
    <div className="open-folder">
      <button type="button" onClick={() => void openFolder()}>Open dataset folder</button>
      <input
        ref={(el) => {
          input.current = el
          if (el) el.webkitdirectory = true
        }}
        type="file"
        multiple
        hidden={fallbackReason === null}
        aria-label="Dataset folder (file dialog)"
        onChange={onFiles}
      />
      {fallbackReason !== null && (
        <p className="hint" role="status">Folder picker unavailable ({fallbackReason}); choose the folder with the file dialog.</p>
      )}
    </div>
  )
}
