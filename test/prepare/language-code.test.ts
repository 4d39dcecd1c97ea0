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

  it('maps corpus conventions, FLEURS configs and language names to the codes Omnilingual ASR lists', () => {
    expect(mapped('zh-HK')).toBe('yue_Hant') // Common Voice's Cantonese
    expect(mapped('yue')).toBe('yue_Hant')
    expect(mapped('ko_kr')).toBe('kor_Hang') // FLEURS: the language, not the recording locale's script
    expect(mapped('ko-KR')).toBe('kor_Hang')
    expect(mapped('sd_in')).toBe('snd_Arab')
    expect(mapped('cmn_hans_cn')).toBe('cmn_Hans')
    expect(mapped('yue_hant_hk')).toBe('yue_Hant')
    expect(mapped('English')).toBe('eng_Latn') // FLEURS' language column
    expect(mapped('Cantonese Chinese')).toBe('yue_Hant')
    expect(mapped('Sorani-Kurdish')).toBe('ckb_Arab')
    expect(mapped('german')).toBe('deu_Latn') // MLS config names, as the reference maps them
    expect(mapped('polish')).toBe('pol_Latn')
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
    expect(mapLanguageCode('elvish').kind).toBe('unknown')
    expect(mapped('english')).toBe('eng_Latn') // a language name (FLEURS, MLS)
    const listed = mapLanguageCode('nor_Latn')
    expect(listed.kind === 'mapped' && listed.listed).toBe(false) // a valid code Omnilingual ASR does not list
  })
})

describe('FLEURS', () => {
  it('maps every one of its 102 configs to a code Omnilingual ASR lists, or stops on a real ambiguity', async () => {
    const { FLEURS_CONFIGS, FLEURS_NAME_TO_SUBTAG } = await import('../../src/engine/prepare/lang/fleurs.ts')
    expect(FLEURS_CONFIGS.length).toBe(102)
    expect(Object.keys(FLEURS_NAME_TO_SUBTAG).length).toBe(102)
    const ambiguous: string[] = []
    for (const c of FLEURS_CONFIGS) {
      const m = mapLanguageCode(c)
      if (m.kind === 'ambiguous') { ambiguous.push(c); continue }
      expect(m.kind === 'mapped' && m.listed, `${c} → ${JSON.stringify(m)}`).toBe(true)
    }
    // macrolanguages FLEURS does not narrow down, where Omnilingual ASR lists the macrolanguage and a member
    expect(ambiguous).toEqual(['ff_sn', 'mn_mn', 'ps_af', 'uz_uz'])
    // the reference's own FLEURS mapping (OA:hf_dataset_ingestion_example.py FleursTextProcessor.lang_mapping)
    expect(['tr_tr', 'ja_jp', 'en_us', 'fr_fr', 'uk_ua'].map(mapped)).toEqual(['tur_Latn', 'jpn_Jpan', 'eng_Latn', 'fra_Latn', 'ukr_Cyrl'])
    // and its MLS one (MLSTextProcessor.lang_mapping)
    expect(['german', 'dutch', 'french', 'spanish', 'italian', 'portuguese', 'polish'].map(mapped))
      .toEqual(['deu_Latn', 'nld_Latn', 'fra_Latn', 'spa_Latn', 'ita_Latn', 'por_Latn', 'pol_Latn'])
  })
})
