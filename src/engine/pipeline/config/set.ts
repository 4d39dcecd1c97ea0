/**
 * `--set key=value` semantics (docs/conventions.md "Config keys"): dotted names for nested fields; an unqualified or
 * partly qualified name resolves to the one field whose dotted path ends with it (an exact full path always
 * wins, so `seed` is the task seed, not `fragment_streaming.seed`); values are JSON when they parse as JSON,
 * else strings; every value is type-checked against the field.
 */

import { MixscopeError } from '../../core/findings.ts'
import { configFields, describeFieldType, type FieldSpec } from './schema.ts'
import type { PipelineConfig } from './types.ts'

/**
 * Finds the field a user's key names.
 * @throws MixscopeError (`config-key-unknown` / `config-key-ambiguous`, exit class `usage`) listing candidates.
 */
export function resolveConfigKey(name: string, fields: readonly FieldSpec[] = configFields): FieldSpec {
  const exact = fields.find((spec) => spec.path === name)
  if (exact) return exact
  const matches = fields.filter((spec) => spec.path.endsWith(`.${name}`))
  if (matches.length === 1) return matches[0]
  if (matches.length > 1) {
    throw new MixscopeError(`config: key "${name}" is ambiguous; it matches ${matches.map((m) => m.path).join(', ')}`,
      'config-key-ambiguous', 'usage')
  }
  const close = nearestKeys(name, fields)
  throw new MixscopeError(`config: unknown key "${name}"${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`,
    'config-key-unknown', 'usage')
}

/** Keys sharing a word with `name` or within edit distance 2 of its last segment (at most 5). */
function nearestKeys(name: string, fields: readonly FieldSpec[]): string[] {
  const leaf = name.split('.').pop() ?? name
  const words = leaf.split('_').filter((w) => w.length > 2)
  return fields
    .map((spec) => spec.path)
    .filter((path) => {
      const pathLeaf = path.split('.').pop() ?? path
      return editDistance(pathLeaf, leaf) <= 2 || words.some((w) => pathLeaf.split('_').includes(w))
    })
    .slice(0, 5)
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]
}

/** Parses a `--set` value: JSON when it is valid JSON, else the text itself. */
export function parseSetValue(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const dtypeAliases: Record<string, string> = {
  'float32': 'float32', 'torch.float32': 'float32', 'fp32': 'float32', 'float': 'float32', 'torch.float': 'float32',
  'bfloat16': 'bfloat16', 'torch.bfloat16': 'bfloat16', 'bf16': 'bfloat16',
}

/**
 * Checks `value` against the field and returns it normalized: enum values are matched case-insensitively
 * (`length` → `LENGTH`), dtype accepts torch spellings (`torch.bfloat16`, `bf16`), integers may be written
 * with Python underscores (`"32_000"`).
 * @throws MixscopeError `config-value-invalid` (exit class `usage`) naming key, value and expected type.
 */
export function checkFieldValue(spec: FieldSpec, value: unknown): unknown {
  const fail = (): never => {
    throw new MixscopeError(`config: ${spec.path} = ${JSON.stringify(value) ?? String(value)} is not a valid value; expected ${describeFieldType(spec)}`,
      'config-value-invalid', 'usage')
  }
  if (value === null || value === undefined) return spec.nullable ? null : fail()
  const t = spec.type
  switch (t.kind) {
    case 'int': {
      const n = typeof value === 'string' && /^-?\d+(_\d+)*$/.test(value) ? Number(value.replaceAll('_', '')) : value
      return typeof n === 'number' && Number.isSafeInteger(n) ? n : fail()
    }
    case 'number': {
      const n = typeof value === 'string' && /^-?\d+(_\d+)*(\.\d+)?([eE][-+]?\d+)?$/.test(value) ? Number(value.replaceAll('_', '')) : value
      return typeof n === 'number' && Number.isFinite(n) ? n : fail()
    }
    case 'bool':
      return typeof value === 'boolean' ? value : fail()
    case 'string':
      return typeof value === 'string' ? value : fail()
    case 'enum': {
      if (typeof value !== 'string') return fail()
      if (spec.path === 'dtype') return dtypeAliases[value.toLowerCase()] ?? fail()
      return t.values.find((v) => v.toLowerCase() === value.toLowerCase()) ?? fail()
    }
    case 'filters':
      if (typeof value === 'string') return value
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : fail()
  }
}

/** Reads a field by dotted path. */
export function getConfigValue(config: PipelineConfig, path: string): unknown {
  let node: unknown = config
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part]
  return node
}

/** Returns a copy of `config` with the field at `path` (a full dotted path) set, without checking. */
function withValue(config: PipelineConfig, path: string, value: unknown): PipelineConfig {
  const copy = structuredClone(config)
  const parts = path.split('.')
  let node = copy as unknown as Record<string, unknown>
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>
  node[parts[parts.length - 1]] = value
  return copy
}

/**
 * Returns a copy of `config` with `key` (resolved as in `resolveConfigKey`) set to the checked `value`.
 * A key naming a group (`fragment_streaming`, `limit`) takes an object and sets each of its entries.
 */
export function setConfigValue(config: PipelineConfig, key: string, value: unknown): PipelineConfig {
  const group = resolveGroup(key)
  if (group !== null) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new MixscopeError(`config: ${group} is a group of fields; expected an object such as {"${configFields.find((s) => s.path.startsWith(`${group}.`))?.path.slice(group.length + 1)}": ...}, got ${JSON.stringify(value)}`,
        'config-value-invalid', 'usage')
    }
    let next = config
    for (const [k, v] of Object.entries(value)) next = setConfigValue(next, `${group}.${k}`, v)
    return next
  }
  const spec = resolveConfigKey(key)
  return withValue(config, spec.path, checkFieldValue(spec, value))
}

/** Full dotted path of the group `key` names (exactly or as the only suffix match), else `null`. */
function resolveGroup(key: string): string | null {
  const groups = new Set<string>()
  for (const spec of configFields) {
    const parts = spec.path.split('.')
    for (let i = 1; i < parts.length; i++) groups.add(parts.slice(0, i).join('.'))
  }
  if (groups.has(key)) return key
  const matches = [...groups].filter((g) => g.endsWith(`.${key}`))
  return matches.length === 1 && !configFields.some((s) => s.path === key || s.path.endsWith(`.${key}`)) ? matches[0] : null
}

/**
 * Splits one `key=value` argument at its first `=` and parses the value (`parseSetValue`).
 * @throws MixscopeError `config-set-syntax` when there is no `=` or the key is empty.
 */
export function parseSetArgument(argument: string): { key: string; value: unknown } {
  const at = argument.indexOf('=')
  if (at <= 0) {
    throw new MixscopeError(`config: --set expects key=value, got ${JSON.stringify(argument)}`, 'config-set-syntax', 'usage')
  }
  return { key: argument.slice(0, at).trim(), value: parseSetValue(argument.slice(at + 1)) }
}

/** Applies `key=value` arguments in order to a copy of `config`. */
export function applySetArguments(config: PipelineConfig, argumentsList: readonly string[]): PipelineConfig {
  let next = config
  for (const argument of argumentsList) {
    const { key, value } = parseSetArgument(argument)
    next = setConfigValue(next, key, value)
  }
  return next
}
