/**
 * What the shell and the Overview know of the Audit without loading its view: the latest audit result and the dataset
 * handle it belongs to (the Audit view publishes it: the tab's badge counts from it), and which triage category the
 * Audit view shows (the Overview's problem alert opens it on the errors). The counting itself is the engine's
 * (`problemCounts`); `useProblemCounts` only picks its inputs: the audit's result when it is the shown dataset's,
 * else the open's findings.
 */
import { useMemo } from 'react'
import { useStore } from 'zustand'
import { createStore } from 'zustand/vanilla'
import { type ProblemCounts, problemCounts, unreadableHours } from '../../engine/index.ts'
import type { AuditResult } from '../../engine/worker/protocol/audit.ts'
import type { OpenResult } from '../../engine/worker/protocol/dataset.ts'
import { usableReport } from './dataset-store.ts'
import { useDatasetStore } from './use-dataset-store.ts'
import { viewStore } from './use-view-store.ts'

/** The Audit's triage categories (src/app/features/audit/audit-findings.ts `triageOf`). */
export type AuditTriage = 'blocking' | 'row' | 'data' | 'config'

export interface AuditLinkState {
  /** The Audit's latest result and the dataset handle it is of (`null` before any audit). */
  audit: { dataset: number; result: AuditResult } | null
  /** The one triage category the Audit view shows, `null` for all of them. */
  only: AuditTriage | null
}

export const auditLinkStore = createStore<AuditLinkState>(() => ({ audit: null, only: null }))

/** Shows the Audit view filtered to its blocking errors. */
export function showAuditErrors(): void {
  auditLinkStore.setState({ only: 'blocking' })
  viewStore.getState().show('audit')
}

/** Shows the Audit view with every category. */
export function showAudit(): void {
  auditLinkStore.setState({ only: null })
  viewStore.getState().show('audit')
}

/** The open's problems: its findings (stats and row checks) and its files. */
export function openProblems(report: OpenResult): ProblemCounts {
  return problemCounts({ sources: [report.validation], files: report.files, unreadable: (paths) => unreadableHours(paths, report.stats) })
}

/**
 * The best problem counts there are for the dataset the views work with: the open's findings joined with the audit's
 * (and its config findings) once the audit of this dataset has a result, as the Audit view lists them; else the
 * open's alone. `level`: what the audit read (`null` before it ran); `opening`: the open is still reading (its
 * counts are so far). `null` while no dataset is usable.
 */
export function useProblemCounts(): { counts: ProblemCounts; audited: boolean; level: AuditResult['level'] | null; opening: boolean } | null {
  const report = useDatasetStore(usableReport)
  const audit = useStore(auditLinkStore, (s) => s.audit)
  return useMemo(() => {
    if (!report) return null
    const result = audit && audit.dataset === report.dataset ? audit.result : null
    const opening = Boolean(report.provisional)
    if (!result) return { counts: openProblems(report), audited: false, level: null, opening }
    return {
      counts: problemCounts({ sources: [report.validation, result.report], extra: result.configFindings, files: report.files, unreadable: (paths) => unreadableHours(paths, report.stats) }),
      audited: true,
      level: result.level,
      opening,
    }
  }, [report, audit])
}
