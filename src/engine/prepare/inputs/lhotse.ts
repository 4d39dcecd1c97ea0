/**
 * Lhotse manifests (lhotse-speech/lhotse `lhotse/cut`, `lhotse/audio`, `lhotse/supervision`): JSON Lines, gzip-compressed
 * or not (`cuts.jsonl.gz`), or the older JSON arrays (`cuts.json`, read element by element: json-array.ts). Two layouts:
 * - **cuts** (`*cuts*`): one row per cut — the cut's stretch `[start, start + duration)` of its `recording`, the text
 *   of its supervisions in time order joined by a space (as Lhotse's ASR datasets join them), their language;
 * - **recordings + supervisions** (`*recordings*` beside `*supervisions*` of the same name): one row per supervision,
 *   its stretch of the recording it names.
 * Audio: the recording's single `file` source, its path taken from the manifest's folder when that file exists, else
 * from the working directory (Lhotse opens it as it is written). `command`, `url` and `memory` sources, and
 * recordings split over several files, are not read (`bad-input-row`, naming the source). Split: the manifest's name
 * (`cuts_train.jsonl.gz`, `librispeech_supervisions_dev-clean.jsonl.gz`). Corpus: a supervision's
 * `custom.corpus`, else `--corpus`.
 *
 * Memory: a recordings manifest is joined through `KeyedRecords` (keyed-records.ts): each recording one compact
 * string (spilled past the budget) and about 20 bytes of index, no object per recording.
 */
import type { AudioRef } from './types.ts'
import type { RowSink } from './row-log.ts'
import { dirOf, splitFromPath, splitName, type InputFiles } from './input-files.ts'
import { readJsonArray } from './json-array.ts'
import { readLines } from './lines.ts'
import { resolveNemoPath, type NemoPaths } from './nemo.ts'
import { KeyedRecords } from './keyed-records.ts'
import type { PlanBudget } from '../plan-store.ts'

/** What a manifest's name says it holds. */
export function lhotseKind(path: string): 'cuts' | 'recordings' | 'supervisions' | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase()
  if (!/\.(jsonl|json)(\.gz)?$/.test(name)) return null
  const m = /(?:^|[_.-])(cuts|recordings|supervisions)(?:[_.-]|$)/.exec(name)
  return m ? (m[1] as 'cuts' | 'recordings' | 'supervisions') : null
}

/** The Lhotse manifests of an input (anywhere in it), sorted. */
export function lhotseManifests(input: InputFiles): string[] {
  return input.files.map((f) => f.path).filter((p) => lhotseKind(p) !== null)
}

interface Source { type?: string; channels?: number[]; source?: string }
interface Recording { id?: string; sources?: Source[]; sampling_rate?: number; duration?: number }
interface Supervision { id?: string; recording_id?: string; start?: number; duration?: number; text?: string | null; language?: string | null; custom?: Record<string, unknown> | null }
interface Cut { id?: string; start?: number; duration?: number; recording?: Recording; supervisions?: Supervision[]; type?: string }

/** The records of one manifest, in order, with their line (or array position). */
async function* records(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<{ where: string; value: unknown; error: string | null }> {
  if (/\.json(\.gz)?$/i.test(path)) {
    // the older JSON-array form (Lhotse's own test fixtures): its elements one by one, never the file whole
    for await (const item of readJsonArray(input, path, signal)) {
      const where = item.index < 0 && item.error !== null ? path : `${path}[${Math.max(0, item.index)}]`
      if (item.error !== null) yield { where, value: null, error: item.error }
      else if (item.index < 0 && Array.isArray(item.value)) continue
      else yield { where, value: item.value, error: null }
    }
    return
  }
  for await (const { line, number } of readLines(input, path, signal)) {
    if (!line.trim()) continue
    try {
      yield { where: `${path}:${number}`, value: JSON.parse(line), error: null }
    } catch (error) {
      yield { where: `${path}:${number}`, value: null, error: `not JSON (${(error as Error).message})` }
    }
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** The audio of `[start, start + duration)` of a recording, or why it cannot be read. */
function recordingAudio(input: InputFiles, manifestDir: string, rec: Recording | undefined, start: number, duration: number | null, paths: NemoPaths): AudioRef | string {
  if (!rec || !Array.isArray(rec.sources) || rec.sources.length === 0) return 'no recording'
  if (rec.sources.length > 1) return `recording ${rec.id ?? '?'} is split over ${rec.sources.length} sources (one per channel): not read`
  const src = rec.sources[0]
  if (src.type !== 'file' || typeof src.source !== 'string') return `recording ${rec.id ?? '?'} has a "${src.type ?? '?'}" source: only "file" sources are read`
  const audio: AudioRef = { kind: 'file', path: resolveNemoPath(input, manifestDir, src.source, paths) }
  const whole = start === 0 && (duration === null || (num(rec.duration) !== null && duration >= rec.duration! - 1e-6))
  if (!whole) audio.segment = { offset: start, duration }
  return audio
}

/**
 * Rows of the cuts manifests, or of the supervisions manifests with their recordings, into `out`.
 * @param budget memory the recordings of one manifest may hold (their records past it go to the budget's spill)
 */
export async function readLhotse(input: InputFiles, manifests: string[], out: RowSink, signal?: AbortSignal, paths: NemoPaths = {}, budget: PlanBudget = {}): Promise<{ notes: string[] }> {
  const notes: string[] = []
  const cuts = manifests.filter((p) => lhotseKind(p) === 'cuts')
  const supervisions = manifests.filter((p) => lhotseKind(p) === 'supervisions')
  const recordings = new Set(manifests.filter((p) => lhotseKind(p) === 'recordings'))
  const bad = (where: string, split: string | null, message: string) =>
    out.add({ where, audio: null, text: null, language: null, split, corpus: null, duration: null, problem: { reason: 'bad-input-row', message: `${where}: ${message}` } })

  for (const path of cuts) {
    const split = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    for await (const r of records(input, path, signal)) {
      if (r.error || !r.value || typeof r.value !== 'object') { await bad(r.where, split, r.error ?? 'not a JSON object'); continue }
      const cut = r.value as Cut
      if (cut.type && cut.type !== 'MonoCut') { await bad(r.where, split, `a ${cut.type} (mixed or multi-channel cuts are not read)`); continue }
      const sups = (cut.supervisions ?? []).slice().sort((a, b) => (num(a.start) ?? 0) - (num(b.start) ?? 0))
      const audio = recordingAudio(input, dirOf(path), cut.recording, num(cut.start) ?? 0, num(cut.duration), paths)
      if (typeof audio === 'string') { await bad(r.where, split, audio); continue }
      const languages = [...new Set(sups.map((s) => text(s.language)).filter((l): l is string => !!l))]
      const corpora = [...new Set(sups.map((s) => text(s.custom?.corpus)).filter((c): c is string => !!c))]
      const texts = sups.map((s) => text(s.text)).filter((t): t is string => t !== null)
      await out.add({
        where: r.where, audio,
        text: texts.length ? texts.join(' ') : null,
        language: languages.length === 1 ? languages[0] : null,
        split, corpus: corpora.length === 1 ? corpora[0] : null, duration: num(cut.duration),
        problem: languages.length > 1 ? { reason: 'bad-input-row', message: `${r.where}: supervisions in several languages (${languages.join(', ')})` } : null,
      })
    }
  }

  for (const path of supervisions) {
    const split = splitName(splitFromPath(path.replace(/\.gz$/i, '')))
    const recPath = path.replace(/supervisions(?=[^/]*$)/i, (m) => (m === 'SUPERVISIONS' ? 'RECORDINGS' : 'recordings'))
    if (!recordings.has(recPath)) {
      notes.push(`lhotse: ${path} has no ${recPath} beside it; its supervisions are not read`)
      continue
    }
    const byId = new KeyedRecords(budget)
    try {
      for await (const r of records(input, recPath, signal)) {
        const rec = r.value as Recording | null
        // what recordingAudio reads of it
        if (rec && typeof rec.id === 'string') await byId.set(rec.id, JSON.stringify({ id: rec.id, sources: rec.sources, duration: rec.duration } satisfies Recording))
      }
      await joinSupervisions(path, recPath, split, byId)
    } finally {
      await byId.close()
    }
  }
  const lone = [...recordings].filter((p) => !supervisions.some((s) => s.replace(/supervisions(?=[^/]*$)/i, 'recordings') === p))
  if (lone.length) notes.push(`lhotse: ${lone.join(', ')} not read (no supervisions manifest beside them)`)
  return { notes }

  async function joinSupervisions(path: string, recPath: string, split: string | null, byId: KeyedRecords): Promise<void> {
    for await (const r of records(input, path, signal)) {
      if (r.error || !r.value || typeof r.value !== 'object') { await bad(r.where, split, r.error ?? 'not a JSON object'); continue }
      const sup = r.value as Supervision
      const found = typeof sup.recording_id === 'string' ? await byId.get(sup.recording_id) : undefined
      const rec = found === undefined ? undefined : JSON.parse(found) as Recording
      if (!rec) { await bad(r.where, split, `recording ${JSON.stringify(sup.recording_id)} is not in ${recPath}`); continue }
      const audio = recordingAudio(input, dirOf(recPath), rec, num(sup.start) ?? 0, num(sup.duration), paths)
      if (typeof audio === 'string') { await bad(r.where, split, audio); continue }
      await out.add({
        where: r.where, audio, text: text(sup.text), language: text(sup.language), split,
        corpus: text(sup.custom?.corpus), duration: num(sup.duration), problem: null,
      })
    }
  }
}
