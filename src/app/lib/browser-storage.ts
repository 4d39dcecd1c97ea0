/**
 * Datasets prepared into the browser's own storage (the origin private file system, OPFS): the Prepare view writes
 * each into a folder `prepared-<input name>` at the OPFS root. They outlive a reload, so the open bar lists them and
 * opens them again by name (a handle is looked up each time; nothing is cached).
 */
import type { DatasetRequest } from '../stores/dataset-store.ts'

/** Folders at the OPFS root that hold prepared datasets start with this. */
export const preparedPrefix = 'prepared-'

/** The OPFS folder a prepared corpus goes to: its input's name, made folder-safe. */
export function preparedFolderName(label: string): string {
  return `${preparedPrefix}${label.replace(/[^\p{L}\p{N}_.-]+/gu, '_') || 'corpus'}`
}

/** How a dataset in browser storage is labelled in the header and in "Recently opened". */
export function storageLabel(name: string): string {
  return `${name} (browser storage)`
}

type Root = FileSystemDirectoryHandle & { entries?: () => AsyncIterableIterator<[string, FileSystemHandle]> }

/** The storage root, or null where the browser has none (no OPFS, or storage blocked). */
async function storageRoot(): Promise<Root | null> {
  try {
    return (await navigator.storage?.getDirectory?.()) as Root ?? null
  } catch {
    return null
  }
}

/** The prepared datasets in this browser's storage, by name. */
export async function listStoredDatasets(): Promise<string[]> {
  const root = await storageRoot()
  if (!root?.entries) return []
  const names: string[] = []
  for await (const [name, handle] of root.entries()) {
    if (handle.kind === 'directory' && name.startsWith(preparedPrefix)) names.push(name)
  }
  return names.sort()
}

/**
 * The request that opens the stored dataset `name`.
 * @throws Error naming the dataset when it is no longer in this browser's storage (removed, or storage cleared)
 */
export async function storedDatasetRequest(name: string): Promise<DatasetRequest> {
  const root = await storageRoot()
  if (!root) throw new Error(`browser storage: this browser has no storage for prepared datasets, so "${name}" cannot be opened`)
  try {
    const handle = await root.getDirectoryHandle(name)
    return { description: { type: 'directory', handle }, label: storageLabel(name), browserStorage: name }
  } catch (error) {
    if ((error as DOMException).name === 'NotFoundError') {
      throw new Error(`browser storage: "${name}" is no longer in this browser's storage (removed, or site data cleared); prepare it again`)
    }
    throw error
  }
}

/** Removes the stored dataset `name` and everything in it. */
export async function removeStoredDataset(name: string): Promise<void> {
  const root = await storageRoot()
  if (!name.startsWith(preparedPrefix)) throw new Error(`browser storage: "${name}" is not a prepared dataset`)
  await root?.removeEntry(name, { recursive: true })
}
