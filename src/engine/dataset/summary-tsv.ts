/**
 * The stats TSV `language_distribution_*.tsv` (docs/conventions.md "Stats TSV"; docs/reference-pipeline.md §17): found beside or in the root,
 * parsed by column name. The reference reads it with pandas, which also types numeric-looking keys as numbers.
 */
import { compareUtf8, finding, type Finding } from '../core/findings.ts'
import type { SummaryRow, SummaryTsv } from './dataset.ts'
import type { DatasetSource, ReadOptions, SourceFile } from '../source/source.ts'
import { rootHiveKey } from './hive.ts'

const tsvPattern = /^language_distribution_.*\.tsv$/

/** True for a file name the lookup considers. */
export function isSummaryName(name: string): boolean {
  return tsvPattern.test(name)
}

/**
 * Parses TSV text. Missing required columns or bad cells become findings; rows with a bad `hours` keep `NaN`.
 * @param where path shown in findings
 */
export function parseSummaryTsv(text: string, where: string): { summary: SummaryTsv; findings: Finding[] } {
  const findings: Finding[] = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  const header = (lines[0] ?? '').split('\t')
  const col = (name: string) => header.indexOf(name)
  const [ci, li, hi] = [col('corpus'), col('language'), col('hours')]
  const missing = ['corpus', 'language', 'hours'].filter((n) => col(n) < 0)
  if (missing.length > 0) {
    findings.push(finding('error', 'tsv-missing-column', where,
      `stats TSV ${where} has no column ${missing.map((m) => JSON.stringify(m)).join(', ')} (header: ${JSON.stringify(header.join('\t'))}); expected tab-separated corpus, language, hours`))
    return { summary: { path: where, rows: [] }, findings }
  }
  const rows: SummaryRow[] = []
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return
    const cells = line.split('\t')
    const corpus = cells[ci] ?? ''
    const language = cells[li] ?? ''
    const rawHours = (cells[hi] ?? '').trim()
    const hours = rawHours === '' ? NaN : Number(rawHours)
    const lineNo = i + 2
    if (!Number.isFinite(hours)) {
      findings.push(finding('error', 'tsv-bad-hours', where,
        `stats TSV ${where} line ${lineNo} (${corpus}, ${language}) has hours ${JSON.stringify(rawHours)}; expected a finite number`))
    }
    for (const [name, value] of [['corpus', corpus], ['language', language]] as const) {
      if (value !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value)) {
        findings.push(finding('warning', 'tsv-numeric-key', where,
          `stats TSV ${where} line ${lineNo} has ${name} ${JSON.stringify(value)}, which pandas reads as a number, so it never matches the partition's string value (reference §4)`))
      }
    }
    rows.push({ corpus, language, hours })
  })
  return { summary: { path: where, rows }, findings }
}

/**
 * Finds the TSV: in the root (`language_distribution_*.tsv`), then, when the root is `version=N`, in its parent
 * (`language_distribution_N.tsv` first, then any `language_distribution_*.tsv`). First match in UTF-8 order wins.
 * @returns the TSV bytes and where they came from, or `null`
 */
export async function findSummaryTsv(
  source: DatasetSource,
  files: SourceFile[],
  options: ReadOptions = {},
): Promise<{ path: string; bytes: Uint8Array } | null> {
  const inRoot = files.filter((f) => !f.path.includes('/') && isSummaryName(f.path)).map((f) => f.path).sort(compareUtf8)
  if (inRoot.length > 0) {
    const file = files.find((f) => f.path === inRoot[0])!
    return { path: inRoot[0], bytes: await source.read(inRoot[0], 0, file.size, options) }
  }
  const hive = rootHiveKey(source.rootName)
  if (!hive || hive.key !== 'version' || !source.readSibling) return null
  const preferred = `language_distribution_${hive.value}.tsv`
  const names = [preferred]
  if (source.listSiblings) {
    const siblings = (await source.listSiblings(options)).filter(isSummaryName).sort(compareUtf8)
    names.push(...siblings.filter((n) => n !== preferred))
  }
  for (const name of names) {
    const bytes = await source.readSibling(name, options)
    if (bytes) return { path: `../${name}`, bytes }
  }
  return null
}
