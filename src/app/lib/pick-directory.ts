/**
 * The File System Access folder picker, guarded: callers fall back to a `webkitdirectory` input when the API is
 * missing (Firefox, Safari) or throws for any reason other than the user closing the picker.
 */

type PickerWindow = Window & { showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle> }

/** Outcome of asking for a folder. */
export type DirectoryPick =
  | { kind: 'handle'; handle: FileSystemDirectoryHandle }
  | { kind: 'cancelled' }
  | { kind: 'unavailable'; reason: string }

/** Whether `showDirectoryPicker` exists (check synchronously, inside the click, so a fallback keeps the user activation). */
export function hasDirectoryPicker(): boolean {
  return typeof (window as PickerWindow).showDirectoryPicker === 'function'
}

/** Shows the folder picker (read-only). */
export async function pickDirectory(): Promise<DirectoryPick> {
  const picker = (window as PickerWindow).showDirectoryPicker
  if (!picker) return { kind: 'unavailable', reason: 'this browser has no showDirectoryPicker' }
  try {
    return { kind: 'handle', handle: await picker.call(window, { mode: 'read', id: 'mixscope-dataset' }) }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return { kind: 'cancelled' }
    return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) }
  }
}

/** The picked folder's name from a `webkitdirectory` FileList (the first segment of `webkitRelativePath`). */
export function pickedFolderName(files: File[]): string {
  const first = files[0]?.webkitRelativePath ?? ''
  return first.split('/')[0] || 'folder'
}
