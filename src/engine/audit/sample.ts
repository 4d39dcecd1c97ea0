/**
 * Which rows the audio pass decodes: all of them (`deep`), or a seeded random fraction per language (`sample`).
 */
import { compareUtf8 } from '../core/findings.ts'
import { Mt19937 } from '../random/mt19937.ts'
import type { AuditRow } from './rows/types.ts'

/**
 * Indices into `rows` to decode, ascending.
 * @param fraction share of each language's rows, in (0, 1]; `1` = every row. Each language gets ⌈fraction · n⌉ rows,
 *   chosen by a partial Fisher-Yates shuffle of its rows (dataset order) driven by MT19937(`seed`), languages in
 *   UTF-8 order: the same rows for the same dataset, fraction and seed.
 */
export function selectAudioRows(rows: readonly AuditRow[], fraction: number, seed: number): number[] {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`audit: sample fraction must be in (0, 1], got ${fraction}`)
  if (fraction === 1) return rows.map((_, i) => i)
  const byLanguage = new Map<string, number[]>()
  rows.forEach((r, i) => {
    const list = byLanguage.get(r.language)
    if (list) list.push(i)
    else byLanguage.set(r.language, [i])
  })
  const rng = new Mt19937(seed >>> 0)
  const picked: number[] = []
  for (const language of [...byLanguage.keys()].sort(compareUtf8)) {
    const list = byLanguage.get(language)!.slice()
    const k = Math.ceil(fraction * list.length)
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor((rng.nextUint32() / 2 ** 32) * (list.length - i))
      ;[list[i], list[j]] = [list[j], list[i]]
    }
    picked.push(...list.slice(0, k))
  }
  return picked.sort((a, b) => a - b)
}
