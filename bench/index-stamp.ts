/**
 * Whether a bench dataset's index was written by the index code of this checkout: each bench writes an index once and
 * keeps it, and an index an older build wrote (another encoding) would measure that build's file, not this one's.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { indexFileName } from '../src/engine/node.ts'

const repo = resolve(import.meta.dirname, '..')

/** A digest of the code that writes and reads the index. */
function indexCodeDigest(): string {
  const hash = createHash('sha256')
  for (const file of ['dataset/index-format.ts', 'dataset-index/build.ts', 'dataset/index-entries.ts', 'dataset/index-summary.ts', 'dataset-index/write.ts']) hash.update(readFileSync(join(repo, 'src/engine', file)))
  return hash.digest('hex').slice(0, 16)
}

/** The stamp's path: beside the root, outside it (inside, discovery would list it as a stray file). */
const stampOf = (root: string) => join(root, '..', 'index-code.txt')

/** True when `root` holds an index this checkout's code wrote. */
export function hasCurrentIndex(root: string): boolean {
  const stamp = stampOf(root)
  return existsSync(join(root, indexFileName)) && existsSync(stamp) && readFileSync(stamp, 'utf8') === indexCodeDigest()
}

/** Records that `root`'s index was just written by this checkout's code. */
export function markIndexCurrent(root: string): void {
  writeFileSync(stampOf(root), indexCodeDigest())
}
