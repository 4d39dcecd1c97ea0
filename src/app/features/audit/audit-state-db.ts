/**
 * IndexedDB keeping of partial deep-audit states (database `mixscope`, store `audit-states`, one record per dataset
 * key), so a cancelled or interrupted deep audit resumes after a reload. Only measures are stored: no audio, no text.
 */
import type { AuditState } from '../../../engine/audit/rows/types.ts'
import type { AuditPersistence } from './audit-store.ts'

const dbName = 'mixscope-audit'
const storeName = 'audit-states'

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(dbName, 1)
    request.onupgradeneeded = () => request.result.createObjectStore(storeName)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(new Error(`audit: cannot open IndexedDB "${dbName}" (${request.error?.message ?? 'unknown error'})`))
  })
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb()
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = action(db.transaction(storeName, mode).objectStore(storeName))
      request.onsuccess = () => resolve(request.result as T)
      request.onerror = () => reject(new Error(`audit: IndexedDB ${mode} failed (${request.error?.message ?? 'unknown error'})`))
    })
  } finally {
    db.close()
  }
}

/** The app's persistence: IndexedDB when the browser has it, else nothing is kept. */
export const indexedDbPersistence: AuditPersistence = {
  async load(key) {
    if (typeof indexedDB === 'undefined') return null
    return (await run<AuditState | undefined>('readonly', (s) => s.get(key))) ?? null
  },
  async save(key, state) {
    if (typeof indexedDB === 'undefined') return
    await run('readwrite', (s) => s.put(state, key))
  },
  async clear(key) {
    if (typeof indexedDB === 'undefined') return
    await run('readwrite', (s) => s.delete(key))
  },
}

/** The key of a dataset's saved state: its root and its size (the engine's fingerprint checks the files anyway). */
export function datasetKey(report: { root: string; files: { parquet: number; bytes: number } }): string {
  return `${report.root}|${report.files.parquet}|${report.files.bytes}`
}
