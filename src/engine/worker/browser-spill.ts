/**
 * The explorer worker's spill for audits and for the open's row-check findings: the browser's origin-private file system (src/engine/core/opfs-spill.ts)
 * where this worker has synchronous access handles, so that the rows of a 10⁷–10⁸-row audit wait on disk as they do
 * in Node (docs/browser-notes.md "Storage"); in memory where it has none or the storage refuses (a private window,
 * a full quota, a file handle that does not open within `createOpfsSpill`'s limit): the audit still runs, bounded by
 * the worker's memory.
 */
import { createOpfsSpill, opfsSpillSupported, type SpillDirectory } from '../core/opfs-spill.ts'
import { memorySpill, type RowSpillFactory } from '../audit/rows/spill.ts'
import { memoryBuckets } from '../core/byte-buckets.ts'
import { bucketPlanSpill, type PlanBudget } from '../prepare/plan-store.ts'

/** Spills for one audit: each call a new folder in OPFS, or memory. */
export function browserSpillFactory(): RowSpillFactory {
  return async () => {
    const storage = (globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<unknown> } } }).navigator?.storage
    if (!opfsSpillSupported() || !storage?.getDirectory) return memorySpill()
    try {
      return await createOpfsSpill(await storage.getDirectory() as SpillDirectory)
    } catch {
      return memorySpill()
    }
  }
}

/**
 * The Prepare view's budget (the CLI's, src/engine/node/plan-spill.ts `nodePlanBudget`): `bytes` of the scanned rows'
 * log and of the plan's records in memory (default 256 MiB each), the rest in a folder of OPFS; in memory where
 * OPFS refuses (a private window, a full quota).
 */
export function browserPlanBudget(bytes = 256 * 1024 * 1024): PlanBudget {
  if (!opfsSpillSupported()) return {}
  return {
    bytes,
    spill: async () => {
      const storage = (globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<unknown> } } }).navigator?.storage
      try {
        return bucketPlanSpill(await createOpfsSpill(await storage!.getDirectory!() as SpillDirectory))
      } catch {
        return bucketPlanSpill(memoryBuckets())
      }
    },
  }
}
