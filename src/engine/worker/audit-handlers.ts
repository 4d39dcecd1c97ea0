/**
 * Handlers of the explorer's audit kinds: `audit` (the audit from the footers, the metadata audit, or the deep audio
 * audit, resumable), `audit-config` (the config's findings alone, for a config change the rows do not see) and `audit-state` (the deep audit's partial state, readable while it runs and after a cancel, so
 * the UI can keep it in IndexedDB and pass it back to resume).
 */
import type { RunOptions } from '../dataset/dataset.ts'
import { auditConfigFindings, auditWithConfig } from '../audit/configured.ts'
import { auditRowsKey } from '../audit/rows-config.ts'
import { auditFromFooters } from '../audit/footer-audit.ts'
import { flaggedRowsJsonl } from '../audit/flagged.ts'
import { capAuditReport, parseSavedAudit, savedAuditFileName, savedAuditMismatch } from '../audit/saved.ts'
import { auditFingerprint, createAuditState } from '../audit/state.ts'
import type { AuditReport, AuditState } from '../audit/rows/types.ts'
import { resolveConfig } from '../pipeline/config/resolve.ts'
import type { RequestMessage } from './protocol.ts'
import type { AuditConfigResult, AuditRequests, AuditResult, OpenedAuditResult } from './protocol/audit.ts'
import type { HandlerContext, HandlerRunOptions, HandlerTable } from './handler-types.ts'
import { createAuditPool } from './audio-pool.ts'
import { browserSpillFactory } from './browser-spill.ts'
import { FlaggedPositions, rememberFlagged } from '../examples/flagged-positions.ts'

/** Latest deep-audit state per dataset handle, per handler context. */
const statesOf = new WeakMap<HandlerContext, Map<number, AuditState>>()

function states(context: HandlerContext): Map<number, AuditState> {
  let map = statesOf.get(context)
  if (!map) statesOf.set(context, map = new Map())
  return map
}

/**
 * Audits the dataset with `spec`'s config, its config findings included (`auditWithConfig`, as `mixscope audit`). `deep` decodes every row in this worker, starting from `state` when it
 * fits the dataset (row groups already measured are not decoded again); the state fills in place as row groups
 * finish, and `audit-state` returns it at any time, also after the request was cancelled.
 */
async function audit(message: RequestMessage<'audit'>, options: HandlerRunOptions, context: HandlerContext): Promise<AuditResult> {
  const dataset = context.dataset(message.dataset)
  const resolved = resolveConfig(message.spec)
  let state: AuditState | null = null
  let reusedGroups = 0
  if (message.footers) return finish(await auditFromFooters(dataset, resolved), 'footers')
  if (message.deep) {
    state = message.state ? structuredClone(message.state) : createAuditState()
    states(context).set(message.dataset, state)
    // a state made for other files (or another selection) is emptied by the audit; count only what it will reuse
    reusedGroups = state.fingerprint === auditFingerprint(dataset.files, { sample: 1, seed: 0 }) ? Object.keys(state.groups).length : 0
    const pool = createAuditPool()
    try {
      return finish(await auditWithConfig(dataset, resolved, { ...options, deep: true, state, spill: browserSpillFactory(), ...(pool ? { measure: pool.measure, concurrency: pool.lanes } : {}) }))
    } finally {
      pool?.close()
    }
  }
  // the footers' result is on screen already: the rows are read behind the views' reads; every row finding of the
  // report is kept as a position, for the Examples list's "Only flagged" past the example index's row limit: those of
  // the rows' report as soon as it is there (the audio check reads for minutes at 10⁷ rows), then the final report's
  const rowsKey = auditRowsKey(resolved.config)
  const rowsFlagged = FlaggedPositions.builder()
  const flagged = FlaggedPositions.builder()
  const report = await auditWithConfig(dataset, resolved, {
    ...options, quick: message.quick === true, background: true, spill: browserSpillFactory(),
    onRowsFindings: (findings) => rowsFlagged.add(findings),
    onRowsReport: (r) => {
      rememberFlagged(dataset, rowsKey, rowsFlagged.finish())
      options.onPartial?.(finish(r))
    },
    onFindings: (findings) => flagged.add(findings),
  })
  rememberFlagged(dataset, rowsKey, flagged.finish())
  return finish(report)

  function finish(report: AuditReport, level: AuditResult['level'] = 'rows'): AuditResult {
    return { report, configFindings: report.config_findings, ...flaggedOf(report), state, reusedGroups, level, rowsKey: auditRowsKey(resolved.config) }
  }
}

/** Opens a saved audit result: the picked file, or `_mixscope_audit.json` in the root (`null` when absent). */
async function auditOpen(message: RequestMessage<'audit-open'>, options: RunOptions, context: HandlerContext): Promise<OpenedAuditResult | null> {
  const dataset = context.dataset(message.dataset)
  let text: string
  let name: string
  if (message.file) {
    name = (message.file as Blob & { name?: string }).name ?? 'the picked file'
    text = await message.file.text()
  } else {
    const bytes = await dataset.source.readOptional?.(savedAuditFileName, { signal: options.signal }) ?? null
    if (bytes === null) return null
    name = savedAuditFileName
    text = new TextDecoder().decode(bytes)
  }
  const parsed = parseSavedAudit(text, name)
  // the view gets the first findings of each kind, as from an audit run here; the counts keep the saved totals
  const report = capAuditReport(parsed.report)
  const { shards } = parsed
  return {
    report, configFindings: report.config_findings, ...flaggedOf(report), state: null, reusedGroups: 0, level: 'rows', rowsKey: null,
    name, origin: message.file ? 'file' : 'beside', shards, mismatch: savedAuditMismatch(report, dataset),
  }
}

/**
 * The Audit view's flagged-rows export: the rows of the findings the report holds, which are every row's only when
 * no finding was left out past the cap per kind (`flaggedCapped` says so; `mixscope audit --flagged` writes them all).
 */
function flaggedOf(report: AuditReport): Pick<AuditResult, 'flaggedJsonl' | 'flaggedCapped'> {
  return { flaggedJsonl: flaggedRowsJsonl(report.findings), flaggedCapped: report.findings_omitted > 0 }
}

/** The config's findings on the dataset (what `audit` puts in `config_findings`) and its `auditRowsKey`. */
function auditConfig(message: RequestMessage<'audit-config'>, _options: RunOptions, context: HandlerContext): AuditConfigResult {
  const resolved = resolveConfig(message.spec)
  return { configFindings: auditConfigFindings(context.dataset(message.dataset), resolved), rowsKey: auditRowsKey(resolved.config) }
}

export const auditHandlers: HandlerTable<keyof AuditRequests> = {
  audit,
  'audit-config': auditConfig,
  'audit-open': auditOpen,
  'audit-state': (message, _options, context) => {
    const state = states(context).get(message.dataset)
    return state ? structuredClone(state) : null
  },
}
