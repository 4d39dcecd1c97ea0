/**
 * FLEURS' 102 configs and the English language names its `language` column holds, transcribed as data from the
 * FLEURS loader's tables `_FLEURS_LANG_TO_ID` (name → language subtag) and `_FLEURS_LANG` (configs: lower-case,
 * `_`-separated BCP-47 tags) as published in tensorflow/datasets `xtreme_s.py` (the same tables as the
 * Hugging Face `google/fleurs` loader). A config's region is FLEURS' recording locale, not a script signal: the
 * language subtag (`ko`, `sd`, `cmn_hans`) is what `mapLanguageCode` maps (`ko_kr` → `kor_Hang`, `sd_in` →
 * `snd_Arab`, the codes Omnilingual ASR lists).
 */

/** FLEURS language name → its language subtag (with the script for the two Chinese configs). */
export const FLEURS_NAME_TO_SUBTAG: Readonly<Record<string, string>> = {
  Afrikaans: 'af', Amharic: 'am', Arabic: 'ar', Armenian: 'hy', Assamese: 'as', Asturian: 'ast', Azerbaijani: 'az',
  Belarusian: 'be', Bengali: 'bn', Bosnian: 'bs', Bulgarian: 'bg', Burmese: 'my', Catalan: 'ca', Cebuano: 'ceb',
  'Mandarin Chinese': 'cmn_hans', 'Cantonese Chinese': 'yue_hant', Croatian: 'hr', Czech: 'cs', Danish: 'da',
  Dutch: 'nl', English: 'en', Estonian: 'et', Filipino: 'fil', Finnish: 'fi', French: 'fr', Fula: 'ff',
  Galician: 'gl', Ganda: 'lg', Georgian: 'ka', German: 'de', Greek: 'el', Gujarati: 'gu', Hausa: 'ha', Hebrew: 'he',
  Hindi: 'hi', Hungarian: 'hu', Icelandic: 'is', Igbo: 'ig', Indonesian: 'id', Irish: 'ga', Italian: 'it',
  Japanese: 'ja', Javanese: 'jv', Kabuverdianu: 'kea', Kamba: 'kam', Kannada: 'kn', Kazakh: 'kk', Khmer: 'km',
  Korean: 'ko', Kyrgyz: 'ky', Lao: 'lo', Latvian: 'lv', Lingala: 'ln', Lithuanian: 'lt', Luo: 'luo',
  Luxembourgish: 'lb', Macedonian: 'mk', Malay: 'ms', Malayalam: 'ml', Maltese: 'mt', Maori: 'mi', Marathi: 'mr',
  Mongolian: 'mn', Nepali: 'ne', 'Northern-Sotho': 'nso', Norwegian: 'nb', Nyanja: 'ny', Occitan: 'oc', Oriya: 'or',
  Oromo: 'om', Pashto: 'ps', Persian: 'fa', Polish: 'pl', Portuguese: 'pt', Punjabi: 'pa', Romanian: 'ro',
  Russian: 'ru', Serbian: 'sr', Shona: 'sn', Sindhi: 'sd', Slovak: 'sk', Slovenian: 'sl', Somali: 'so',
  'Sorani-Kurdish': 'ckb', Spanish: 'es', Swahili: 'sw', Swedish: 'sv', Tajik: 'tg', Tamil: 'ta', Telugu: 'te',
  Thai: 'th', Turkish: 'tr', Ukrainian: 'uk', Umbundu: 'umb', Urdu: 'ur', Uzbek: 'uz', Vietnamese: 'vi', Welsh: 'cy',
  Wolof: 'wo', Xhosa: 'xh', Yoruba: 'yo', Zulu: 'zu',
}

/** The configs (`en_us`, `cmn_hans_cn`, `es_419`). */
export const FLEURS_CONFIGS: readonly string[] = [
  'af_za', 'am_et', 'ar_eg', 'as_in', 'ast_es', 'az_az', 'be_by', 'bn_in', 'bs_ba', 'ca_es', 'ceb_ph', 'cmn_hans_cn',
  'yue_hant_hk', 'cs_cz', 'cy_gb', 'da_dk', 'de_de', 'el_gr', 'en_us', 'es_419', 'et_ee', 'fa_ir', 'ff_sn', 'fi_fi',
  'fil_ph', 'fr_fr', 'ga_ie', 'gl_es', 'gu_in', 'ha_ng', 'he_il', 'hi_in', 'hr_hr', 'hu_hu', 'hy_am', 'id_id', 'ig_ng',
  'is_is', 'it_it', 'ja_jp', 'jv_id', 'ka_ge', 'kam_ke', 'kea_cv', 'kk_kz', 'km_kh', 'kn_in', 'ko_kr', 'ckb_iq',
  'ky_kg', 'lb_lu', 'lg_ug', 'ln_cd', 'lo_la', 'lt_lt', 'luo_ke', 'lv_lv', 'mi_nz', 'mk_mk', 'ml_in', 'mn_mn',
  'mr_in', 'ms_my', 'mt_mt', 'my_mm', 'nb_no', 'ne_np', 'nl_nl', 'nso_za', 'ny_mw', 'oc_fr', 'om_et', 'or_in',
  'pa_in', 'pl_pl', 'ps_af', 'pt_br', 'ro_ro', 'ru_ru', 'bg_bg', 'sd_in', 'sk_sk', 'sl_si', 'sn_zw', 'so_so', 'sr_rs',
  'sv_se', 'sw_ke', 'ta_in', 'te_in', 'tg_tj', 'th_th', 'tr_tr', 'uk_ua', 'umb_ao', 'ur_pk', 'uz_uz', 'vi_vn', 'wo_sn',
  'xh_za', 'yo_ng', 'zu_za',
]

const configs = new Set(FLEURS_CONFIGS)

/** The language subtag of a FLEURS config (its last `_` part, the locale, dropped), or null for other codes. */
export function fleursSubtag(code: string): string | null {
  const c = code.trim().toLowerCase()
  return configs.has(c) ? c.slice(0, c.lastIndexOf('_')) : null
}
