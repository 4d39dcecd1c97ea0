/**
 * Text normalization against the reference's rules (docs/reference-pipeline.md §17). The expected strings in
 * normalize-cases.json were derived by hand from the rules (Omnilingual ASR text_tools.py + norm_config_module.py
 * + punctuations.lst at 81f51e2), then checked once against that Python source run as is.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { normalizeText, type NormalizeOptions } from '../../src/engine/text/normalize.ts'
import { PUNCTUATION, DELETED } from '../../src/engine/text/normalize-data.ts'

interface Case { why: string; input: string; options?: NormalizeOptions; expected: string }
const cases = JSON.parse(readFileSync(new URL('./normalize-cases.json', import.meta.url), 'utf8')) as Case[]

describe('normalizeText', () => {
  for (const c of cases) {
    it(c.why, () => expect(normalizeText(c.input, c.options)).toBe(c.expected))
  }

  it('turns every punctuation character into a space and deletes every deletion character', () => {
    const expand = (specs: readonly (number | readonly [number, number])[]) => specs.flatMap((s) => {
      if (typeof s === 'number') return [s]
      return Array.from({ length: s[1] - s[0] + 1 }, (_, i) => s[0] + i)
    })
    for (const cp of expand(PUNCTUATION)) {
      const ch = String.fromCodePoint(cp)
      // (a space before: a curly apostrophe between two letters becomes ' instead)
      // characters NFKC changes (full-width forms, ½, ﹐ ...) are tested through what they fold to
      if (ch.normalize('NFKC') !== ch) continue
      expect(normalizeText(`ab ${ch}cd`), `U+${cp.toString(16)}`).toBe("ab cd")
    }
    for (const cp of expand(DELETED)) expect(normalizeText(`ab${String.fromCodePoint(cp)}cd`), `U+${cp.toString(16)}`).toBe('abcd')
  })

  it('keeps # (Omnilingual ASR skips that line of punctuations.lst) and letters of every script', () => {
    expect(normalizeText('a#b')).toBe('a#b')
    expect(normalizeText('Ελληνικά ΟΔΟΣ')).toBe('ελληνικά οδος'.replace(/σ$/, 'ς'))
  })
})
