/**
 * An example's transcript as tokens: by a loaded SentencePiece model, or else by the character vocabulary of the
 * dataset's transcripts (of the example index, when the Examples view has scanned; of this transcript alone before).
 */
import type { OpenDataset } from '../dataset/open.ts'
import { buildCharVocabulary, charTokenize } from '../text/char-tokenizer.ts'
import type { SpmTokenizer } from '../text/spm-tokenizer.ts'
import { existingExampleIndex } from './example-index.ts'

/** A transcript as tokens. */
export interface ExampleTokens {
  /** `char vocabulary of … (N symbols)` or the SentencePiece model's name. */
  tokenizer: string
  ids: number[]
  pieces: string[]
  /** Ids that are the unknown token. */
  unknown: number
}

/**
 * Tokenizes `text` (`null` for a row without one).
 * @param spm a loaded SentencePiece model and its name; `null`: the char vocabulary
 */
export async function exampleTokens(text: string | null, dataset: OpenDataset, spm: { name: string; tokenizer: SpmTokenizer } | null): Promise<ExampleTokens | null> {
  if (text === null) return null
  if (spm) {
    const ids = spm.tokenizer.encode(text)
    return { tokenizer: spm.name, ids, pieces: ids.map((id) => spm.tokenizer.pieces[id] ?? `#${id}`), unknown: ids.filter((id) => id === spm.tokenizer.unkId).length }
  }
  const index = existingExampleIndex(dataset)
  const texts = index ? (await index.catch(() => null))?.rows.flatMap((r) => (r.text === null ? [] : [r.text])) ?? [text] : [text]
  const vocabulary = buildCharVocabulary(texts)
  const ids = charTokenize(vocabulary, text)
  const scope = texts.length > 1 ? `the dataset's ${texts.length} transcripts` : 'this transcript'
  return {
    tokenizer: `char vocabulary of ${scope} (${vocabulary.tokens.length} symbols)`,
    ids, pieces: ids.map((id) => vocabulary.tokens[id]), unknown: ids.filter((id) => id === vocabulary.unkIndex).length,
  }
}
