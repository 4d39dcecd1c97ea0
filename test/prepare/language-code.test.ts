/**
 * Language codes → `xxx_Script`. Expected values read from the sources the mapping uses: ISO 639-3 (iso-639-3),
 * CLDR likely subtags and macrolanguage aliases (cldr-core 48), Omnilingual ASR's language list (lang_ids.py).
 */
import { describe, expect, it } from 'vitest'
import { mapLanguageCode } from '../../src/engine/prepare/lang/language-code.ts'

const mapped = (code: string) => {
  const m = mapLanguageCode(code)
  return m.kind === 'mapped' ? m.code : m.kind
}

describe('mapLanguageCode', () => {
  it('maps ISO 639-1, 639-3, 639-2/B, BCP-47, Common Voice and FLEURS codes', () => {
    expect(mapped('en')).toBe('eng_Latn')
    expect(mapped('eng')).toBe('eng_Latn')
    expect(mapped('en-US')).toBe('eng_Latn')
    expect(mapped('en_us')).toBe('eng_Latn') // FLEURS
    expect(mapped('ger')).toBe('deu_Latn') // 639-2/B
    expect(mapped('ja_jp')).toBe('jpn_Jpan')
    expect(mapped('uk_ua')).toBe('ukr_Cyrl')
    expect(mapped('ga-IE')).toBe('gle_Latn') // Common Voice
    expect(mapped('iw')).toBe('heb_Hebr') // deprecated 639-1
  })

  it('uses the tag\'s script, else CLDR\'s likely script for language and region', () => {
    expect(mapped('sr')).toBe('srp_Cyrl')
    expect(mapped('sr-Latn')).toBe('srp_Latn')
    expect(mapped('zh-TW')).toBe('cmn_Hant')
    expect(mapped('pa-PK')).toBe('pan_Arab')
    expect(mapped('pa-IN')).toBe('pan_Guru')
    expect(mapped('ko')).toBe('kor_Hang') // CLDR says Kore; Omnilingual ASR lists kor_Hang only
  })

  it('turns a macrolanguage into the individual language Omnilingual ASR uses', () => {
    expect(mapped('zh')).toBe('cmn_Hans')
    expect(mapped('ar')).toBe('arb_Arab')
    expect(mapped('sw')).toBe('swh_Latn')
    expect(mapped('et')).toBe('ekk_Latn')
  })

  it('says when several codes fit, and which', () => {
    const mn = mapLanguageCode('mn')
    expect(mn.kind).toBe('ambiguous')
    if (mn.kind === 'ambiguous') expect(mn.candidates).toEqual(['mon_Cyrl', 'khk_Cyrl'])
    expect(mapLanguageCode('uz').kind).toBe('ambiguous')
  })

  it('keeps codes already in the reference form and refuses unknown ones', () => {
    expect(mapped('eng_Latn')).toBe('eng_Latn')
    expect(mapped('cmn_Hans')).toBe('cmn_Hans')
    expect(mapLanguageCode('xyz').kind).toBe('unknown')
    expect(mapLanguageCode('zz').kind).toBe('unknown')
    expect(mapLanguageCode('').kind).toBe('unknown')
    expect(mapLanguageCode('english').kind).toBe('unknown')
    const listed = mapLanguageCode('nor_Latn')
    expect(listed.kind === 'mapped' && listed.listed).toBe(false) // a valid code Omnilingual ASR does not list
  })
})
