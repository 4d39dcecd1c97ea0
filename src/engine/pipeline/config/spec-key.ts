/**
 * Keys of a `ConfigSpec` with and without its betas: what the explorer compares to know whether a config change is a
 * beta step. The two betas feed one thing, the reference's mixture weights (docs/reference-pipeline.md §4); what
 * reads the weights (the Mixture, a train plan over a stats TSV, the config's mixture checks) follows them, the rest
 * does not (docs/architecture.md "What a config change recomputes").
 */
import type { ConfigSpec } from './resolve.ts'

/** The config fields that change only the mixture weights (`--set` names, without their section). */
export const mixtureOnlyConfigKeys: readonly string[] = ['beta_corpus', 'beta_language']

/** Whether a `--set` name (dotted or not) is one of `mixtureOnlyConfigKeys`. */
export function isMixtureOnlyKey(name: string): boolean {
  return mixtureOnlyConfigKeys.includes(name.slice(name.lastIndexOf('.') + 1))
}

function entriesOf(spec: ConfigSpec): ReadonlyArray<readonly [string, unknown]> {
  return Array.isArray(spec.overrides) ? spec.overrides as ReadonlyArray<readonly [string, unknown]> : Object.entries(spec.overrides)
}

/**
 * A string equal for two specs exactly when they differ at most in their beta overrides (`isMixtureOnlyKey`): the
 * preset, the recipe and every other override, in order. A recipe that sets the betas itself is part of the key.
 */
export function specKeyWithoutBetas(spec: ConfigSpec): string {
  return JSON.stringify([spec.preset, spec.recipe, entriesOf(spec).filter(([k]) => !isMixtureOnlyKey(k))])
}

/** A string for the spec's beta overrides alone, in order (two specs with the same `specKeyWithoutBetas` and this are the same). */
export function specBetasKey(spec: ConfigSpec): string {
  return JSON.stringify(entriesOf(spec).filter(([k]) => isMixtureOnlyKey(k)))
}
