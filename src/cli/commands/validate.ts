/** `mixscope validate <folder|url> [--json] [--deep] [--summary TSV] [--findings FILE] [--max-findings-per-kind N]`. */
import { checkDataset, createFileSpill, FindingsCollector, rowChecksDuringOpen } from '../../engine/node.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, parseCommand } from '../lib/args.ts'
import { findingsHelp, findingsOptions, maxFindingsPerKind, omittedLines, openFindingOutputs } from '../lib/findings-args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const validateHelp = `Usage: mixscope validate <folder|url> [--json] [--deep] [--summary TSV] [--findings FILE]

Every problem in one pass: unreadable or truncated parquet, stray files, missing or mistyped
columns, nulls, empty audio_bytes, keys only as columns, TSV mismatches. --deep also sniffs every
row's audio container (codec, rate, channels, declared length vs audio_size).

  --json           print {"schema_version": 1, "root", "files_checked", "rows_checked", "finding_counts",
                   "findings_omitted", "findings"}
  --deep           read every row's audio bytes and check its container header
  --summary TSV    use this language_distribution TSV instead of the lookup beside the root
${findingsHelp(19)}
  -h, --help       show this help

Exit codes: 0 no error findings, 1 error findings (counted, also when the list leaves them out), 2 usage or
I/O error.
`

const args = defineCommand({
  name: 'validate', help: validateHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: { json: { type: 'boolean' }, deep: { type: 'boolean' }, summary: { type: 'string' }, ...findingsOptions },
})

/** Runs `mixscope validate`. */
export async function runValidate(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const maxPerKind = maxFindingsPerKind('validate', values['max-findings-per-kind'])
  // each file's findings wait on disk (a file's at a time) until the report: at most maxPerKind of a kind are held
  const buckets = await createFileSpill()
  const outputs = await openFindingOutputs({ findings: values.findings })
  let report
  try {
    const collector = new FindingsCollector({ maxPerKind, buckets })
    // one pass over the files: each file's row checks run as the open reads it; never the dataset index (validate
    // reads the data itself: docs/conventions.md "Dataset index")
    const during = rowChecksDuringOpen({ deep: values.deep, collector })
    const dataset = await openDatasetArg(positionals[0], { summary: values.summary, open: { ...during.open, useIndex: false } })
    report = (await checkDataset(dataset, { deep: values.deep, checked: during.checked, collector, onFindings: outputs.onFindings })).validation
    dataset.source.close?.()
    await outputs.commit()
  } catch (error) {
    await outputs.abort()
    throw error
  } finally {
    await buckets.close()
  }
  if (values.json) {
    io.stdout(formatJson(report))
  } else {
    const counts = { error: 0, warning: 0, info: 0 }
    for (const c of Object.values(report.finding_counts)) counts[c.severity] += c.total
    io.stdout([
      ...report.findings.map((f) => `${f.severity}: ${f.kind}: ${f.message}`),
      ...omittedLines(report.finding_counts, values.findings),
      `${report.files_checked} files, ${report.rows_checked} rows checked: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`,
    ].join('\n') + '\n')
  }
  // the counts decide: an error left out of the list still fails
  return Object.values(report.finding_counts).some((c) => c.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
