/**
 * The dataprep plan's spill file in Node (src/engine/prepare/plan-store.ts): an append-only temporary file, created
 * exclusively in the system's temporary folder and removed when the plan is done with it.
 */
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PlanBudget, PlanSpill } from '../prepare/plan-store.ts'

/** Opens a spill file in a fresh folder under `dir` (default: the system's temporary folder). */
export async function createPlanSpill(dir = tmpdir()): Promise<PlanSpill> {
  const folder = await mkdtemp(join(dir, 'mixscope-plan-'))
  const file = await open(join(folder, 'spill'), 'wx+')
  let size = 0
  return {
    async append(bytes) {
      const at = size
      let done = 0
      while (done < bytes.length) done += (await file.write(bytes, done, bytes.length - done, at + done)).bytesWritten
      size += bytes.length
      return at
    },
    async read(offset, length) {
      const out = new Uint8Array(length)
      let done = 0
      while (done < length) {
        const { bytesRead } = await file.read(out, done, length - done, offset + done)
        if (bytesRead === 0) throw new Error(`plan spill: ${length} bytes at ${offset} are not there`)
        done += bytesRead
      }
      return out
    },
    async close() {
      await file.close()
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/** The plan's budget in Node: `bytes` of rows in memory (default 256 MiB), the rest in a temporary file. */
export function nodePlanBudget(bytes = 256 * 1024 * 1024): PlanBudget {
  return { bytes, spill: () => createPlanSpill() }
}
