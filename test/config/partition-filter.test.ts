import { describe, expect, it } from 'vitest'
import { compilePartitionFilters, evaluateFilter } from '../../src/engine/pipeline/config/partition-filter.ts'
import { parseFilterString } from '../../src/engine/pipeline/config/partition-filter-parse.ts'

const mlsDeu = { corpus: 'mls', language: 'deu_Latn', split: 'train' }
const fleursFra = { corpus: 'fleurs', language: 'fra_Latn', split: 'train' }
const fleursEng = { corpus: 'fleurs', language: 'eng_Latn', split: 'dev' }
const all = [mlsDeu, fleursFra, fleursEng]
const keep = (setting: string | string[]) => all.filter((k) => compilePartitionFilters(setting)!.matches(k))

describe('partition_filters', () => {
  it('DNF: list of tuples is an AND', () => {
    expect(keep('[("language", "in", ["eng_Latn", "fra_Latn"])]')).toEqual([fleursFra, fleursEng])
    expect(keep('[("corpus", "=", "fleurs"), ("split", "!=", "dev")]')).toEqual([fleursFra])
    expect(keep('[("language", "not in", ("eng_Latn",))]')).toEqual([mlsDeu, fleursFra])
  })

  it('DNF: list of lists is an OR of ANDs', () => {
    expect(keep('[[("corpus","=","mls")],[("split","==","dev")]]')).toEqual([mlsDeu, fleursEng])
  })

  it('expressions with & | ~ and parentheses', () => {
    expect(keep('pc.field("corpus") == "fleurs"')).toEqual([fleursFra, fleursEng])
    expect(keep('pc.field("corpus") != "fleurs"')).toEqual([mlsDeu])
    expect(keep('pc.is_in(pc.field("corpus"), pa.array(["mls"]))')).toEqual([mlsDeu])
    expect(keep("pc.is_in(pc.field('corpus'), value_set=pa.array(['mls']))")).toEqual([mlsDeu])
    expect(keep('(pc.field("corpus") == "fleurs") & ~(pc.field("split") == "dev")')).toEqual([fleursFra])
    expect(keep('(pc.field("corpus") == "mls") | (pc.field("language") == "eng_Latn")')).toEqual([mlsDeu, fleursEng])
    expect(keep('"mls" == pc.field("corpus")')).toEqual([mlsDeu])
    expect(keep('pc.field("language").isin(["deu_Latn"])')).toEqual([mlsDeu])
  })

  it('a list of strings is AND-ed', () => {
    expect(keep(['pc.field("corpus") == "fleurs"', '[("split", "=", "train")]'])).toEqual([fleursFra])
  })

  it('compares int-looking values numerically, others as strings; missing keys are null', () => {
    const f = compilePartitionFilters('[("year", ">=", 2020)]')!
    expect(f.matches({ year: '2021' })).toBe(true)
    expect(f.matches({ year: '999' })).toBe(false)
    expect(f.matches({})).toBe(false)
    expect(evaluateFilter(parseFilterString('~(pc.field("year") == 1)'), {})).toBe(null)
    expect(compilePartitionFilters('pc.field("v") == "07"')!.matches({ v: '7' })).toBe(true)
    expect(compilePartitionFilters('pc.field("v") < "b"')!.matches({ v: 'a10' })).toBe(true)
    expect(compilePartitionFilters('pc.field("v") == "x"')!.matches({ v: '__HIVE_DEFAULT_PARTITION__' })).toBe(false)
    expect(compilePartitionFilters('[("corpus","=","mls")]')!.fields).toEqual(['corpus'])
  })

  it('rejects what it does not understand, naming position and text', () => {
    expect(() => parseFilterString('pc.field("a") == "x" & pc.field("b") == "y"')).toThrow(/add parentheses\) at position 17/)
    expect(() => parseFilterString('pc.field("a") == pc.field("b") == "y"')).toThrow(/chained comparison .* at position 31/)
    expect(() => parseFilterString('__import__("os")')).toThrow(/unsupported call __import__/)
    expect(() => parseFilterString('[("corpus", "like", "m")]')).toThrow('not in) at position 12 ("\\"like\\", \\"m\\")]")')
    expect(() => parseFilterString('pc.field("a") == ')).toThrow(/unexpected end of filter/)
    expect(() => parseFilterString('[]')).toThrow(/empty filter list/)
    expect(() => parseFilterString('pc.field("a") and pc.field("b")')).toThrow(/unexpected "and"|keyword "and"/)
    expect(() => parseFilterString('"a" == "b"')).toThrow(/needs a pc.field/)
    expect(() => parseFilterString('pc.field("a") == "x')).toThrow(/unterminated string at position 17/)
    expect(() => parseFilterString('pc.field("a")')).toThrow(/expected a filter expression/)
  })
})
