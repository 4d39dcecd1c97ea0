/**
 * `partition_filters` compiled and evaluated against one partition's hive keys (docs/reference-pipeline.md §3).
 *
 * Value comparison (a documented choice): pyarrow types int-looking partition values as `int32`
 * (`infer_dictionary=True`, docs/reference-pipeline.md §2, §21), so `pc.field("year") == 2020` matches folder `year=2020`
 * and ordering is numeric there. mixscope keeps keys as strings and compares a key with a literal
 * numerically when both are integers written in decimal (`"007"` equals `7`), else as strings in code point
 * order. Where pyarrow would raise on a type mismatch (an int32 key against a string literal), mixscope
 * compares the texts instead. Missing keys and `__HIVE_DEFAULT_PARTITION__` are null; logic is Kleene
 * (three-valued), and a partition is kept only when the filter is true, as in `Table.filter`.
 */

import { compareUtf8 } from '../../core/findings.ts'
import { parseFilterString, type FilterExpr, type FilterOperand, type FilterScalar } from './partition-filter-parse.ts'
import type { PartitionFiltersSetting } from './types.ts'


/** Hive keys of one partition folder; `null`/absent = null value. */
export type PartitionKeys = Readonly<Record<string, string | null | undefined>>

/** A compiled `partition_filters` setting. */
export interface PartitionFilter {
  /** AND of all configured strings. */
  expr: FilterExpr
  /** Partition keys the filter references, sorted. */
  fields: string[]
  /** True when the filter keeps a partition with these keys. */
  matches(keys: PartitionKeys): boolean
}

/**
 * Compiles a `partition_filters` setting (a string or a list of strings AND-ed); `null` for no filter.
 * @throws MixscopeError `partition-filter-invalid` for text outside the supported subset.
 */
export function compilePartitionFilters(setting: PartitionFiltersSetting): PartitionFilter | null {
  if (setting === null) return null
  const strings = typeof setting === 'string' ? [setting] : setting
  if (strings.length === 0) return null
  const parts = strings.map(parseFilterString)
  const expr: FilterExpr = parts.length === 1 ? parts[0] : { kind: 'and', items: parts }
  return { expr, fields: [...filterFields(expr)].sort(), matches: (keys) => evaluateFilter(expr, keys) === true }
}

/** Partition keys an expression references. */
export function filterFields(expr: FilterExpr, into = new Set<string>()): Set<string> {
  switch (expr.kind) {
    case 'compare':
      for (const side of [expr.left, expr.right]) if (side.kind === 'field') into.add(side.name)
      break
    case 'in': into.add(expr.field); break
    case 'and': case 'or': for (const item of expr.items) filterFields(item, into); break
    case 'not': filterFields(expr.item, into); break
  }
  return into
}

const hiveNull = '__HIVE_DEFAULT_PARTITION__'
const decimalInteger = /^[-+]?\d+$/

function operandValue(operand: FilterOperand, keys: PartitionKeys): string | null {
  if (operand.kind === 'scalar') return scalarText(operand.value)
  const value = keys[operand.name]
  return value === undefined || value === null || value === hiveNull ? null : value
}

function scalarText(value: FilterScalar): string | null {
  if (value === null) return null
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value)
}

/** Compares two partition values: numerically when both are decimal integers, else by code point. */
function comparePartitionValues(a: string, b: string): number {
  if (decimalInteger.test(a) && decimalInteger.test(b)) {
    const x = BigInt(a)
    const y = BigInt(b)
    return x < y ? -1 : x > y ? 1 : 0
  }
  return compareUtf8(a, b)
}

/** Evaluates with Kleene logic: `true`, `false` or `null` (unknown, from null keys). */
export function evaluateFilter(expr: FilterExpr, keys: PartitionKeys): boolean | null {
  switch (expr.kind) {
    case 'compare': {
      const a = operandValue(expr.left, keys)
      const b = operandValue(expr.right, keys)
      if (a === null || b === null) return null
      const c = comparePartitionValues(a, b)
      switch (expr.op) {
        case '==': return c === 0
        case '!=': return c !== 0
        case '<': return c < 0
        case '>': return c > 0
        case '<=': return c <= 0
        case '>=': return c >= 0
      }
      return null
    }
    case 'in': {
      const value = operandValue({ kind: 'field', name: expr.field }, keys)
      if (value === null) return expr.values.includes(null)
      return expr.values.some((v) => { const t = scalarText(v); return t !== null && comparePartitionValues(value, t) === 0 })
    }
    case 'and': {
      let unknown = false
      for (const item of expr.items) {
        const r = evaluateFilter(item, keys)
        if (r === false) return false
        if (r === null) unknown = true
      }
      return unknown ? null : true
    }
    case 'or': {
      let unknown = false
      for (const item of expr.items) {
        const r = evaluateFilter(item, keys)
        if (r === true) return true
        if (r === null) unknown = true
      }
      return unknown ? null : false
    }
    case 'not': {
      const r = evaluateFilter(expr.item, keys)
      return r === null ? null : !r
    }
  }
}
