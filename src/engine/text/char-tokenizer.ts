/**
 * A character tokenizer for when the training SentencePiece model is not at hand: one token per character,
 * text prepared the way a SentencePiece *char* model prepares it (the omniASR tokenizers are char models,
 * docs/reference-pipeline.md §8 step 5): NFKC, spaces trimmed and collapsed, a leading `▁`, spaces as `▁`, and consecutive
 * unknown characters merged into one `<unk>` token as SentencePiece does.
 *
 * Differences to a real model: the vocabulary comes from the dataset's own texts, so no character of those
 * texts is unknown; and JavaScript's NFKC stands in for SentencePiece's `nmt_nfkc` table (which also maps some
 * control characters and extra whitespace kinds).
 */

import { codePoints, spmWhitespace } from './unicode.ts'

/** Special tokens at the front of a built vocabulary, fairseq order: `<s>` 0, `<pad>` 1, `</s>` 2, `<unk>` 3. */
export const charSpecialTokens = ['<s>', '<pad>', '</s>', '<unk>'] as const

/** Token list plus lookups. */
export interface CharVocabulary {
  /** Token strings in id order. */
  tokens: readonly string[]
  unkIndex: number
  /** `null` when the vocabulary has no pad token (text collation then cannot pad, docs/reference-pipeline.md §21). */
  padIndex: number | null
  /** Id of each non-special token. */
  indexOf: ReadonlyMap<string, number>
}

/**
 * Builds a vocabulary from texts: the specials, then `▁`, then every character seen (after NFKC) in code point
 * order, so the ids do not depend on the order of the texts.
 */
export function buildCharVocabulary(texts: Iterable<string>): CharVocabulary {
  const seen = new Set<string>()
  for (const text of texts) for (const c of codePoints(text.normalize('NFKC'))) if (c !== ' ') seen.add(c)
  const chars = [...seen].sort((a, b) => (a.codePointAt(0) as number) - (b.codePointAt(0) as number)).filter((c) => c !== '▁')
  return makeCharVocabulary([...charSpecialTokens, '▁', ...chars], 3, 1)
}

/**
 * Wraps an existing token list (e.g. a SentencePiece char model's pieces).
 * @param unkIndex id of the unknown token.
 * @param padIndex id of the pad token, or `null`.
 */
export function makeCharVocabulary(tokens: readonly string[], unkIndex: number, padIndex: number | null): CharVocabulary {
  if (unkIndex < 0 || unkIndex >= tokens.length) throw new Error(`text: unk index ${unkIndex} is outside the vocabulary of ${tokens.length} tokens`)
  const indexOf = new Map<string, number>()
  tokens.forEach((t, i) => { if (!indexOf.has(t)) indexOf.set(t, i) })
  return { tokens, unkIndex, padIndex, indexOf }
}

/**
 * Token ids of `text`: no BOS/EOS, like fairseq2's raw encoder.
 * @param specials tokens that never match text (default: the fairseq specials).
 */
export function charTokenize(vocabulary: CharVocabulary, text: string, specials: ReadonlySet<string> = new Set(charSpecialTokens)): number[] {
  const ids: number[] = []
  for (const c of codePoints(spmWhitespace(text.normalize('NFKC')))) {
    const id = specials.has(c) ? undefined : vocabulary.indexOf.get(c)
    if (id === undefined) {
      if (ids[ids.length - 1] !== vocabulary.unkIndex) ids.push(vocabulary.unkIndex)
    } else {
      ids.push(id)
    }
  }
  return ids
}
