/**
 * Language names for Omnilingual codes (`swh_Latn` → `Swahili (Latin)`) via Intl.DisplayNames,
 * falling back to the code itself when the runtime knows no name for it.
 */

const cache = new Map<string, string | null>()
let displayNames: Intl.DisplayNames | null | undefined

function names(): Intl.DisplayNames | null {
  if (displayNames === undefined) {
    try {
      displayNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
    } catch {
      displayNames = null
    }
  }
  return displayNames
}

/**
 * The English name of a dataset language code, or `null` when unknown.
 * @param code an Omnilingual code (`<ISO 639-3>_<ISO 15924>`, e.g. `cmn_Hans`) or any BCP 47 tag
 */
export function languageName(code: string): string | null {
  const known = cache.get(code)
  if (known !== undefined) return known
  let name: string | null = null
  try {
    const tag = code.replace(/_/g, '-')
    const found = names()?.of(tag)
    name = found && found.toLowerCase() !== tag.toLowerCase() ? found : null
  } catch {
    name = null // not a well-formed tag
  }
  cache.set(code, name)
  return name
}

/** `Swahili (Latin)`, or the code itself when no name is known. */
export function languageLabel(code: string): string {
  return languageName(code) ?? code
}

/**
 * The BCP 47 tag of an Omnilingual code for an element's `lang` attribute: ICU's canonical form, which takes the
 * shortest ISO 639 code and the macrolanguage (`deu_Latn` → `de-Latn`, `swh_Latn` → `sw-Latn`, `cmn_Hans` →
 * `zh-Hans`); `undefined` for a code that is not `<3 letters>_<Script>` or that the runtime rejects.
 */
export function bcp47Tag(code: string | undefined): string | undefined {
  if (!code || !/^[a-z]{2,3}_[A-Z][a-z]{3}$/.test(code)) return undefined
  try {
    return Intl.getCanonicalLocales(code.replace('_', '-'))[0]
  } catch {
    return undefined
  }
}
