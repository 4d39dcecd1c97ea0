import { describe, expect, it } from 'vitest'
import { codePointLength, codePoints, spmWhitespace } from '../../src/engine/text/unicode.ts'

describe('unicode helpers', () => {
  it('counts code points like Python len()', () => {
    expect(codePointLength('')).toBe(0)
    expect(codePointLength('abc')).toBe(3)
    expect(codePointLength('😀a')).toBe(2) // JS .length is 3
    expect(codePointLength('e\u0301')).toBe(2) // combining mark counts separately
    expect(codePointLength('\ud800x')).toBe(2) // lone surrogate
    expect(codePoints('a😀b')).toEqual(['a', '😀', 'b'])
  })

  it('prepares whitespace like SentencePiece', () => {
    expect(spmWhitespace('  a  b ')).toBe('▁a▁b')
    expect(spmWhitespace('   ')).toBe('')
    expect(spmWhitespace('x')).toBe('▁x')
  })
})
