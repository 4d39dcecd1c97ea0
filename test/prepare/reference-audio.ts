/**
 * The reference dataprep's audio path run in Python on the input files (libsndfile via python3-soundfile →
 * `mean` over channels → `torchaudio.functional.resample` → soundfile's PCM_16 FLAC, as torchaudio.save writes it),
 * compared with the FLAC clips a prepared dataset holds (read back with DuckDB): samples apart, per clip.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { query } from '../helpers/duckdb.ts'
import { runPython } from './python.ts'

/** One input clip: its file, the segment NeMo reads (seconds), and the transcript it was written with. */
export interface ReferenceClip { path: string; text: string; offset?: number; duration?: number }

/** Per clip: frames written, frames the reference gives, the largest difference in 16-bit steps. */
export interface ClipComparison { text: string; frames: number; refFrames: number; maxDiff: number | null }

/**
 * Compares every clip of `clips` (found by its normalized text) in the prepared dataset under `root` (`version=0`).
 * @param normalize the transcript as written (the dataprep's normalization)
 */
export async function compareWithReference(root: string, clips: ReferenceClip[], normalize: (t: string) => string): Promise<ClipComparison[]> {
  const rows = await query(`SELECT text, audio_bytes FROM read_parquet('${root}/**/*.parquet', hive_partitioning=true)`)
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-reference-'))
  const items = clips.map((c, i) => {
    const row = rows.find((r) => r.text === normalize(c.text))
    if (!row) throw new Error(`no row with the text ${JSON.stringify(normalize(c.text))}`)
    const bytes = (row.audio_bytes as { items?: number[] }).items ?? (row.audio_bytes as number[])
    writeFileSync(join(dir, `${i}.flac`), Uint8Array.from(bytes, (b) => b & 0xff))
    return { path: c.path, offset: c.offset ?? 0, duration: c.duration ?? null }
  })
  const out = JSON.parse(runPython(`
import sys, json, io, numpy as np, soundfile as sf, torch, torchaudio
d, items = sys.argv[1], json.loads(sys.argv[2])
res = []
for i, it in enumerate(items):
    ours, _ = sf.read(f'{d}/{i}.flac', dtype='int16')
    with sf.SoundFile(it['path']) as f:                       # libsndfile, as fairseq2's AudioDecoder / NeMo's reader
        sr = f.samplerate
        f.seek(int(it['offset'] * sr))
        wav = f.read(frames=int(it['duration'] * sr) if it['duration'] is not None else -1, dtype='float32', always_2d=True)
    x = torch.from_numpy(wav).mean(dim=1, keepdim=True).reshape(1, -1)
    if sr != 16000:
        x = torchaudio.functional.resample(x, sr, 16000)
    b = io.BytesIO(); sf.write(b, x[0].numpy(), 16000, format='FLAC', subtype='PCM_16'); b.seek(0)
    ref, _ = sf.read(b, dtype='int16')
    diff = int(np.abs(ours.astype(np.int32) - ref.astype(np.int32)).max()) if len(ours) == len(ref) and len(ref) else None
    res.append({'frames': len(ours), 'refFrames': len(ref), 'maxDiff': diff})
print(json.dumps(res))
`, [dir, JSON.stringify(items)])) as Omit<ClipComparison, 'text'>[]
  return out.map((o, i) => ({ ...o, text: clips[i].text }))
}
