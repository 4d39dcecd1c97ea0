/**
 * The audit from what the footers (or the dataset index) say, before any row is read: the dataset's own findings
 * (discovery, stats, the stats TSV), the config's findings, and the checks that need only rows and Σ `audio_size`
 * per file (splits, mixture) or row groups per file (ranks). The explorer shows it the moment a dataset is usable
 * and replaces it with `auditWithConfig`'s report once the row pass has read every row (docs/architecture.md "Views
 * while the rows are read").
 */
import type { OpenDataset } from '../dataset/open.ts'
import { parseSplit } from '../pipeline/config/split.ts'
import { checkMixtureCells } from './checks/mixture.ts'
import { checkRanks } from './checks/ranks.ts'
import { checkSplitsCells } from './checks/splits.ts'
import { assembleReport } from './assemble-report.ts'
import { auditConfigFindings, type AuditConfig } from './configured.ts'
import { SplitCells } from './rows/split-cells.ts'
import type { AuditReport } from './rows/types.ts'

/**
 * The footer-level audit of `dataset` with `resolved`'s config: reads nothing. A file's rows and Σ `audio_size` are
 * its facts' (from the index or its `audio_size` column read during the open); a file without facts counts no row.
 * @returns a report shaped as `auditWithConfig`'s, with `totals.rows` the footers' rows and no row-level finding
 */
export async function auditFromFooters(dataset: OpenDataset, resolved: AuditConfig): Promise<AuditReport> {
  const { config } = resolved
  const trainSplit = parseSplit(config.split).split
  const cells = new SplitCells()
  let position = 0
  let rowCount = 0
  let samples = 0
  let rowGroups = 0
  for (const file of dataset.files) {
    if (!file.readable) continue
    rowGroups += file.rowGroups.length
    const facts = file.facts
    if (!facts) continue
    let rows = 0
    let sum = 0
    for (const g of facts.groups) {
      rows += g.rows
      sum += g.sum
    }
    cells.add({ path: file.path, corpus: file.keys.corpus ?? '', language: file.keys.language ?? '', split: file.keys.split ?? '' }, rows, sum, position)
    position += rows
    rowCount += rows
    samples += sum
  }
  const counted = cells.cells()
  return assembleReport({
    root: dataset.root,
    options: {
      deep: false, quick: false, sample: 0, seed: 0, split: config.split, min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len,
      min_samples_per_char: config.min_samples_per_char, world_size: config.world_size, tokenizer: false,
    },
    files: dataset.files.length, rowGroups, rowCount, samples, measured: [], rowsAudioChecked: 0,
    datasetFindings: dataset.findings, configFindings: auditConfigFindings(dataset, resolved),
    results: [checkSplitsCells(counted), checkMixtureCells(counted, dataset.summary, trainSplit), checkRanks(dataset.files, config)],
  })
}
