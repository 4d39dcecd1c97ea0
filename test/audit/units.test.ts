/** Pieces of the audit: script matching, robust z, hashing, signal measures, tokens, flagged export, reports. */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkTokens } from '../../src/engine/audit/checks/tokens.ts'
import { checkLeakage, checkLeakageHashes } from '../../src/engine/audit/checks/leakage.ts'
import { rowTableOf } from '../../src/engine/audit/rows/row-table.ts'
import { foreignCharacters, scriptMatcher } from '../../src/engine/audit/checks/script.ts'
import { medianMad, robustZ, selectInPlace } from '../../src/engine/audit/checks/text.ts'
import { emptyNormalized, hashedTranscript, hashTranscriptInto, normalizeTranscript, noTranscript, transcriptHashes } from '../../src/engine/audit/rows/transcript-hashes.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { flaggedRows, flaggedRowsJsonl } from '../../src/engine/audit/flagged.ts'
import { contentHash, contentHashPrefixInto, pcmHash } from '../../src/engine/core/content-hash.ts'
import { measureSignal } from '../../src/engine/audit/measure.ts'
import { auditReportHtml, auditReportMarkdown } from '../../src/engine/audit/report.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import type { AuditRow } from '../../src/engine/audit/rows/types.ts'
import { loadSpmTokenizer } from '../../src/engine/text/spm-tokenizer.ts'
import { auditFixture, openFixture } from './helpers.ts'

const foreign = (language: string, text: string) => foreignCharacters(text, scriptMatcher(language)!.test)

describe('script matching', () => {
  it('accepts each language in its own script, with Common/Inherited characters', () => {
    expect(foreign('hin_Deva', 'मेरा नाम 123 है। ठीक?').count).toBe(0)
    expect(foreign('rus_Cyrl', 'Привет, мир! 2024 — «ёлка»').count).toBe(0)
    expect(foreign('cmn_Hans', '你好，世界。').count).toBe(0)
    expect(foreign('jpn_Jpan', 'ひらがなとカタカナと漢字').count).toBe(0)
    expect(foreign('kor_Kore', '안녕하세요 世界').count).toBe(0)
    expect(foreign('arb_Arab', 'مرحبا بالعالم').count).toBe(0)
    expect(foreign('fra_Latn', 'déjà vu, ça va — naïve').count).toBe(0)
  })

  it('names foreign scripts and spots homoglyphs inside words', () => {
    const hin = foreign('hin_Deva', 'namaste दुनिया')
    expect([...hin.scripts]).toEqual([['Latin', 7]])
    expect(hin.inWord).toBe(false)
    const rus = foreign('rus_Cyrl', 'мoлoкo') // Latin o (U+006F) three times
    expect(rus).toMatchObject({ count: 3, chars: ['o'], inWord: true })
    expect([...foreign('eng_Latn', 'hello мир').scripts]).toEqual([['Cyrillic', 3]])
    expect([...foreign('ell_Grek', 'γειά hello').scripts]).toEqual([['Latin', 5]])
  })

  it('has no matcher for codes without a known script suffix', () => {
    expect(scriptMatcher('en')).toBeNull()
    expect(scriptMatcher('xyz_Zzzq')).toBeNull()
  })
})

describe('numeric helpers', () => {
  it('median, MAD and robust z', () => {
    expect(medianMad([1, 2, 3, 4, 100])).toEqual({ median: 3, mad: 1 })
    expect(medianMad(new Float64Array([100, 4, 1, 3, 2, 7]))).toEqual({ median: 3.5, mad: 2 })
    expect(robustZ(100, 3, 1)).toBeCloseTo(0.6745 * 97, 10)
    expect(robustZ(3, 3, 0)).toBe(0)
  })

  it('median and MAD of a typed array equal those of sorted number arrays, and leave the input as it was', () => {
    let seed = 7
    const values = Float64Array.from({ length: 10_001 }, () => (seed = (seed * 16807) % 2147483647) / 1e6)
    const copy = values.slice()
    const sorted = [...values].sort((a, b) => a - b)
    const median = sorted[5_000]
    const mad = sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b)[5_000]
    expect(medianMad(values)).toEqual({ median, mad })
    expect(values).toEqual(copy)
  })

  it('selection finds the sorted array\'s value at every k, and median and MAD equal the sorted ones, on any shape', () => {
    const random = mulberry32(3)
    const shapes: Record<string, (n: number) => Float64Array> = {
      random: (n) => Float64Array.from({ length: n }, () => random() * 100),
      // few distinct values: long runs equal to the pivot
      ties: (n) => Float64Array.from({ length: n }, () => Math.floor(random() * 3)),
      equal: (n) => new Float64Array(n).fill(2.5),
      ascending: (n) => Float64Array.from({ length: n }, (_, i) => i),
      descending: (n) => Float64Array.from({ length: n }, (_, i) => n - i),
      organ: (n) => Float64Array.from({ length: n }, (_, i) => Math.min(i, n - i)),
      signs: (n) => Float64Array.from({ length: n }, () => (random() - 0.5) * 1e6),
    }
    const sortedMedian = (a: number[]) => (a.length % 2 ? a[a.length >> 1] : (a[(a.length >> 1) - 1] + a[a.length >> 1]) / 2)
    for (const [shape, make] of Object.entries(shapes)) {
      for (const n of [1, 2, 3, 4, 5, 10, 11, 64, 257, 1000, 4001]) {
        const values = make(n)
        const sorted = [...values].sort((a, b) => a - b)
        for (const k of new Set([0, 1, n >> 1, (n >> 1) - 1, n - 2, n - 1].filter((k) => k >= 0 && k < n))) {
          const a = values.slice()
          expect({ shape, n, k, v: selectInPlace(a, k) }).toEqual({ shape, n, k, v: sorted[k] })
          for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k])
          for (let i = k + 1; i < n; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k])
        }
        const median = sortedMedian(sorted)
        const mad = sortedMedian(sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b))
        expect({ shape, n, ...medianMad(values) }).toEqual({ shape, n, median, mad })
      }
    }
    expect(medianMad([])).toEqual({ median: NaN, mad: NaN })
    expect(() => selectInPlace(new Float64Array(3), 3)).toThrow(/selection index 3/)
  })

  it('normalizes transcripts by case and whitespace only', () => {
    expect(normalizeTranscript('  Hello\tWORLD \n')).toBe('hello world')
    expect(normalizeTranscript('hello, world')).not.toBe(normalizeTranscript('hello world'))
  })

  it('hashes a transcript as contentHash of its normalized UTF-8, on the ASCII fast path and off it', () => {
    // the reference: the string path (NFC, lower case, \s runs, trim), TextEncoder, contentHash
    const reference = (text: string | null) => {
      if (!text) return { kind: noTranscript, hash: '' }
      const normalized = normalizeTranscript(text)
      return normalized ? { kind: hashedTranscript, hash: contentHash(new TextEncoder().encode(normalized)) } : { kind: emptyNormalized, hash: '' }
    }
    const random = mulberry32(7)
    // ASCII with every whitespace, the C0 controls \s leaves alone (U+001C–U+001F), both cases; then non-ASCII
    // neighbours: NBSP and U+3000 (\s), U+0085 (not \s), Latin-1 capitals, a decomposed é (NFC composes it), Cyrillic
    const alphabet = ['\t', '\n', '\v', '\f', '\r', ' ', '\u001c', '\u001f', '\u0000', 'A', 'Z', 'a', 'z', '@', '[', '`', '{', '0', '~', '\u007f']
    const wide = ['\u00a0', '\u3000', '\u0085', '\u00c9', 'e\u0301', 'Ж', '\u2028', '\ud83d\ude00']
    const texts: (string | null)[] = [null, '', ' ', ' \t\n', 'A', '  Planted   LEAK 7 ', 'x\u00a0 y', 'E\u0301TE\u0301']
    for (let k = 0; k < 3000; k++) {
      const pool = k % 3 === 2 ? [...alphabet, ...wide] : alphabet
      const length = Math.floor(random() * 12)
      texts.push(Array.from({ length }, () => pool[Math.floor(random() * pool.length)]).join(''))
    }
    const long = 'Ab \t'.repeat(700)
    texts.push(long, `${long}\u00e9`)
    const into = transcriptHashes(texts.length)
    texts.forEach((text, i) => hashTranscriptInto(text, into, i))
    texts.forEach((text, i) => {
      const want = reference(text)
      const hex = (into.words[2 * i] >>> 0).toString(16).padStart(8, '0') + (into.words[2 * i + 1] >>> 0).toString(16).padStart(8, '0')
      expect({ text, kind: into.kind[i], hash: into.kind[i] === hashedTranscript ? hex : '' }).toEqual({ text, ...want })
    })
  })

  it('leakage by sorted hashes gives what the map of normalized strings gives', () => {
    // many languages, splits and files, transcripts drawn from a small pool so train rows repeat (the "N more" counts
    // and the first train row depend on the sort by language, hash and row)
    const random = mulberry32(11)
    const languages = ['eng_Latn', 'rus_Cyrl', 'hin_Deva', 'fra_Latn', 'zzz']
    const splits = ['train', 'train', 'train', 'dev', 'test']
    const pool = ['Hello world', ' hello  WORLD', 'HELLO WORLD ', 'привет мир', 'Привет  мир', 'नमस्ते', '', ' ', 'a', 'A', 'b', 'c d', 'C  D']
    const rows: AuditRow[] = []
    for (let file = 0; file < 60; file++) {
      const language = languages[Math.floor(random() * languages.length)]
      const split = splits[Math.floor(random() * splits.length)]
      const path = `split=${split}/language=${language}/part-${file}.parquet`
      const n = 1 + Math.floor(random() * 200)
      for (let row = 0; row < n; row++) {
        const pick = Math.floor(random() * (pool.length + 2))
        const text = pick === pool.length ? null : pick === pool.length + 1 ? `unique ${file} ${row}` : pool[pick]
        rows.push({ path, row, rowGroup: 0, file, corpus: 'c', language, split, audioSize: 16000, text })
      }
    }
    const hashes = transcriptHashes(rows.length)
    rows.forEach((r, i) => hashTranscriptInto(r.text, hashes, i))
    const byStrings = checkLeakage(rows, 'train')
    expect(byStrings.items.length).toBeGreaterThan(100)
    expect(byStrings.items.some((x) => /and \d+ more train rows/.test(x.finding.message))).toBe(true)
    expect(checkLeakageHashes(rowTableOf(rows), 'train', hashes)).toEqual(byStrings)
  })

  it('hashes a scratch buffer\'s prefix through a kept word view as contentHash hashes that prefix', () => {
    const scratch = new Uint8Array(24)
    const view = new Uint32Array(scratch.buffer)
    scratch.forEach((_, i) => { scratch[i] = (i * 37 + 11) & 0xff })
    const out = new Uint32Array(2)
    for (let length = 0; length <= scratch.length; length++) {
      contentHashPrefixInto(scratch, view, length, out, 0)
      const hex = out[0].toString(16).padStart(8, '0') + out[1].toString(16).padStart(8, '0')
      expect({ length, hex }).toEqual({ length, hex: contentHash(scratch.slice(0, length)) })
    }
    expect(() => contentHashPrefixInto(scratch.subarray(4), view, 4, out, 0)).toThrow(/offset 4/)
    expect(() => contentHashPrefixInto(scratch, view, 25, out, 0)).toThrow(/25 bytes/)
  })

  it('content hashes differ on one byte and agree on equal content at any offset', () => {
    const a = new Uint8Array([1, 2, 3, 4, 5, 6, 7])
    const b = a.slice()
    b[6] = 8
    expect(contentHash(a)).not.toBe(contentHash(b))
    const shifted = new Uint8Array(9)
    shifted.set(a, 1)
    expect(contentHash(shifted.subarray(1, 8))).toBe(contentHash(a))
    expect(pcmHash([new Float32Array([0.5, -0.5])])).not.toBe(pcmHash([new Float32Array([0.5, -0.25])]))
  })

  it('measures loudness, silence, clipping and DC offset', () => {
    const rate = 16000
    const sine = Float32Array.from({ length: rate }, (_, i) => 0.5 * Math.sin(2 * Math.PI * 440 * i / rate))
    const m = measureSignal([sine], rate)
    expect(m.rmsDb!).toBeCloseTo(20 * Math.log10(0.5 / Math.SQRT2), 2)
    expect(m).toMatchObject({ silentShare: 0, clippedShare: 0 })
    expect(Math.abs(m.dcOffset)).toBeLessThan(1e-6)
    expect(measureSignal([new Float32Array(rate)], rate)).toMatchObject({ rmsDb: null, silentShare: 1 })
    // stereo: the mono mix of opposite channels is silent; clipping counts every channel's samples
    expect(measureSignal([new Float32Array(400).fill(1), new Float32Array(400).fill(-1)], rate)).toMatchObject({ rmsDb: null, clippedShare: 1 })
  })
})

describe('unknown tokens', () => {
  it('counts unknown tokens per language and flags all-unknown rows', async () => {
    const model = new Uint8Array(await readFile(fileURLToPath(new URL('../fixtures/spm/tiny.model', import.meta.url))))
    const tokenizer = await loadSpmTokenizer(model)
    try {
      const row = (row: number, language: string, text: string): AuditRow => ({ file: 0, path: 'f.parquet', row, rowGroup: 0, corpus: 'c', language, split: 'train', audioSize: 16000, text })
      const result = checkTokens([row(0, 'eng_Latn', 'the lazy dog'), row(1, 'cmn_Hans', '你好世界'), row(2, 'eng_Latn', 'a stitch in time')], tokenizer)
      const table = new Map(result.tables.unknown_tokens.map((r) => [r.language, r]))
      expect(table.get('eng_Latn')).toMatchObject({ unknown_tokens: 0, tokens: 30, rows: 2 })
      expect(table.get('cmn_Hans')).toMatchObject({ tokens: 2, unknown_tokens: 1, unknown_rate: 0.5 }) // '▁' then one unk piece
      expect(result.items.map((i) => [i.finding.kind, i.language, i.finding.severity])).toEqual([['unknown-tokens', 'cmn_Hans', 'warning']])
    } finally {
      tokenizer.dispose()
    }
  })

  it('flags rows whose tokens are all unknown (the all-unknown filter drops them)', () => {
    const known = 'abcdefghijklmnopqrstuvwxyz '
    const charTokenizer = { unkId: 0, encode: (text: string) => Array.from(text, (c) => known.indexOf(c) + 1) }
    const row = (r: number, text: string): AuditRow => ({ file: 0, path: 'f.parquet', row: r, rowGroup: 0, corpus: 'c', language: 'eng_Latn', split: 'train', audioSize: 16000, text })
    const result = checkTokens([row(0, 'abc'), row(1, 'ÄÖÜ'), row(2, 'aÖ')], charTokenizer)
    expect(result.items.filter((i) => i.finding.kind === 'all-unknown-tokens').map((i) => i.finding.row)).toEqual([1])
    expect(result.tables.unknown_tokens[0]).toMatchObject({ tokens: 8, unknown_tokens: 4, rows_with_unknown: 2 })
  })
})

describe('flagged rows and reports', () => {
  it('exports one JSONL line per flagged row, in dataset order', async () => {
    const report = await auditDataset(await openFixture(auditFixture('meta')))
    const rows = flaggedRows(report.findings)
    const rus = rows.find((r) => r.id === 'corpus=a/split=train/language=rus_Cyrl/part-0.parquet:6')!
    expect(rus.kinds).toEqual(['fast-speech', 'speaking-rate-outlier'])
    const lines = flaggedRowsJsonl(report.findings).trim().split('\n').map((l) => JSON.parse(l) as { id: string })
    expect(lines.map((l) => l.id)).toEqual(rows.map((r) => r.id))
    expect(flaggedRows(report.findings, { kinds: ['empty-text'] }).map((r) => r.id)).toEqual(['corpus=a/split=train/language=rus_Cyrl/part-0.parquet:2'])
  })

  it('renders Markdown and self-contained HTML with every table and the example ids', async () => {
    const report = await auditDataset(await openFixture(auditFixture('meta')))
    const md = auditReportMarkdown(report)
    const html = auditReportHtml(report)
    for (const id of ['corpus=a/split=train/language=rus_Cyrl/part-0.parquet:2', 'Duration histogram per language', 'LENGTH bucket occupancy']) {
      expect(md).toContain(id)
      expect(html).toContain(id)
    }
    expect(html).not.toMatch(/(src|href)=["']https?:/)
    expect(html).not.toContain('<script')
  })
})
