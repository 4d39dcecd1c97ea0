import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildCharVocabulary, charTokenize, makeCharVocabulary } from '../../src/engine/text/char-tokenizer.ts'
import { readSpmModelProto } from '../../src/engine/text/spm-model-proto.ts'
import { loadSpmTokenizer } from '../../src/engine/text/spm-tokenizer.ts'

const fixture = (name: string) => new URL(`../fixtures/spm/${name}`, import.meta.url)
const modelBytes = new Uint8Array(readFileSync(fixture('tiny.model')))
const expected = JSON.parse(readFileSync(fixture('expected.json'), 'utf8')) as { cases: { text: string; ids: number[] }[] }
const vocabFile = readFileSync(fixture('tiny.vocab'), 'utf8').trimEnd().split('\n').map((line) => line.split('\t')[0])

describe('SentencePiece model file', () => {
  it('reads pieces, types and special pieces', () => {
    const info = readSpmModelProto(modelBytes)
    expect(info.pieces.map((p) => p.piece)).toEqual(vocabFile)
    expect(info.pieces.slice(0, 4).map((p) => p.type)).toEqual([3, 3, 3, 2])
    expect(info.modelType).toBe(4)
    expect([info.unkPiece, info.padPiece, info.bosPiece, info.eosPiece]).toEqual(['<unk>', '<pad>', '<s>', '</s>'])
    expect(() => readSpmModelProto(new Uint8Array([1, 2, 3]))).toThrow(/spm:/)
  })
})

describe('loadSpmTokenizer (@sctg/sentencepiece-js)', () => {
  it('encodes exactly like spm_encode --output_format=id, with the model\'s special ids', async () => {
    const tokenizer = await loadSpmTokenizer(modelBytes)
    expect(expected.cases.length).toBeGreaterThan(5)
    for (const c of expected.cases) expect(tokenizer.encode(c.text), c.text).toEqual(c.ids)
    expect([tokenizer.unkId, tokenizer.padId, tokenizer.bosId, tokenizer.eosId, tokenizer.vocabSize]).toEqual([3, 1, 0, 2, vocabFile.length])
    expect(tokenizer.encodePieces('the')).toEqual(['▁', 't', 'h', 'e'])
    tokenizer.dispose()
    expect(() => tokenizer.encode('a')).toThrow(/after dispose/)
  })

  it('rejects bytes that are not a model', async () => {
    await expect(loadSpmTokenizer(new TextEncoder().encode('not a model'))).rejects.toThrow(/spm:/)
  })
})

describe('char tokenizer', () => {
  it('matches the SentencePiece char model when given its vocabulary', () => {
    const vocabulary = makeCharVocabulary(vocabFile, 3, 1)
    for (const c of expected.cases) expect(charTokenize(vocabulary, c.text), c.text).toEqual(c.ids)
  })

  it('builds a deterministic vocabulary from texts', () => {
    const a = buildCharVocabulary(['bca', 'ab c', 'ＡＢ'])
    const b = buildCharVocabulary(['ＡＢ', 'ab c', 'bca'])
    expect(a.tokens).toEqual(b.tokens)
    expect(a.tokens).toEqual(['<s>', '<pad>', '</s>', '<unk>', '▁', 'A', 'B', 'a', 'b', 'c'])
    expect([a.unkIndex, a.padIndex]).toEqual([3, 1])
    expect(charTokenize(a, ' ab  c ')).toEqual([4, 7, 8, 4, 9])
    expect(charTokenize(a, 'xy a z')).toEqual([4, 3, 4, 7, 4, 3])
    expect(charTokenize(a, '<unk>')).toEqual([4, 3])
    expect(charTokenize(a, '')).toEqual([])
  })
})
