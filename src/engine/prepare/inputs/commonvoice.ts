/**
 * A Common Voice release folder (`<locale>/` of `cv-corpus-N`): `clips/`, and `train.tsv`, `dev.tsv`, `test.tsv`
 * with `path`, `sentence`, and (newer releases) `locale`; the split is the TSV's name. `validated.tsv`,
 * `other.tsv`, `invalidated.tsv` are not read (validated is train + dev + test and more; the others are rejected
 * or unreviewed clips). Without a `locale` column the folder's name is the language.
 */
import type { RowSink } from './row-log.ts'
import { readTsv } from './delimited.ts'
import { resolveAudioPath, type InputFiles } from './input-files.ts'

/** The split TSVs read, in reading order. */
export const COMMON_VOICE_SPLITS = ['train', 'dev', 'test'] as const

/** Rows of `train.tsv`, `dev.tsv`, `test.tsv` (those present), in that order, into `out`. @returns how many, and notes */
export async function readCommonVoice(input: InputFiles, out: RowSink, signal?: AbortSignal): Promise<{ rows: number; notes: string[] }> {
  let rows = 0
  const notes: string[] = []
  for (const split of COMMON_VOICE_SPLITS) {
    const path = `${split}.tsv`
    if (!input.sizes.has(path)) continue
    // read line by line: a TSV of any size, never one string
    for await (const record of readTsv(input, path, signal)) {
      if ('columns' in record) {
        for (const need of ['path', 'sentence']) {
          if (!record.columns.includes(need)) throw new Error(`commonvoice: ${path} has no "${need}" column (columns: ${record.columns.join(', ')})`)
        }
        continue
      }
      const { line, cells } = record
      const where = `${path}:${line}`
      const clip = cells.path.trim()
      rows++
      await out.add({
        where,
        audio: clip ? { kind: 'file', path: resolveAudioPath(input, 'clips', clip) } : null,
        text: cells.sentence,
        language: cells.locale?.trim() || input.rootName || null,
        split,
        corpus: null,
        duration: null,
        problem: clip ? null : { reason: 'bad-input-row', message: `${where}: empty "path"` },
      })
    }
  }
  const unread = ['validated.tsv', 'other.tsv', 'invalidated.tsv', 'validated_sentences.tsv'].filter((f) => input.sizes.has(f))
  if (unread.length) notes.push(`commonvoice: ${unread.join(', ')} not read (only train.tsv, dev.tsv and test.tsv are splits)`)
  return { rows, notes }
}
