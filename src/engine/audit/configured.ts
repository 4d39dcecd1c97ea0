/**
 * The audit with its config checks: what the explorer's Audit view and `mixscope audit` both run, so the two show the
 * same findings. The config's findings on the dataset (its resolution findings, and `checkConfig`: what the reference
 * training would do with this config on these partitions and this stats TSV) go into the report as `config_findings`,
 * beside the data's own findings.
 */
import { sortFindings, type Finding } from '../core/findings.ts'
import type { Dataset } from '../dataset/dataset.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { configCheckContext } from '../pipeline/config/dataset-context.ts'
import type { ResolvedConfig } from '../pipeline/config/resolve.ts'
import { checkConfig } from '../pipeline/config/validate-config.ts'
import { auditDataset, type AuditOptions } from './audit.ts'
import type { AuditReport } from './rows/types.ts'

/** A resolved config as the audit needs it: the config and the findings its resolution gave. */
export type AuditConfig = Pick<ResolvedConfig, 'config' | 'findings'>

/** The config's findings on `dataset`: its resolution findings and `checkConfig`'s, sorted. */
export function auditConfigFindings(dataset: Pick<Dataset, 'files' | 'summary'>, resolved: AuditConfig): Finding[] {
  return sortFindings([...resolved.findings, ...checkConfig(resolved.config, configCheckContext(dataset))])
}

/**
 * Audits `dataset` with `resolved`'s config, the config's findings included (`config_findings`).
 * @returns the report (`audit --json`); deterministic for the same dataset, config and options
 * @throws the abort reason when `signal` aborts (the `state` keeps what finished)
 */
export function auditWithConfig(dataset: OpenDataset, resolved: AuditConfig, options: Omit<AuditOptions, 'config' | 'configFindings'> = {}): Promise<AuditReport> {
  return auditDataset(dataset, { ...options, config: resolved.config, configFindings: auditConfigFindings(dataset, resolved) })
}

/**
 * Whether the report has an `error` finding, of the data or of the config (`mixscope audit` and `merge` exit 1): the
 * counts decide, so an error the capped `findings` leaves out still counts (a report saved before the counts: its list).
 */
export function auditHasErrors(report: Pick<AuditReport, 'findings' | 'config_findings'> & { finding_counts?: AuditReport['finding_counts'] }): boolean {
  const data = report.finding_counts ? Object.values(report.finding_counts).some((c) => c.severity === 'error') : report.findings.some((f) => f.severity === 'error')
  return data || report.config_findings.some((f) => f.severity === 'error')
}
