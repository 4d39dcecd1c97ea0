/**
 * `--preset NAME`, `--config FILE` and `--set key=value` for every command that takes a pipeline config (`batches`,
 * `audit`, `weights`), resolved by the engine's one resolver (`resolveConfig`, src/engine/pipeline/config/resolve.ts), the same
 * the explorer uses: preset (or the reference defaults) → recipe → `--set` in order → the command's own flags.
 * Resolution findings go to stderr; any `error` among them stops the command with exit 2.
 */
import { readFile, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import {
  type Finding,
  MixscopeError,
  parseSetArgument,
  presetNames,
  resolveConfig,
  type ResolvedConfig,
} from '../../engine/node.ts'
import type { PipelineConfig } from '../../engine/pipeline/config/types.ts'
import type { OpenDataset } from '../../engine/dataset/open.ts'
import { isUrl } from './dataset-arg.ts'
import { UsageError } from './args.ts'
import type { CliIo } from './io.ts'

/** `parseArgs` options of the config flags. */
export const configOptions = {
  config: { type: 'string' },
  preset: { type: 'string' },
  set: { type: 'string', multiple: true },
} as const

/** `words` joined with `, ` into lines of at most `width` characters. */
function wrapList(head: string, words: readonly string[], width = 80): string[] {
  const lines = [head]
  for (const [i, word] of words.entries()) {
    const piece = word + (i < words.length - 1 ? ',' : '')
    if (lines[lines.length - 1].length + piece.length + 1 > width) lines.push(piece)
    else lines[lines.length - 1] += (lines[lines.length - 1] === '' ? '' : ' ') + piece
  }
  return lines
}

const helpEntries: [string, string[]][] = [
  ['--preset NAME', wrapList('a shipped configuration:', presetNames)],
  ['--config FILE', ['fairseq2 recipe YAML (dataset.mixture_parquet_storage_config, asr_task_config,',
    'common.seed, ...) or a JSON/YAML object of config keys; applied on top of --preset']],
  ['--set key=value', ['override one config key (repeatable, applied in order after --preset and --config;',
    'values parsed as JSON when valid)']],
]

/** Help lines of the config flags, for a command's `--help`, descriptions starting at `column`. */
export function configHelp(column: number): string {
  return helpEntries.map(([flag, lines]) => lines.map((line, i) => (i === 0 ? `  ${flag}`.padEnd(column) : ' '.repeat(column)) + line).join('\n')).join('\n')
}

/** The config flags as `parseArgs` gives them. */
export interface ConfigArgs {
  config?: string
  preset?: string
  set?: string[]
}

/** A resolved config, and the recipe file it came from (for `dataset_summary_path` relative to it). */
export interface ConfigFromArgs extends ResolvedConfig {
  recipePath: string | undefined
}

/** One finding as a stderr line. */
export function findingLine(f: Finding): string {
  return `${f.severity}: ${f.kind}: ${f.path ? `${f.path}: ` : ''}${f.message}\n`
}

/**
 * Resolves the config flags, then `extra` overrides (a command's own flags, e.g. `--split`, applied last). Prints
 * every resolution finding to stderr.
 * @throws UsageError when `--config` cannot be read or a `--set` has no `=`
 * @throws MixscopeError `config-invalid` (exit 2) when resolution found `error`s (printed above)
 */
export async function resolveConfigArgs(values: ConfigArgs, io: CliIo, command: string, extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<ConfigFromArgs> {
  let recipe: { name: string; text: string } | null = null
  if (values.config) {
    try {
      recipe = { name: values.config, text: await readFile(values.config, 'utf8') }
    } catch (error) {
      throw new UsageError(`cannot read --config ${values.config} (${(error as Error).message})`)
    }
  }
  const sets = (values.set ?? []).map((argument): [string, unknown] => {
    const { key, value } = parseSetArgument(argument)
    return [key, value]
  })
  const resolved = resolveConfig({ preset: values.preset ?? null, recipe, overrides: [...sets, ...extra] })
  for (const f of resolved.findings) io.stderr(`mixscope ${command}: ${findingLine(f)}`)
  const errors = resolved.findings.filter((f) => f.severity === 'error').length
  if (errors > 0) throw new MixscopeError(`config: ${errors} error(s) in the config given (above)`, 'config-invalid', 'usage')
  return { ...resolved, recipePath: values.config }
}

/**
 * Which TSV to open: `--summary` wins; else the config's `dataset_summary_path` when it exists here (a URL, a path
 * relative to the working directory, or one relative to the recipe's folder); else the lookup beside the root
 * (docs/conventions.md "Stats TSV"). Returns the path to pass to `openDatasetArg` and a sentence for stderr, or `null` + a
 * note when the lookup is used.
 */
export async function resolveSummary(explicit: string | undefined, config: PipelineConfig, recipePath: string | undefined, summaryFrom: string | null): Promise<{ path: string | undefined; note: string | null }> {
  if (explicit) return { path: explicit, note: null }
  const configured = config.dataset_summary_path
  if (!configured) return { path: undefined, note: null }
  // a recipe is data: its path is followed only to a .tsv (a recipe naming /etc/passwd or a FIFO gets a note, no read)
  const from0 = summaryFrom === 'override' ? '--set' : summaryFrom
  if (!/\.tsv$/i.test(configured.replace(/[?#].*$/, ''))) {
    return { path: undefined, note: `dataset_summary_path ${JSON.stringify(configured)}${from0 ? ` (${from0})` : ''} is not a .tsv file; it is not read, looking for language_distribution_*.tsv beside the dataset instead` }
  }
  if (isUrl(configured)) return { path: configured, note: null }
  const candidates = [resolve(configured)]
  if (recipePath) candidates.push(resolve(dirname(recipePath), configured))
  for (const candidate of candidates) {
    try {
      if ((await stat(candidate)).isFile()) return { path: candidate, note: null }
    } catch {
      // try the next one
    }
  }
  const from = summaryFrom === 'override' ? '--set' : summaryFrom
  return { path: undefined, note: `dataset_summary_path ${JSON.stringify(configured)}${from ? ` (${from})` : ''} does not exist here; looking for language_distribution_*.tsv beside the dataset instead` }
}

/** The sentence saying which TSV is in use. */
export function summaryLine(dataset: OpenDataset): string {
  return dataset.summary
    ? `summary TSV: ${dataset.summary.path} (${dataset.summary.rows.length} rows)`
    : 'summary TSV: none found: no mixture, one stream (as the reference without dataset_summary_path)'
}
