/**
 * prepare's options read and checked (`--language`, `--split-map`, `--corpus`), partition values made safe as folder
 * names, and the fingerprint of a plan.
 */
import { MixscopeError } from '../core/findings.ts'
import { PARTITION_LANGUAGE } from './lang/language-code.ts'
import { recognizeSplit } from './inputs/input-files.ts'

/** `--language` values: one for every row, and/or `code=xxx_Script` decisions. @throws Error on a malformed value */
export function parseLanguageOptions(values: readonly string[] = []): { all: string | null; decisions: Map<string, string> } {
  let all: string | null = null
  const decisions = new Map<string, string>()
  for (const v of values) {
    const eq = v.indexOf('=')
    if (eq >= 0) {
      const from = v.slice(0, eq).trim()
      const to = v.slice(eq + 1).trim()
      if (!from || !PARTITION_LANGUAGE.test(to)) throw new Error(`prepare: --language ${JSON.stringify(v)}: expected code=xxx_Script (e.g. mn=khk_Cyrl)`)
      decisions.set(from, to)
    } else {
      if (all !== null) throw new Error(`prepare: --language given twice for every row (${all}, ${v}); use code=xxx_Script to decide one input code`)
      all = v.trim()
    }
  }
  return { all, decisions }
}

/** Longest partition value `prepare` writes, in code points (a folder name `corpus=<value>` stays far below 255 bytes). */
export const maxPartitionValueLength = 100

/**
 * A value from the input made safe as a hive folder value and a TSV cell: `/`, `\`, `=`, control characters (TAB,
 * newline, NUL…) and line separators become `_`, leading `.`/`_` go (a folder the reference would ignore, or `..`),
 * and a value longer than `maxPartitionValueLength` keeps its start plus a hash of the whole, so two long names stay
 * apart. Empty when nothing is left.
 */
export function partitionValue(value: string): string {
  let v = value.trim().replace(/[\p{Cc}\u2028\u2029/\\=]+/gu, '_').replace(/^[._]+/, '')
  const chars = [...v]
  if (chars.length > maxPartitionValueLength) v = `${chars.slice(0, maxPartitionValueLength - 9).join('')}_${fingerprint(value)}`
  return v
}

/** A corpus value as a folder name can carry it (`partitionValue`), or null when nothing is left. */
export function corpusValue(value: string | null | undefined): string | null {
  return partitionValue(value ?? '') || null
}

/**
 * `--split-map` values `FROM=TO`: an input split name (any case) → `train`, `dev` or `test` (or a name that is one,
 * `validation` → `dev`). @throws MixscopeError (usage) on a malformed value
 */
export function parseSplitMap(values: readonly string[] = []): Map<string, 'train' | 'dev' | 'test'> {
  const map = new Map<string, 'train' | 'dev' | 'test'>()
  for (const v of values) {
    const eq = v.indexOf('=')
    const from = eq < 0 ? '' : v.slice(0, eq).trim().toLowerCase()
    const to = eq < 0 ? null : recognizeSplit(v.slice(eq + 1))
    if (!from || !to) throw new MixscopeError(`prepare: --split-map ${JSON.stringify(v)}: expected NAME=train|dev|test (e.g. 9_hours=train)`, 'bad-split-map', 'usage')
    map.set(from, to)
  }
  return map
}

/** Small FNV-1a over strings fed one after the other (as if joined): the plan's fingerprint. */
export class Fingerprint {
  private h = 0x811c9dc5
  private g = 0x01000193

  add(text: string): this {
    let { h, g } = this
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
      g = Math.imul(g ^ text.charCodeAt(i), 0x5bd1e995)
    }
    this.h = h
    this.g = g
    return this
  }

  hex(): string {
    return (this.h >>> 0).toString(16).padStart(8, '0') + (this.g >>> 0).toString(16).padStart(8, '0')
  }
}

/** `Fingerprint` of one string (a resumed run must be the same plan). */
export function fingerprint(text: string): string {
  return new Fingerprint().add(text).hex()
}
