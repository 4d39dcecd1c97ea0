/** Which language a finding is about, for the language focus (Audit and Mixture lists). */
import type { Finding } from '../../engine/index.ts'

/** The `language=` key of a finding's path (`null` for findings about the dataset or the TSV). */
export function languageOf(f: Pick<Finding, 'path'>): string | null {
  const m = /(?:^|\/)language=([^/]+)/.exec(f.path)
  if (!m) return null
  try { return decodeURIComponent(m[1]) } catch { return m[1] }
}

/**
 * The findings a language focus keeps: those about a focused language and those about no single language (the
 * dataset, a corpus, the TSV); all of them when nothing is focused.
 */
export function findingsInFocus<F extends Pick<Finding, 'path'>>(findings: readonly F[], focus: ReadonlySet<string>): readonly F[] {
  if (focus.size === 0) return findings
  return findings.filter((f) => { const l = languageOf(f); return l === null || focus.has(l) })
}
