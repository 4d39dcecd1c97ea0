/** A table cell naming a language: its code, and its English name when the runtime knows one. */
import { languageName } from '../lib/language-names.ts'

export function LanguageCell({ code }: { code: string }) {
  const name = languageName(code)
  return (
    <td className="language">
      <code>{code}</code>
      {name && <span className="language-name"> {name}</span>}
    </td>
  )
}
