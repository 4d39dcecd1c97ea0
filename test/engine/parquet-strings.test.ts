import { describe, expect, test } from 'vitest'
import { stringFromBytes } from '../../src/engine/parquet/strings.ts'

/** Deterministic bytes (a small LCG): ASCII, multi-byte UTF-8 and invalid sequences alike. */
function randomBytes(seed: number, n: number, maxByte: number): Uint8Array {
  const out = new Uint8Array(n)
  let s = seed >>> 0
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    out[i] = s % (maxByte + 1)
  }
  return out
}

describe('parquet string values', () => {
  const decoder = new TextDecoder()
  test('decode as TextDecoder does: ASCII, UTF-8, invalid bytes, empty, long', () => {
    const cases: Uint8Array[] = [
      new Uint8Array(0),
      new TextEncoder().encode('corpus=mls/split=train/language=eng_Latn/part-0.parquet'),
      new TextEncoder().encode('language=cmn_Hans/語言/ñ/🎧'),
      Uint8Array.of(0x41, 0xff, 0x42), // invalid byte → U+FFFD
      Uint8Array.of(0xe2, 0x82), // truncated sequence
      new TextEncoder().encode('x'.repeat(300)), // past the ASCII path's length limit
    ]
    for (let seed = 1; seed <= 200; seed++) cases.push(randomBytes(seed, seed % 90, seed % 2 === 0 ? 0x7f : 0xff))
    for (const bytes of cases) expect(stringFromBytes(bytes)).toBe(decoder.decode(bytes))
  })

  test('values that are views into one buffer, between length prefixes of any byte, as a parquet page holds them', () => {
    const parts = [new TextEncoder().encode('corpus=a/language=eng_Latn/part-0.parquet'), new TextEncoder().encode('語/ñ'), Uint8Array.of(0x41, 0xff),
      new Uint8Array(0), ...Array.from({ length: 60 }, (_, i) => randomBytes(i + 7, (i * 13) % 200, i % 3 === 0 ? 0xff : 0x7f))]
    const page = new Uint8Array(parts.reduce((n, p) => n + 4 + p.length, 0))
    const views: Uint8Array[] = []
    let at = 0
    parts.forEach((p, i) => {
      page.set([0x80 + (i % 0x80), 0xc2, 0x9d, 0xff], at) // bytes a UTF-8 or Latin-1 reading would merge or shift on
      page.set(p, at + 4)
      views.push(page.subarray(at + 4, at + 4 + p.length))
      at += 4 + p.length
    })
    const other = page.slice() // a second buffer, then back to the first
    for (const view of [...views, new Uint8Array(other.buffer, views[0].byteOffset, views[0].length), ...views.reverse()]) {
      expect(stringFromBytes(view)).toBe(decoder.decode(view))
    }
  })

  test('a missing value stays missing', () => {
    expect(stringFromBytes(undefined)).toBeUndefined()
  })
})
