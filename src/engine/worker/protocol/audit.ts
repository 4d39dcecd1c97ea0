/** The explorer's audit kinds: `audit` and `audit-state`. Types only (a leaf of protocol.ts). */
import type { AuditReport, AuditState } from '../../audit/types.ts'
import type { ConfigSpec } from '../../config/resolve.ts'
import type { Finding } from '../../findings.ts'

/** What `audit` returns. */
export interface AuditResult {
  report: AuditReport
  /** Config resolution findings and `checkConfig` on this dataset (the training would refuse on its errors). */
  configFindings: Finding[]
  /** `flaggedRowsJsonl` of the report's findings (`audit --flagged`). */
  flaggedJsonl: string
  /** The deep audit's state after the run (`null` for a metadata audit). */
  state: AuditState | null
  /** Row groups taken from the state passed in instead of decoded again. */
  reusedGroups: number
}

/** Request kinds of the audit group. */
export interface AuditRequests {
  /**
   * Audits the dataset with the spec's config; `deep` decodes every row, starting from `state` when it fits the
   * dataset. `audit-state` returns the deep audit's state at any time, also after a cancel.
   */
  'audit': { params: { dataset: number; spec: ConfigSpec; deep: boolean; state: AuditState | null; /** the cheap audio check of every row (not with `deep`) */ quick?: boolean }; result: AuditResult }
  'audit-state': { params: { dataset: number }; result: AuditState | null }
}
