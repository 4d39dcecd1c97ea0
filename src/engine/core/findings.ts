/**
 * Findings: every problem mixscope sees, in the one shape other tools parse (docs/conventions.md "Findings and exit codes").
 */

/** `error`: unreadable data or the reference would crash; `warning`: training silently differs; `info`: worth knowing. */
export type Severity = 'error' | 'warning' | 'info'

/** One problem, as printed by every `--json` output. */
export interface Finding {
  /** Path relative to the dataset root (`/` separators, raw `key=value` segments), or `""` for the dataset as a whole. */
  path: string
  /** 0-based row within the file, counting across row groups; `null` when not about one row. */
  row: number | null
  /** 0-based row group within the file; `null` when not about one row group. */
  row_group: number | null
  /** kebab-case kind, e.g. `missing-column`. */
  kind: string
  severity: Severity
  /** A sentence naming the bad value and what was expected. */
  message: string
}

/** Builds a finding; `row` and `row_group` default to `null`. */
export function finding(
  severity: Severity,
  kind: string,
  path: string,
  message: string,
  where: { row?: number | null; row_group?: number | null } = {},
): Finding {
  return { path, row: where.row ?? null, row_group: where.row_group ?? null, kind, severity, message }
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 }

/**
 * Sorts findings deterministically: by path (UTF-8 byte order), row group, row, severity, kind, message.
 * Findings about the dataset as a whole (`path: ""`) come first.
 */
export function sortFindings(findings: Finding[]): Finding[] {
  return [...findings].sort(compareFindings)
}

/** The order of `sortFindings`: path (UTF-8 bytes), row group, row, severity, kind, message; `0` for equal fields. */
export function compareFindings(a: Finding, b: Finding): number {
  return compareUtf8(a.path, b.path) ||
    (a.row_group ?? -1) - (b.row_group ?? -1) ||
    (a.row ?? -1) - (b.row ?? -1) ||
    severityRank[a.severity] - severityRank[b.severity] ||
    (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
}

/** Whether two findings are equal in every field (what `uniqueFindings` drops). */
export function sameFinding(a: Finding, b: Finding): boolean {
  return a.path === b.path && a.row === b.row && a.row_group === b.row_group && a.kind === b.kind && a.severity === b.severity && a.message === b.message
}

const utf8 = new TextEncoder()
/** A UTF-16 surrogate: the only units whose order differs from UTF-8's. */
const hasSurrogate = /[\uD800-\uDFFF]/

/**
 * Compares two strings by their UTF-8 bytes (docs/conventions.md "Discovery": the order that defines everything downstream).
 * Equivalent to comparing code points, which differs from JS `<` on UTF-16 units for astral characters.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0
  // strings without surrogates compare the same in UTF-16 units and in UTF-8 bytes: the engine's own comparison
  if (!hasSurrogate.test(a) && !hasSurrogate.test(b)) return a < b ? -1 : 1
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const xs = x >= 0xd800 && x <= 0xdfff
    const ys = y >= 0xd800 && y <= 0xdfff
    if (!xs && !ys) return x - y
    // surrogates sort above all other BMP code points in UTF-8 byte order; fall back to encoding
    const ea = utf8.encode(a.slice(i))
    const eb = utf8.encode(b.slice(i))
    const m = Math.min(ea.length, eb.length)
    for (let j = 0; j < m; j++) if (ea[j] !== eb[j]) return ea[j] - eb[j]
    return ea.length - eb.length
  }
  return a.length - b.length
}

/** Drops exact duplicates (all fields equal), keeping the first. */
export function uniqueFindings(findings: Finding[]): Finding[] {
  const seen = new Set<string>()
  return findings.filter((f) => {
    const key = JSON.stringify([f.path, f.row, f.row_group, f.kind, f.severity, f.message])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Domain-prefixed engine error that carries a finding-like location. */
export class MixscopeError extends Error {
  constructor(
    message: string,
    /** What went wrong, kebab-case. */
    readonly kind: string,
    /** Exit code class: `usage` / `io` (exit 2) or `data` (exit 1). */
    readonly exitClass: 'usage' | 'io' | 'data' = 'data',
  ) {
    super(message)
    this.name = 'MixscopeError'
  }
}
