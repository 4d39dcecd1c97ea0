/**
 * NeMo manifests: JSON Lines with `audio_filepath` (relative to the manifest, or absolute), `text`, and optionally
 * `duration` (s), `lang`/`language`, `split`, `corpus`. The split of a row without one comes from the manifest's
 * name (`train_manifest.json`).
 */
import type { InputRow } from './types.ts'
import { dirOf, readText, resolveAudioPath, splitFromPath, splitName, type InputFiles } from './input-files.ts'

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)

/** Rows of the manifests `paths`, in file then line order (`index` is filled in by the caller). */
export async function readNemo(input: InputFiles, paths: string[], signal?: AbortSignal): Promise<Omit<InputRow, 'index'>[]> {
  const rows: Omit<InputRow, 'index'>[] = []
  for (const path of paths) {
    const base = dirOf(path)
    const fileSplit = splitName(splitFromPath(path))
    const lines = (await readText(input, path, signal)).split(/\r?\n/)
    lines.forEach((line, i) => {
      if (line.trim() === '') return
      const where = `${path}:${i + 1}`
      const empty = { where, audio: null, text: null, language: null, split: fileSplit, corpus: null, duration: null }
      let entry: Record<string, unknown>
      try {
        const parsed: unknown = JSON.parse(line)
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object')
        entry = parsed as Record<string, unknown>
      } catch (error) {
        rows.push({ ...empty, problem: { reason: 'bad-input-row', message: `${where}: not a JSON object (${(error as Error).message})` } })
        return
      }
      const audioPath = str(entry.audio_filepath)
      const duration = typeof entry.duration === 'number' && Number.isFinite(entry.duration) ? entry.duration : null
      rows.push({
        where,
        audio: audioPath ? { kind: 'file', path: resolveAudioPath(input, base, audioPath) } : null,
        text: str(entry.text),
        language: str(entry.lang) ?? str(entry.language),
        split: str(entry.split) ?? fileSplit,
        corpus: str(entry.corpus),
        duration,
        problem: audioPath ? null : { reason: 'bad-input-row', message: `${where}: no "audio_filepath"` },
      })
    })
  }
  return rows
}
