/** The explorer's audit kinds: `audit`, `audit-config`, `audit-state` and `audit-open`. Types only (a leaf of protocol.ts). */
import type { AuditReport, AuditState } from '../../audit/rows/types.ts'
import type { ConfigSpec } from '../../pipeline/config/resolve.ts'
import type { Finding } from '../../core/findings.ts'

/** What `audit` returns. */
export interface AuditResult {
  report: AuditReport
  /** `report.config_findings`: config resolution findings and `checkConfig` on this dataset (the training would refuse on its errors). */
  configFindings: Finding[]
  /** `flaggedRowsJsonl` of the report's findings (`audit --flagged`): only their rows when `flaggedCapped`. */
  flaggedJsonl: string
  /**
   * Whether findings were left out past the cap per kind (`report.findings_omitted > 0`): the flagged rows are then
   * those of the findings shown, not every flagged row (`mixscope audit --flagged` writes every one).
   */
  flaggedCapped: boolean
  /** The deep audit's state after the run (`null` for a metadata audit). */
  state: AuditState | null
  /** Row groups taken from the state passed in instead of decoded again. */
  reusedGroups: number
  /**
   * What the report read: `footers` (nothing: the footers' or the index's numbers, `auditFromFooters`; no row-level
   * finding yet) or `rows` (every row's `audio_size` and text, and more with `deep` / `quick`).
   */
  level: 'footers' | 'rows'
  /**
   * `auditRowsKey` of the config audited (src/engine/audit/rows-config.ts): another config with the same key gives
   * the same report less its `config_findings`. `null` for a saved result opened.
   */
  rowsKey: string | null
}

/** What `audit-config` returns: the config's findings on the dataset, and the key of what the row checks read. */
export interface AuditConfigResult {
  configFindings: Finding[]
  rowsKey: string
}

/** What `audit-open` returns: a saved result (merged by `mixscope merge`, or `audit --json`) ready for the Audit view. */
export interface OpenedAuditResult extends AuditResult {
  /** The file's name, or the path beside the dataset it was read from. */
  name: string
  origin: 'file' | 'beside'
  /** Shards it was merged from, `null` when it was not merged. */
  shards: number | null
  /** Why the result may not be this dataset's (files or rows differ), `null` when its counts agree. */
  mismatch: string | null
}

/** Request kinds of the audit group. */
export interface AuditRequests {
  /**
   * Audits the dataset with the spec's config; `deep` decodes every row, starting from `state` when it fits the
   * dataset. `audit-state` returns the deep audit's state at any time, also after a cancel.
   */
  'audit': { params: {
    dataset: number; spec: ConfigSpec; deep: boolean; state: AuditState | null
    /** the cheap audio check of every row (not with `deep`) */
    quick?: boolean
    /** the audit from the footers alone (src/engine/audit/footer-audit.ts): reads nothing, answers at once; `deep` and `quick` are ignored */
    footers?: boolean
  }; result: AuditResult; /** with `quick`: the report without the audio check, once every row is read and before the audio check reads */ partial: AuditResult }
  /**
   * The config's findings on the dataset alone (`auditConfigFindings`: reads no row) and the config's `rowsKey`: a
   * config change that keeps the key of the audit shown (a beta step) needs only these.
   */
  'audit-config': { params: { dataset: number; spec: ConfigSpec }; result: AuditConfigResult }
  'audit-state': { params: { dataset: number }; result: AuditState | null }
  /**
   * Opens a saved audit result instead of running the audit: `file` (picked by the user), or else
   * `_mixscope_audit.json` in the dataset's root (`null` when there is none). Config findings are not recomputed:
   * the result carries those of the config it was audited with (none in a result saved before they were written).
   */
  'audit-open': { params: { dataset: number; file: Blob | null }; result: OpenedAuditResult | null }
}
