/**
 * NeMo tarred datasets (`--input-format nemo-tarred`), as NeMo's `scripts/speech_recognition/
 * convert_to_tarred_audio_dataset.py` writes them: `tarred_audio_manifest.json` (JSON Lines, or `.gz`) beside
 * `audio_0.tar`, `audio_1.tar`, …; each entry's `audio_filepath` names a member of the tar its `shard_id` gives
 * (`audio_<shard_id>.tar`). A repeated file is written once and named `<base>-sub<N><ext>` by later entries, which NeMo's
 * reader maps back to the member `<base><ext>`; an entry that kept an `offset` reads `duration` seconds from there.
 * Entries without `shard_id` are looked up in every tar. Other fields as NeMo manifests (`text`, `lang`, `split`,
 * `corpus`).
 *
 * Memory: the member indexes of recently used tars, at most `TarIndexOptions.members` members in all (default 2¹⁹,
 * about 100 MB), the least recently used tar's dropped first (and listed again if an entry names it later). NeMo's
 * script writes the manifest a shard after another, so each tar is listed once; a manifest in another order is read
 * right, listing tars again as it goes back to them.
 */
import type { InputRow } from './types.ts'
import type { RowSink } from './row-log.ts'
import { dirOf, splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { readLines } from './lines.ts'
import { tarMembers, type TarMember } from './tar.ts'

/** The tarred manifests of an input (`tarred_audio_manifest*.json[l][.gz]`), sorted. */
export function nemoTarredManifests(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => /(^|\/)tarred_audio_manifest[^/]*\.jsonl?(\.gz)?$/i.test(p))
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)
const seconds = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null)

/** How many tar members the reader's indexes hold. */
export interface TarIndexOptions {
  /** Members held in all (default 2¹⁹); the tar being read is held whatever its size. */
  members?: number
  /** Called each time a tar is listed (tests count the listings). */
  onList?: (tar: string) => void
}

/** The default member budget of the tar indexes (2¹⁹ members, about 100 MB of names and offsets). */
export const TAR_INDEX_MEMBERS = 1 << 19

/** Rows of the tarred manifests, in file then line order, into `out`. */
export async function readNemoTarred(input: InputFiles, manifests: string[], out: RowSink, signal?: AbortSignal, index: TarIndexOptions = {}): Promise<void> {
  const budget = Math.max(0, index.members ?? TAR_INDEX_MEMBERS)
  // tars' member indexes, least recently used first (a Map keeps insertion order), and the members they hold
  const tars = new Map<string, Map<string, TarMember>>()
  let held = 0
  // tars that are not readable tars, and why (one message each, not listed again)
  const broken = new Map<string, Error>()
  const membersOf = async (tar: string): Promise<Map<string, TarMember>> => {
    const error = broken.get(tar)
    if (error) throw error
    let m = tars.get(tar)
    if (m) {
      tars.delete(tar)
      tars.set(tar, m)
      return m
    }
    index.onList?.(tar)
    m = new Map()
    try {
      for await (const x of tarMembers(input, tar, signal)) m.set(x.name, x)
    } catch (e) {
      signal?.throwIfAborted()
      broken.set(tar, e as Error)
      throw e
    }
    held += m.size
    tars.set(tar, m)
    for (const [name, old] of tars) {
      if (held <= budget || old === m) break
      tars.delete(name)
      held -= old.size
    }
    return m
  }
  for (const path of manifests) {
    const base = dirOf(path)
    const allTars = input.files.map((f) => f.path).filter((p) => dirOf(p) === base && /(^|\/)audio_\d+\.tar$/.test(p))
    const fileSplit = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    for await (const { line, number } of readLines(input, path, signal)) {
      if (!line.trim()) continue
      const where = `${path}:${number}`
      let entry: Record<string, unknown>
      try {
        const parsed: unknown = JSON.parse(line)
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object')
        entry = parsed as Record<string, unknown>
      } catch (error) {
        await out.add({ where, audio: null, text: null, language: null, split: fileSplit, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object (${(error as Error).message})` } })
        continue
      }
      const name = str(entry.audio_filepath) ?? str(entry.audio_file)
      const shard = typeof entry.shard_id === 'number' ? entry.shard_id : null
      const candidates = shard !== null ? [`${base ? `${base}/` : ''}audio_${shard}.tar`] : allTars
      let found: { tar: string; member: TarMember } | null = null
      let problem: InputRow['problem'] = name ? null : { reason: 'bad-input-row', message: `${where}: no "audio_filepath"` }
      if (name) {
        const names = [name, name.replace(/-sub\d+(\.[^./]+)$/, '$1')]
        for (const tar of candidates) {
          if (!input.sizes.has(tar)) continue
          let members: Map<string, TarMember>
          try {
            members = await membersOf(tar)
          } catch (error) {
            problem = { reason: 'unreadable-audio', message: `${where}: ${(error as Error).message}` }
            break
          }
          const hit = names.map((n) => members.get(n)).find((m) => m)
          if (hit) { found = { tar, member: hit }; break }
        }
        if (!found && !problem) problem = { reason: 'missing-audio', message: `${where}: ${name} is not a member of ${candidates.length === 1 ? candidates[0] : `any of ${candidates.length} audio_N.tar`}` }
      }
      const offset = seconds(entry.offset)
      const duration = seconds(entry.duration)
      await out.add({
        where,
        audio: found ? { kind: 'member', file: found.tar, member: found.member.name, start: found.member.start, end: found.member.start + found.member.size, ...(offset ? { segment: { offset, duration } } : {}) } : null,
        text: str(entry.text),
        language: str(entry.lang) ?? str(entry.language),
        split: str(entry.split) ?? fileSplit,
        corpus: str(entry.corpus),
        duration,
        problem,
      })
    }
  }
}
