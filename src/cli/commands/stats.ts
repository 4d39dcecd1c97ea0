/** `mixscope stats <folder|url> [--json] [--tsv OUT] [--summary TSV]`. */
import { writeFile } from 'node:fs/promises'
import { compareUtf8, computeStats } from '../../engine/node.ts'
import type { StatsReport } from '../../engine/dataset/stats-types.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, parseCommand } from '../lib/args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const statsHelp = `Usage: mixscope stats <folder|url> [--json] [--tsv OUT] [--summary TSV]

Hours, rows, row groups and files per partition folder, from parquet footers and the audio_size
column only (audio bytes are never read), or from the dataset index (_mixscope_index.parquet,
written by "mixscope index") for the files it still describes: the same numbers, without reading.

  <folder|url>     dataset root (a folder, a .parquet file, or an http(s) URL holding _mixscope_index.parquet
                   or _manifest.json)
  --json           print {"schema_version": 1, "root", "partitions", "totals", "summary", "findings"}
  --tsv OUT        write corpus<TAB>language<TAB>hours per (corpus, language) over all splits
  --summary TSV    use this language_distribution TSV instead of the lookup beside the root
  -h, --help       show this help

Exit codes: 0 done, 1 error findings, 2 usage or I/O error.
`

/** The TSV `--tsv` writes: one row per (corpus, language) over all splits, sorted, full precision. */
export function statsTsv(report: StatsReport): string {
  const hours = new Map<string, { corpus: string; language: string; samples: number }>()
  for (const p of report.partitions) {
    if (p.corpus === null || p.language === null) continue
    const id = JSON.stringify([p.corpus, p.language])
    const slot = hours.get(id)
    if (slot) slot.samples += p.samples
    else hours.set(id, { corpus: p.corpus, language: p.language, samples: p.samples })
  }
  const rows = [...hours.values()].sort((a, b) => compareUtf8(a.corpus, b.corpus) || compareUtf8(a.language, b.language))
  return ['corpus\tlanguage\thours', ...rows.map((r) => `${r.corpus}\t${r.language}\t${r.samples / 16000 / 3600}`)].join('\n') + '\n'
}

/** A readable table of the report. */
function statsTable(report: StatsReport): string {
  const head = ['corpus', 'language', 'split', 'files', 'row_groups', 'rows', 'hours']
  const rows = report.partitions.map((p) => [p.corpus ?? '-', p.language ?? '-', p.split ?? '-', String(p.files), String(p.row_groups), String(p.rows), p.hours.toFixed(4)])
  rows.push(['total', '', '', String(report.totals.files), String(report.totals.row_groups), String(report.totals.rows), report.totals.hours.toFixed(4)])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (r: string[]) => r.map((c, i) => (i >= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')
  const findings = report.findings.map((f) => `${f.severity}: ${f.kind}: ${f.message}`)
  return [line(head), ...rows.map(line), '', `${report.findings.length} finding(s)`, ...findings].join('\n') + '\n'
}

const args = defineCommand({
  name: 'stats', help: statsHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: { json: { type: 'boolean' }, tsv: { type: 'string' }, summary: { type: 'string' } },
})

/** Runs `mixscope stats`. */
export async function runStats(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  // facts read with each footer (one pass over the files); a fresh dataset index gives them without reading
  const dataset = await openDatasetArg(positionals[0], { summary: values.summary, open: { facts: true } })
  const report = await computeStats(dataset)
  dataset.source.close?.()
  if (values.tsv) await writeFile(values.tsv, statsTsv(report))
  io.stdout(values.json ? formatJson(report) : statsTable(report))
  return report.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
