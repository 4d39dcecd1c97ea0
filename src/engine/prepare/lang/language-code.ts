/**
 * Language codes of raw corpora (ISO 639-1 `en`, ISO 639-3 `eng`, ISO 639-2/B `ger`, BCP-47 `zh-TW`, `sr-Latn`,
 * Common Voice `pa-IN`, FLEURS `en_us`) → the reference's `xxx_Script` partition values (`eng_Latn`, `cmn_Hant`;
 * docs/reference-pipeline.md §17, omnilingual-asr #79). Sources: ISO 639-3 (npm `iso-639-3`), CLDR likely subtags
 * and language aliases (npm `cldr-core`), and Omnilingual ASR's own language list for macrolanguages.
 */
import likelySubtagsJson from 'cldr-core/supplemental/likelySubtags.json' with { type: 'json' }
import aliasesJson from 'cldr-core/supplemental/aliases.json' with { type: 'json' }
import { iso6393 } from 'iso-639-3'
import { OMNILINGUAL_LANGUAGES } from './omnilingual-languages.ts'
import { FLEURS_NAME_TO_SUBTAG, fleursSubtag } from './fleurs.ts'

/**
 * Codes corpora use with a meaning BCP-47 does not give them. Common Voice's `zh-HK` locale is Cantonese
 * ("Chinese (Hong Kong)", ~108 h of Cantonese speech), not Mandarin in Hong Kong; `zh-yue` is the old Cantonese tag.
 */
const CORPUS_CODES: Readonly<Record<string, { code: string; note: string }>> = {
  'zh-hk': { code: 'yue_Hant', note: 'Common Voice\'s zh-HK locale is Cantonese' },
  'zh-yue': { code: 'yue_Hant', note: 'zh-yue is the grandfathered tag for Cantonese' },
}

/** Language names (FLEURS' `language` column, MLS config names such as `german`), lower case → ISO 639-3 codes. */
const byName = new Map<string, string[]>()

/** What a code maps to. */
export type LanguageMapping =
  /** One answer. `note`: how it was reached when not literal (script guessed, macrolanguage resolved). */
  | { kind: 'mapped'; code: string; note: string | null; listed: boolean }
  /** Several answers fit: the user must choose (`--language from=to`). */
  | { kind: 'ambiguous'; candidates: string[]; reason: string }
  /** Not a language code mixscope knows. */
  | { kind: 'unknown'; reason: string }

/** `xxx_Xxxx`, optionally with the dialect suffix some Omnilingual codes carry (`ell_Grek_cypr1249`). */
export const PARTITION_LANGUAGE = /^[a-z]{3}_[A-Z][a-z]{3}(_[a-z0-9]+)?$/

const likely = (likelySubtagsJson as { supplemental: { likelySubtags: Record<string, string> } }).supplemental.likelySubtags
const aliases = (aliasesJson as { supplemental: { metadata: { alias: { languageAlias: Record<string, { _reason: string; _replacement: string }> } } } })
  .supplemental.metadata.alias.languageAlias

interface Iso { id: string; part1: string | null; scope: string }
const byId = new Map<string, Iso>()
const byPart1 = new Map<string, Iso>()
const byPart2B = new Map<string, Iso>()
for (const l of iso6393) {
  const entry: Iso = { id: l.iso6393, part1: l.iso6391 ?? null, scope: l.scope }
  byId.set(l.iso6393, entry)
  if (l.iso6391) byPart1.set(l.iso6391, entry)
  if (l.iso6392B && l.iso6392B !== l.iso6393) byPart2B.set(l.iso6392B, entry)
}

for (const l of iso6393) {
  if (l.type === 'special') continue
  const key = l.name.toLowerCase()
  byName.set(key, [...(byName.get(key) ?? []), l.iso6393])
}

/** Individual languages CLDR folds into each macrolanguage (`cmn` → `zh`), keyed by the macrolanguage's CLDR code. */
const members = new Map<string, string[]>()
for (const [from, { _reason, _replacement }] of Object.entries(aliases)) {
  if (_reason !== 'macrolanguage' || !/^[a-z]{3}$/.test(from)) continue
  const list = members.get(_replacement) ?? []
  list.push(from)
  members.set(_replacement, list)
}

/** Omnilingual ASR's codes per ISO 639-3 language. */
const listedByLanguage = new Map<string, string[]>()
for (const c of OMNILINGUAL_LANGUAGES) {
  const list = listedByLanguage.get(c.slice(0, 3)) ?? []
  list.push(c)
  listedByLanguage.set(c.slice(0, 3), list)
}

/** The ISO 639-3 entry for a 2- or 3-letter language subtag (deprecated 2-letter codes through CLDR aliases). */
function isoEntry(subtag: string): Iso | null {
  if (subtag.length === 2) {
    const direct = byPart1.get(subtag)
    if (direct) return direct
    const alias = aliases[subtag]
    if (alias && alias._reason === 'deprecated' && /^[a-z]{2,3}$/.test(alias._replacement)) return isoEntry(alias._replacement)
    return null
  }
  return byId.get(subtag) ?? byPart2B.get(subtag) ?? null
}

/** CLDR's language subtag for an ISO entry (2-letter where there is one). */
function cldrCode(entry: Iso): string {
  return entry.part1 ?? entry.id
}

/** The likely script of `language` (CLDR code), tried with the region first, then through a macrolanguage alias. */
function likelyScript(language: string, region: string | null): string | null {
  const tries = [region ? `${language}-${region}` : null, language]
  const alias = aliases[language]
  if (alias && /^[a-z]{2,3}$/.test(alias._replacement)) tries.push(region ? `${alias._replacement}-${region}` : null, alias._replacement)
  for (const t of tries) {
    if (!t) continue
    const full = likely[t]
    const script = full?.split('-')[1]
    if (script && /^[A-Z][a-z]{3}$/.test(script)) return script
  }
  return null
}

/** Parsed BCP-47-ish tag: language, script, region (variants ignored). */
function parseTag(code: string): { language: string; script: string | null; region: string | null } | null {
  const parts = code.trim().replace(/_/g, '-').split('-').filter(Boolean)
  if (parts.length === 0 || !/^[a-zA-Z]{2,3}$/.test(parts[0])) return null
  let script: string | null = null
  let region: string | null = null
  for (const p of parts.slice(1)) {
    if (!script && !region && /^[a-zA-Z]{4}$/.test(p)) script = p[0].toUpperCase() + p.slice(1).toLowerCase()
    else if (!region && /^([a-zA-Z]{2}|\d{3})$/.test(p)) region = p.toUpperCase()
  }
  return { language: parts[0].toLowerCase(), script, region }
}

/**
 * Maps one input language code to the reference's `xxx_Script` form.
 * - `xxx_Xxxx` codes (already the reference's form) are kept.
 * - The script is the tag's own, else CLDR's likely script for the language (and region).
 * - A macrolanguage (`zh`, `ar`, `sw`) becomes the individual language Omnilingual ASR lists for that script
 *   (`cmn_Hans`, `arb_Arab`, `swh_Latn`); when the list holds both the macrolanguage and a member (`mon_Cyrl`,
 *   `khk_Cyrl`), or several members, the mapping is ambiguous.
 */
export function mapLanguageCode(input: string): LanguageMapping {
  const code = input.trim()
  if (PARTITION_LANGUAGE.test(code)) {
    if (!byId.has(code.slice(0, 3))) return { kind: 'unknown', reason: `"${code.slice(0, 3)}" is not an ISO 639-3 code` }
    return { kind: 'mapped', code, note: null, listed: OMNILINGUAL_LANGUAGES.has(code) }
  }
  const special = CORPUS_CODES[code.toLowerCase().replace(/_/g, '-')]
  if (special) return { kind: 'mapped', code: special.code, note: special.note, listed: OMNILINGUAL_LANGUAGES.has(special.code) }
  const fleurs = fleursSubtag(code)
  if (fleurs) return withNote(mapTag(fleurs, input), `FLEURS config ${code.toLowerCase()}: language ${fleurs}`)
  const fleursName = Object.entries(FLEURS_NAME_TO_SUBTAG).find(([name]) => name.toLowerCase() === code.toLowerCase())
  if (fleursName) return withNote(mapTag(fleursName[1], input), `FLEURS language name "${fleursName[0]}" (${fleursName[1]})`)
  if (!parseTag(code) || !isoEntry(parseTag(code)!.language)) {
    const named = byName.get(code.toLowerCase())
    if (named?.length === 1) return withNote(mapTag(named[0], input), `ISO 639-3 name of ${named[0]}`)
    if (named && named.length > 1) return { kind: 'ambiguous', candidates: [], reason: `"${input}" names several ISO 639-3 languages (${named.join(', ')})` }
  }
  return mapTag(code, input)
}

/** `m` with `note` in front of its own note. */
function withNote(m: LanguageMapping, note: string): LanguageMapping {
  if (m.kind === 'mapped') return { ...m, note: m.note ? `${note}; ${m.note}` : note }
  return { ...m, reason: `${note}: ${m.reason}` }
}

/** Maps a BCP-47-ish tag (`input`: what the user wrote, for messages). */
function mapTag(code: string, input: string): LanguageMapping {
  const tag = parseTag(code)
  if (!tag) return { kind: 'unknown', reason: `"${input}" is not an ISO 639 or BCP-47 language code` }
  const entry = isoEntry(tag.language)
  if (!entry) return { kind: 'unknown', reason: `"${tag.language}" is not an ISO 639-1, 639-2/B or 639-3 code` }
  const likelyOne = tag.script ? null : likelyScript(cldrCode(entry), tag.region)
  // CLDR's Kore (Hangul + Han) for Korean, where Omnilingual ASR writes Korean as Hang
  const script = tag.script ?? (likelyOne === 'Kore' && OMNILINGUAL_LANGUAGES.has(`${entry.id}_Hang`) ? 'Hang' : likelyOne)
  if (!script) return { kind: 'ambiguous', candidates: [], reason: `no script is known for "${input}" (ISO 639-3 ${entry.id}): pass the full code, e.g. ${entry.id}_Latn` }
  const guessed = tag.script ? null : `script ${script} from CLDR likely subtags`
  const literal = `${entry.id}_${script}`
  const memberCodes = entry.scope === 'macrolanguage' ? (members.get(cldrCode(entry)) ?? []) : []
  const listedMembers = memberCodes.map((m) => `${m}_${script}`).filter((c) => OMNILINGUAL_LANGUAGES.has(c))
  const literalListed = OMNILINGUAL_LANGUAGES.has(literal)
  if (listedMembers.length === 0) {
    // a script guessed from the language alone that Omnilingual ASR does not use for it, where it lists exactly one
    // code for the language (ko: Kore → kor_Hang); a region (pa-PK → Arab) is a real signal and is kept
    const sameLanguage = guessed && !tag.region && !literalListed ? listedByLanguage.get(entry.id) ?? [] : []
    if (sameLanguage.length === 1) {
      return { kind: 'mapped', code: sameLanguage[0], note: `CLDR's likely script ${script} is not among Omnilingual ASR's codes; it lists ${sameLanguage[0]}`, listed: true }
    }
    return { kind: 'mapped', code: literal, note: guessed, listed: literalListed }
  }
  if (listedMembers.length === 1 && !literalListed) {
    const why = `macrolanguage ${entry.id} → ${listedMembers[0].slice(0, 3)}, the individual language Omnilingual ASR lists`
    return { kind: 'mapped', code: listedMembers[0], note: guessed ? `${guessed}; ${why}` : why, listed: true }
  }
  const candidates = [...(literalListed ? [literal] : []), ...listedMembers]
  return { kind: 'ambiguous', candidates, reason: `"${input}" is the macrolanguage ${entry.id}; Omnilingual ASR lists ${candidates.join(' and ')}` }
}
