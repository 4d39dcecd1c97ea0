/** Shared helpers of the audit tests: open a fixture dataset, pick findings. */
import { fileURLToPath } from 'node:url'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { openDataset, type OpenDataset } from '../../src/engine/dataset/open.ts'
import type { Finding } from '../../src/engine/core/findings.ts'

/** Absolute path of `test/fixtures/audit/<name>/version=0`. */
export function auditFixture(name: 'meta' | 'audio' | 'clean'): string {
  return fileURLToPath(new URL(`../fixtures/audit/${name}/version=0`, import.meta.url))
}

/** The demo dataset root. */
export const demoRoot = fileURLToPath(new URL('../../public/demo/version=0', import.meta.url))

export async function openFixture(path: string): Promise<OpenDataset> {
  return openDataset(await createFsSource(path))
}

/** `"<path>:<row>"` (or the path) of each finding of `kind`, sorted. */
export function where(findings: readonly Finding[], kind: string): string[] {
  return findings.filter((f) => f.kind === kind).map((f) => (f.row === null ? f.path : `${f.path}:${f.row}`)).sort()
}

export const rus = 'corpus=a/split=train/language=rus_Cyrl/part-0.parquet'
export const hin = 'corpus=a/split=train/language=hin_Deva/part-0.parquet'
