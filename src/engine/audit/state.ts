/**
 * The resumable state of the audio pass: measures per `(file, row group)`, plain JSON. A state made for other files
 * or another audio selection is not reused.
 */
import type { DatasetFile } from '../dataset/dataset.ts'
import { contentHash } from '../core/content-hash.ts'
import type { AuditState } from './rows/types.ts'

/** Key of a row group in `AuditState.groups`. */
export function groupKey(path: string, rowGroup: number): string {
  return `${path}#${rowGroup}`
}

/** Fingerprint of the files (paths, sizes, row groups) and the audio selection. */
export function auditFingerprint(files: readonly DatasetFile[], selection: { sample: number; seed: number }): string {
  const text = JSON.stringify([files.map((f) => [f.path, f.size, f.rows]), selection.sample, selection.seed])
  return contentHash(new TextEncoder().encode(text))
}

/** An empty state for `fingerprint`. */
export function createAuditState(fingerprint = ''): AuditState {
  return { format: 'mixscope-audit-state', version: 1, fingerprint, groups: {} }
}

/**
 * Makes `state` fit `fingerprint`: kept when it matches, emptied (in place) otherwise.
 * @returns how many row groups are reused
 */
export function adoptAuditState(state: AuditState, fingerprint: string): number {
  if (state.format !== 'mixscope-audit-state' || state.version !== 1 || state.fingerprint !== fingerprint) {
    state.format = 'mixscope-audit-state'
    state.version = 1
    state.fingerprint = fingerprint
    state.groups = {}
  }
  return Object.keys(state.groups).length
}
