/**
 * The TSV coverage `statsReport` computed for a report (its `tsv-*` findings come from it), kept beside the report so
 * the Overview's groupings (groupings.ts `overviewTables`) take it instead of computing it again: at 100,000
 * partitions that is a few hundred ms of the worker's open.
 */
import type { PartitionCoverage } from './tsv-coverage.ts'
import type { StatsReport } from './stats-types.ts'

const coverageByReport = new WeakMap<StatsReport, PartitionCoverage[]>()

/** Records the coverage `statsReport` computed for `report`. */
export function rememberCoverage(report: StatsReport, coverage: PartitionCoverage[]): void {
  coverageByReport.set(report, coverage)
}

/** The coverage recorded for `report`, if `statsReport` made it (a parsed or cloned report has none). */
export function rememberedCoverage(report: object): PartitionCoverage[] | undefined {
  return coverageByReport.get(report as StatsReport)
}
