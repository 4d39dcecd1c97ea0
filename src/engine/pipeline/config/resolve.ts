/**
 * The one config resolver: every caller (the explorer's worker handlers, `mixscope batches | audit | weights`) turns
 * "a preset, a recipe, some overrides" into a `PipelineConfig` here, so the UI and the CLI cannot disagree.
 *
 * Layers, each changing only the keys it names, in this order:
 *   1. the reference defaults (`defaultPipelineConfig`), or the named preset (`getPreset`);
 *   2. the recipe text (`loadRecipe`: a fairseq2 recipe YAML, or a flat JSON/YAML object of config keys), applied on
 *      top of layer 1 (give the recipe alone to get exactly what training does with it: the recipe's own defaults are
 *      the reference defaults);
 *   3. the overrides (`--set key=value`, then a command's own flags such as `--split`; the explorer's form fields), in
 *      order, each resolved and type-checked as `--set` is (docs/conventions.md "Config keys").
 *
 * Every problem is a config-level finding (`path: ""`) and resolution never throws on user input: an unknown preset,
 * a recipe that is not YAML/JSON, and a bad override are `error` findings (that layer or value is skipped); the
 * recipe's own findings (unknown keys `warning`, unusable values `error`, ignored keys `info`) come through as they
 * are. What a caller does with `error` findings is the same everywhere: the CLI prints them and exits 2 (a usage
 * error: the config asked for cannot be built), the worker refuses to plan (`plan-refused`) and shows them.
 * Whether training would run with the resolved config is a separate question, answered by `checkConfig`.
 */
import { finding, MixscopeError, sortFindings, type Finding } from '../../core/findings.ts'
import { defaultPipelineConfig } from './defaults.ts'
import { getPreset, presetNames } from './presets.ts'
import { loadRecipe } from './recipe.ts'
import { setConfigValue } from './set.ts'
import type { PipelineConfig } from './types.ts'

/** A config as a user names it: a preset (or the reference defaults), an optional recipe text, then overrides. */
export interface ConfigSpec {
  /** Preset name (`presetNames`), or `null` for the reference defaults. */
  preset: string | null
  /** A recipe YAML/JSON text and its file name (the name picks JSON for `.json` and labels findings). */
  recipe: { name: string; text: string } | null
  /**
   * Config keys (`--set` names: dotted, or an unqualified name that resolves to one field) → values, applied in
   * order. A list keeps repeated keys (`--set a=1 --set a=2`); an object is applied in its key order.
   */
  overrides: Record<string, unknown> | ReadonlyArray<readonly [key: string, value: unknown]>
}

/** A resolved config and what resolving it found. */
export interface ResolvedConfig {
  config: PipelineConfig
  /** Config-level findings of every layer, sorted; `error` ones mean the config asked for could not be built as given. */
  findings: Finding[]
  /** Every preset, for a picker. */
  presets: { name: string; description: string }[]
  /**
   * Which layer set `dataset_summary_path` last: `<recipe name>:<key path>`, `override`, or `null` when it was not set
   * (presets leave it `null`).
   */
  summaryPathFrom: string | null
}

const configError = (error: MixscopeError, kind = error.kind) => finding('error', kind, '', error.message)

/** Resolves `spec` (see the module comment for the layers and how problems are reported). */
export function resolveConfig(spec: ConfigSpec): ResolvedConfig {
  const findings: Finding[] = []
  let config = defaultPipelineConfig()
  let summaryPathFrom: string | null = null
  if (spec.preset !== null) {
    try {
      config = getPreset(spec.preset).config
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(configError(error))
    }
  }
  if (spec.recipe) {
    try {
      const loaded = loadRecipe(spec.recipe.text, { name: spec.recipe.name, base: config })
      config = loaded.config
      findings.push(...loaded.findings)
      summaryPathFrom = loaded.summaryPathFrom
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(configError(error))
    }
  }
  const overrides = Array.isArray(spec.overrides) ? spec.overrides : Object.entries(spec.overrides)
  for (const [key, value] of overrides) {
    try {
      const before = config.dataset_summary_path
      config = setConfigValue(config, key, value)
      if (config.dataset_summary_path !== before) summaryPathFrom = 'override'
    } catch (error) {
      if (!(error instanceof MixscopeError)) throw error
      findings.push(configError(error))
    }
  }
  const presets = presetNames.map((name) => ({ name, description: getPreset(name).description }))
  return { config, findings: sortFindings(findings), presets, summaryPathFrom }
}

/** The `error` findings of a resolution as one message (for a refusal), or `null` when there are none. */
export function resolutionErrors(resolved: Pick<ResolvedConfig, 'findings'>): string | null {
  const errors = resolved.findings.filter((f) => f.severity === 'error')
  return errors.length === 0 ? null : `the config has ${errors.length} error(s):\n${errors.map((f) => `  ${f.kind}: ${f.message}`).join('\n')}`
}
