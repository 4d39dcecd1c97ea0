/** `mixscope validate <folder|url> [--json] [--deep] [--summary TSV]`. */
import { checkDataset, rowChecksDuringOpen } from '../../engine/node.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { defineCommand, parseCommand } from '../lib/args.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const validateHelp = `Usage: mixscope validate <folder|url> [--json] [--deep] [--summary TSV]

Every problem in one pass: unreadable or truncated parquet, stray files, missing or mistyped
columns, nulls, empty audio_bytes, keys only as columns, TSV mismatches. --deep also sniffs every
row's audio container (codec, rate, channels, declared length vs audio_size).

  --json           print {"schema_version": 1, "root", "files_checked", "rows_checked", "findings"}
  --deep           read every row's audio bytes and check its container header
  --summary TSV    use this language_distribution TSV instead of the lookup beside the root
  -h, --help       show this help

Exit codes: 0 no error findings, 1 error findings, 2 usage or I/O error.
`

const args = defineCommand({
  name: 'validate', help: validateHelp, positionals: { count: 1, what: 'one dataset argument' },
  options: { json: { type: 'boolean' }, deep: { type: 'boolean' }, summary: { type: 'string' } },
})

/** Runs `mixscope validate`. */
export async function runValidate(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  // one pass over the files: each file's row checks run as the open reads it; never the dataset index (validate
  // reads the data itself: docs/conventions.md "Dataset index")
  const during = rowChecksDuringOpen({ deep: values.deep })
  const dataset = await openDatasetArg(positionals[0], { summary: values.summary, open: { ...during.open, useIndex: false } })
  const report = (await checkDataset(dataset, { deep: values.deep, checked: during.checked })).validation
  dataset.source.close?.()
  if (values.json) {
    io.stdout(formatJson(report))
  } else {
    const counts = { error: 0, warning: 0, info: 0 }
    for (const f of report.findings) counts[f.severity]++
    io.stdout([
      ...report.findings.map((f) => `${f.severity}: ${f.kind}: ${f.message}`),
      `${report.files_checked} files, ${report.rows_checked} rows checked: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} info`,
    ].join('\n') + '\n')
  }
  return report.findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
