/**
 * WebDataset shards (`--input-format webdataset`): uncompressed `.tar` files whose members are grouped into samples by
 * key as the webdataset library groups them (`base_plus_ext`: the key is the member's path up to the first `.` of its
 * file name, the rest is the field; consecutive members with one key are one sample). A sample is one row:
 * - audio: the `flac`, `wav`, `mp3`, `ogg` or `opus` field (the first of those present, in that order);
 * - text: the `txt` / `text` field (UTF-8), else the `json` field's transcript key (`raw_transcription`,
 *   `transcription`, `text`, `sentence`, … as for audiofolder), which may also give `language`, `split`, `corpus`.
 * The split is the shard's path (`train-000000.tar`, `dev/shard-0.tar`) unless the `json` field says.
 */
import type { InputRow } from './types.ts'
import type { RowSink } from './row-log.ts'
import { LANGUAGE_COLUMNS, TEXT_COLUMNS } from './audiofolder.ts'
import { splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { tarMembers, type TarMember } from './tar.ts'

/** Audio fields, in the order one is chosen when a sample has several. */
export const WEBDATASET_AUDIO = ['flac', 'wav', 'mp3', 'ogg', 'opus']

/** The input's webdataset shards (`.tar`), sorted. */
export function webdatasetShards(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => /\.tar$/i.test(p) && !p.split('/').some((s) => s.startsWith('.') || s.startsWith('_')))
}

/** A member's sample key and field, as webdataset's `base_plus_ext` splits its path. */
export function keyAndField(name: string): { key: string; field: string } | null {
  const m = /^((?:.*\/|)[^./]+)\.([^/]*)$/.exec(name)
  return m ? { key: m[1], field: m[2].toLowerCase() } : null
}

/** Consecutive members with one key, as webdataset's `group_by_keys`, one sample at a time (memory: one sample). */
export async function* groupSamples(members: AsyncIterable<TarMember> | Iterable<TarMember>): AsyncGenerator<{ key: string; fields: Map<string, TarMember> }> {
  let last: { key: string; fields: Map<string, TarMember> } | null = null
  for await (const m of members) {
    const kf = keyAndField(m.name)
    if (!kf) continue
    if (last && last.key === kf.key && !last.fields.has(kf.field)) last.fields.set(kf.field, m)
    else {
      if (last) yield last
      last = { key: kf.key, fields: new Map([[kf.field, m]]) }
    }
  }
  if (last) yield last
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)

/**
 * Rows of every shard, in shard then sample order, into `out`, each shard's members read as a stream (never listed
 * whole); a shard that is not a readable tar is left out with a note (one that breaks part way keeps the samples
 * before the break, as webdataset's reader yields them, and the note says where it broke).
 */
export async function readWebdataset(input: InputFiles, shards: string[], out: RowSink, signal?: AbortSignal): Promise<{ notes: string[] }> {
  const notes: string[] = []
  const decoder = new TextDecoder('utf-8')
  for (const tar of shards) {
    const split = splitName(splitFromPath(tar))
    const samples = groupSamples(tarMembers(input, tar, signal))
    let taken = 0
    for (;;) {
      let sample: IteratorResult<{ key: string; fields: Map<string, TarMember> }>
      try {
        sample = await samples.next()
      } catch (error) {
        signal?.throwIfAborted()
        notes.push(`webdataset: ${(error as Error).message}; ${taken ? `its samples after the first ${taken} are` : 'its samples are'} not read`)
        break
      }
      if (sample.done) break
      taken++
      const { key, fields } = sample.value
      const where = `${tar}:${key}`
      const read = async (m: TarMember) => decoder.decode(await input.source.read(tar, m.start, m.start + m.size, { signal })).replace(/^\uFEFF/, '')
      const audioField = WEBDATASET_AUDIO.find((f) => fields.has(f))
      const textField = ['txt', 'text'].find((f) => fields.has(f))
      let text: string | null = textField ? (await read(fields.get(textField)!)).replace(/\r?\n$/, '') : null
      let language: string | null = null
      let rowSplit: string | null = null
      let corpus: string | null = null
      let problem: InputRow['problem'] = null
      if (fields.has('json')) {
        try {
          const meta = JSON.parse(await read(fields.get('json')!)) as Record<string, unknown>
          if (text === null) {
            const col = TEXT_COLUMNS.find((c) => typeof meta[c] === 'string')
            text = col ? (meta[col] as string) : null
          }
          language = LANGUAGE_COLUMNS.map((c) => str(meta[c])).find((v) => v) ?? null
          rowSplit = str(meta.split)
          corpus = str(meta.corpus)
        } catch (error) {
          problem = { reason: 'bad-input-row', message: `${where}: its json field is not JSON (${(error as Error).message})` }
        }
      }
      const m = audioField ? fields.get(audioField)! : null
      if (!m && !problem) problem = { reason: 'missing-audio', message: `${where}: no ${WEBDATASET_AUDIO.join('/')} field (fields: ${[...fields.keys()].join(', ')})` }
      await out.add({
        where,
        audio: m ? { kind: 'member', file: tar, member: m.name, start: m.start, end: m.start + m.size } : null,
        text, language, split: rowSplit ?? split, corpus, duration: null, problem,
      })
    }
  }
  return { notes }
}
