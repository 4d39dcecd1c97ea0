/**
 * Script check: characters outside the script named by the language code's `_Script` suffix (ISO 15924, e.g.
 * `hin_Deva`, `rus_Cyrl`), by Unicode `Script_Extensions`. Common and Inherited characters (digits, punctuation,
 * spaces, combining marks) are ignored. Catches `hin_Deva` text typed in Latin letters and `rus_Cyrl` words with
 * Latin homoglyphs (`о` vs `o`).
 */
import { compareUtf8, finding } from '../../core/findings.ts'
import { exampleId, rowItem } from '../rows/rows.ts'
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

/** What the script check knows of a language's script. */
export interface ScriptMatcher {
  /** The ISO 15924 code. */
  script: string
  /** Whether one character is of the script. */
  test: (char: string) => boolean
  /** Whether every character of `text` is of the script, Common or Inherited (one regex over the whole text). */
  clean: (text: string) => boolean
}

/** A matcher for the script of a language code, or `null` when the code has no known `_Script` suffix. */
export function scriptMatcher(language: string): ScriptMatcher | null {
  const m = /_([A-Z][a-z]{3})$/.exec(language)
  if (!m) return null
  const code = m[1]
  const names = compositeScripts[code] ?? [code]
  try {
    const own = names.map((n) => `\\p{Script_Extensions=${n}}`).join('')
    const re = new RegExp(`^[${own}]$`, 'u')
    const whole = new RegExp(`^[${own}\\p{Script=Common}\\p{Script=Inherited}]*$`, 'u')
    return { script: code, test: (c) => re.test(c), clean: (text) => whole.test(text) }
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
  const tally = new ScriptTally()
  rows.forEach((r, i) => tally.add(r, r.text, i))
  return tally.result()
}

/** One language's counts. */
interface LanguageTally {
  matcher: ScriptMatcher | null
  rows: number
  flagged: number
  foreign: number
  byScript: Map<string, number>
  /** Position of the language's first row, and its path. */
  first: number
  path: string
}

/**
 * `checkScript` one row at a time, in any order (a pass over 10^7 rows keeps no transcript): per-language counts
 * and the row findings; `result()` is what `checkScript` returns for the same rows.
 */
export class ScriptTally {
  private readonly languages = new Map<string, LanguageTally>()
  /** Row findings with their rows' positions (the result lists them in dataset order), unless `sink` takes them. */
  private readonly items: { at: number; item: AuditItem }[] = []

  /** @param sink takes each row finding as it is found (the audit's findings collector), instead of the result */
  constructor(private readonly sink?: (item: AuditItem) => void) {}

  /**
   * Adds one row.
   * @param at the row's position in dataset order (the language's finding names the path of its first row)
   */
  add(row: Omit<AuditRow, 'text' | 'file'>, text: string | null, at: number): void {
    const { language } = row
    if (!language) return
    let l = this.languages.get(language)
    if (!l) this.languages.set(language, l = { matcher: scriptMatcher(language), rows: 0, flagged: 0, foreign: 0, byScript: new Map(), first: at, path: row.path })
    l.rows++
    if (at < l.first) { l.first = at; l.path = row.path }
    const { matcher } = l
    if (!matcher || !text || matcher.clean(text)) return
    const f = foreignCharacters(text, matcher.test)
    if (f.count === 0) return
    l.flagged++
    l.foreign += f.count
    for (const [s, n] of f.scripts) l.byScript.set(s, (l.byScript.get(s) ?? 0) + n)
    const scripts = [...f.scripts].map(([s, n]) => `${n} ${s}`).join(', ')
    const shown = f.chars.slice(0, 6).map((c) => `"${c}" ${codePoint(c)}`).join(', ')
    this.keep(at, rowItem(row, 'warning', 'foreign-script',
      `${exampleId(row)} (${language}) has ${f.count} character${f.count > 1 ? 's' : ''} outside ${matcher.script} (${scripts}: ${shown}${f.chars.length > 6 ? ', ...' : ''})` +
      (f.inWord ? '; some sit inside words of the expected script (homoglyphs?)' : '')))
  }

  private keep(at: number, item: AuditItem): void {
    if (this.sink) this.sink(item)
    else this.items.push({ at, item })
  }

  /** The check's result over the rows added (its row findings only when no `sink` took them). */
  result(): CheckResult {
    const items = this.items.sort((a, b) => a.at - b.at).map((x) => x.item)
    const table: TableRow[] = []
    for (const language of [...this.languages.keys()].sort(compareUtf8)) {
      const l = this.languages.get(language)!
      if (!l.matcher) {
        items.push({ rows: l.rows, samples: 0, corpus: null, language, finding: finding('info', 'unknown-script-code', l.path,
          `language code "${language}" has no ISO 15924 _Script suffix mixscope knows (e.g. eng_Latn, hin_Deva): its transcripts' script is not checked`) })
        continue
      }
      table.push({ language, script: l.matcher.script, rows: l.rows, rows_with_foreign: l.flagged, foreign_chars: l.foreign,
        foreign_scripts: [...l.byScript].sort((a, b) => compareUtf8(a[0], b[0])).map(([s, n]) => `${s} ${n}`).join(', ') })
    }
    return { items, tables: { script: table } }
  }
}
