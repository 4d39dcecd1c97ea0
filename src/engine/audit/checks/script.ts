/**
 * Script check: characters outside the script named by the language code's `_Script` suffix (ISO 15924, e.g.
 * `hin_Deva`, `rus_Cyrl`), by Unicode `Script_Extensions`. Common and Inherited characters (digits, punctuation,
 * spaces, combining marks) are ignored. Catches `hin_Deva` text typed in Latin letters and `rus_Cyrl` words with
 * Latin homoglyphs (`о` vs `o`).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { exampleId, groupRows, rowItem } from '../rows/rows.ts'
import type { AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'

/** ISO 15924 codes that are not Unicode Script values, as the scripts they are written in. */
const compositeScripts: Record<string, string[]> = {
  Hans: ['Han'], Hant: ['Han'], Hani: ['Han'], Jpan: ['Han', 'Hiragana', 'Katakana'], Kore: ['Hangul', 'Han'], Hrkt: ['Hiragana', 'Katakana'],
}

/** Scripts a foreign character is named by, tried in order (anything else is "other"). */
const namedScripts = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Tamil', 'Telugu',
  'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Khmer', 'Myanmar', 'Ethiopic', 'Georgian', 'Armenian', 'Han', 'Hiragana', 'Katakana', 'Hangul']
  .map((name) => ({ name, test: new RegExp(`^\\p{Script=${name}}$`, 'u') }))

const ignorable = /^[\p{Script=Common}\p{Script=Inherited}]$/u

/** A matcher for the script of a language code, or `null` when the code has no known `_Script` suffix. */
export function scriptMatcher(language: string): { script: string; test: (char: string) => boolean } | null {
  const m = /_([A-Z][a-z]{3})$/.exec(language)
  if (!m) return null
  const code = m[1]
  const names = compositeScripts[code] ?? [code]
  try {
    const re = new RegExp(`^[${names.map((n) => `\\p{Script_Extensions=${n}}`).join('')}]$`, 'u')
    return { script: code, test: (c) => re.test(c) }
  } catch {
    return null
  }
}

/** Name of the script of `char` (`Latin`, `Cyrillic`, ..., or `other`). */
export function scriptName(char: string): string {
  return namedScripts.find((s) => s.test.test(char))?.name ?? 'other'
}

/** Foreign characters of one text: counts per script, distinct characters, and whether some sit inside own-script words. */
export function foreignCharacters(text: string, test: (char: string) => boolean): { count: number; scripts: Map<string, number>; chars: string[]; inWord: boolean } {
  const chars = Array.from(text)
  const scripts = new Map<string, number>()
  const distinct = new Set<string>()
  let count = 0
  let inWord = false
  const own = (c: string | undefined) => c !== undefined && !ignorable.test(c) && test(c)
  chars.forEach((c, i) => {
    if (ignorable.test(c) || test(c)) return
    count++
    distinct.add(c)
    const name = scriptName(c)
    scripts.set(name, (scripts.get(name) ?? 0) + 1)
    if (own(chars[i - 1]) || own(chars[i + 1])) inWord = true
  })
  return { count, scripts, chars: [...distinct], inWord }
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * @returns `foreign-script` (warning) per row with characters outside its language's script; `unknown-script-code`
 *   (info) per language code without a usable `_Script` suffix; table `script` per language
 */
export function checkScript(rows: readonly AuditRow[]): CheckResult {
  const items: AuditItem[] = []
  const table: TableRow[] = []
  const byLanguage = groupRows(rows.filter((r) => r.language), (r) => r.language)
  for (const language of [...byLanguage.keys()].sort(compareUtf8)) {
    const list = byLanguage.get(language)!
    const matcher = scriptMatcher(language)
    if (!matcher) {
      items.push({ rows: list.length, samples: 0, corpus: null, language, finding: finding('info', 'unknown-script-code', list[0].path,
        `language code "${language}" has no ISO 15924 _Script suffix mixscope knows (e.g. eng_Latn, hin_Deva): its transcripts' script is not checked`) })
      continue
    }
    let flagged = 0
    let foreign = 0
    const byScript = new Map<string, number>()
    for (const r of list) {
      if (!r.text) continue
      const f = foreignCharacters(r.text, matcher.test)
      if (f.count === 0) continue
      flagged++
      foreign += f.count
      for (const [s, n] of f.scripts) byScript.set(s, (byScript.get(s) ?? 0) + n)
      const scripts = [...f.scripts].map(([s, n]) => `${n} ${s}`).join(', ')
      const shown = f.chars.slice(0, 6).map((c) => `"${c}" ${codePoint(c)}`).join(', ')
      items.push(rowItem(r, 'warning', 'foreign-script',
        `${exampleId(r)} (${language}) has ${f.count} character${f.count > 1 ? 's' : ''} outside ${matcher.script} (${scripts}: ${shown}${f.chars.length > 6 ? ', ...' : ''})` +
        (f.inWord ? '; some sit inside words of the expected script (homoglyphs?)' : '')))
    }
    table.push({ language, script: matcher.script, rows: list.length, rows_with_foreign: flagged, foreign_chars: foreign,
      foreign_scripts: [...byScript].sort((a, b) => compareUtf8(a[0], b[0])).map(([s, n]) => `${s} ${n}`).join(', ') })
  }
  return { items, tables: { script: table } }
}
