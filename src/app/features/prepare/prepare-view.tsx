/**
 * Prepare: turn a raw speech corpus (NeMo manifest, Common Voice release, audiofolder, Hugging Face parquet) into
 * the mixture-parquet layout, as `mixscope prepare` does. Pick the input folder, see what was recognized (rows per
 * split and language, language decisions, skipped rows and why) before converting, convert into a folder you pick
 * or into the browser's storage (OPFS, then download a zip), pause, cancel, resume, and open the result.
 */
import { useMemo, useRef, useState, type ChangeEvent } from 'react'
import { viewStore } from '../../stores/use-view-store.ts'
import { useStore } from 'zustand'
import { engineClient } from '../../engine-client.ts'
import { formatCount, formatHours } from '../../lib/format.ts'
import { hasDirectoryPicker, pickDirectory, pickedFolderName } from '../../lib/pick-directory.ts'
import { preparedFolderName, storageLabel, storedDatasetRequest } from '../../lib/browser-storage.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'
import { createPrepareStore } from './prepare-store.ts'
import { PrepareOptionsForm } from './prepare-options.tsx'
import { RecognizedInput } from './recognized-input.tsx'
import './prepare.css'

export const prepareStore = createPrepareStore(engineClient)

type PickerWindow = Window & { showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle> }

export function PrepareView() {
  const s = useStore(prepareStore)
  const input = useRef<HTMLInputElement | null>(null)
  const [zipUrl, setZipUrl] = useState<{ url: string; name: string } | null>(null)
  const [pickError, setPickError] = useState<string | null>(null)
  const busy = s.status === 'running' || s.status === 'paused'
  const canRun = s.status === 'scanned' || s.status === 'done' || s.status === 'cancelled' || (s.status === 'error' && s.scan !== null)
  const undecided = useMemo(() => s.scan?.languages.filter((l) => l.output === null && l.candidates.length) ?? [], [s.scan])

  async function pickInput() {
    if (!hasDirectoryPicker()) return input.current?.click()
    const picked = await pickDirectory()
    if (picked.kind === 'handle') void prepareStore.getState().pick({ type: 'directory', handle: picked.handle }, picked.handle.name)
    else if (picked.kind === 'unavailable') input.current?.click()
  }

  function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (files.length) void prepareStore.getState().pick({ type: 'files', files }, pickedFolderName(files))
  }

  async function runIntoFolder() {
    const picker = (window as PickerWindow).showDirectoryPicker
    if (!picker) return setPickError('this browser cannot write into a folder you pick; convert into browser storage instead')
    try {
      const handle = await picker.call(window, { mode: 'readwrite', id: 'mixscope-prepare-out' })
      setPickError(null)
      void prepareStore.getState().run({ type: 'directory', handle }, handle.name)
    } catch (error) {
      if ((error as DOMException).name !== 'AbortError') setPickError((error as Error).message)
    }
  }

  function runIntoOpfs() {
    const name = preparedFolderName(s.input?.label ?? 'corpus')
    setZipUrl(null)
    void prepareStore.getState().run({ type: 'opfs', name }, storageLabel(name))
  }

  async function download() {
    if (s.output?.output.type !== 'opfs') return
    const name = s.output.output.name
    const blob = await engineClient.request('prepare-zip', { name })
    setZipUrl({ url: URL.createObjectURL(blob), name: `${name}.zip` })
  }

  async function openResult() {
    const out = s.output
    if (!out) return
    const request = out.output.type === 'directory'
      ? { description: { type: 'directory', handle: out.output.handle }, label: out.output.handle.name } as const
      : await storedDatasetRequest(out.output.name)
    viewStore.getState().show('overview')
    await datasetStore.getState().open(request)
  }

  const p = s.progress
  return (
    <section className="prepare-view" aria-labelledby="prepare-heading">
      <h2 id="prepare-heading">Prepare</h2>
      <p className="hint">Convert a speech corpus into the Omnilingual ASR mixture-parquet layout, as the reference dataprep does: text normalized, audio mixed to mono, resampled to 16 kHz and encoded, rows shuffled, written into <code>version=0/corpus=…/split=…/language=…</code> with the hours TSV beside it. Nothing leaves your machine.</p>

      <div className="prepare-step">
        <h3>1. Input</h3>
        <button type="button" onClick={() => void pickInput()} disabled={busy}>Choose input folder</button>
        <input ref={(el) => { input.current = el; if (el) el.webkitdirectory = true }} type="file" multiple hidden aria-label="Input folder (file dialog)" onChange={onFiles} />
        {s.input && <span className="prepare-input-name"> <span dir="auto">{s.input.label}</span></span>}
        <p className="hint">NeMo manifests (<code>.jsonl</code>), a Common Voice release folder, an audiofolder (<code>metadata.csv</code>), or Hugging Face parquet files with an <code>audio</code> column.</p>
        <PrepareOptionsForm form={s.form} disabled={busy} onChange={(patch) => prepareStore.getState().update(patch)} onApply={() => void prepareStore.getState().rescan()} canApply={s.input !== null} />
      </div>

      {s.status === 'scanning' && <p role="status">Reading the input…</p>}
      {s.error && <p role="alert" className="prepare-error">{s.error}</p>}

      {s.scan && (
        <div className="prepare-step">
          <h3>2. What was recognized</h3>
          <RecognizedInput scan={s.scan} onDecide={(code, language) => void prepareStore.getState().decide(code, language)} disabled={busy} />
        </div>
      )}

      {s.scan && (
        <div className="prepare-step">
          <h3>3. Convert</h3>
          {undecided.length > 0 && <p role="alert">Decide the language of {undecided.map((l) => `"${l.input}"`).join(', ')} above first.</p>}
          <div className="prepare-actions">
            <button type="button" onClick={() => void runIntoFolder()} disabled={!canRun || undecided.length > 0}>Convert into a folder…</button>
            <button type="button" onClick={runIntoOpfs} disabled={!canRun || undecided.length > 0}>Convert into browser storage</button>
            {s.status === 'running' && <button type="button" onClick={() => void prepareStore.getState().pause()}>Pause</button>}
            {s.status === 'paused' && <button type="button" onClick={() => void prepareStore.getState().resume()}>Resume</button>}
            {busy && <button type="button" onClick={() => prepareStore.getState().cancel()}>Cancel</button>}
            {s.status === 'cancelled' && s.output && <button type="button" onClick={() => void prepareStore.getState().run(s.output!.output, s.output!.label)}>Resume conversion</button>}
          </div>
          {pickError && <p role="alert">{pickError}</p>}
          {p && (
            <div className="prepare-progress" role="status" aria-live="polite">
              <progress max={Math.max(1, p.rowsTotal)} value={p.rowsDone} aria-label="Rows converted" />
              <span>
                {s.status === 'paused' ? 'Paused: ' : s.status === 'cancelled' ? 'Cancelled: ' : ''}
                {formatCount(p.rowsDone)} of {formatCount(p.rowsTotal)} rows, {formatHours(p.samplesWritten / 16000 / 3600)} written, {formatCount(p.filesWritten)} files
                {p.rowsFailed > 0 && <>, {formatCount(p.rowsFailed)} unreadable</>}
                {p.rowsResumed > 0 && <> ({formatCount(p.rowsResumed)} rows kept from the earlier run)</>}
              </span>
            </div>
          )}
          {s.status === 'cancelled' && <p className="hint">Finished files are kept; resuming continues after the last one.</p>}
          {s.report && (
            <div className="prepare-done" role="status">
              <p>Wrote {formatCount(s.report.rows_written)} rows ({formatHours(s.report.hours_written)}) in {formatCount(s.report.files.length)} files into {s.output?.label}; skipped rows are listed in <code>_prepare_skipped.jsonl</code>.</p>
              {(p?.rowsStreamed ?? 0) > 0 && (
                <p data-testid="prepare-streamed">
                  {formatCount(p!.rowsStreamed)} {p!.rowsStreamed === 1 ? 'clip' : 'clips'} from long input files converted a stretch at a time (read in pieces, never held whole).
                </p>
              )}
              <div className="prepare-actions">
                <button type="button" onClick={() => void openResult()}>Open in explorer</button>
                {s.output?.output.type === 'opfs' && !zipUrl && <button type="button" onClick={() => void download()}>Prepare zip download</button>}
                {zipUrl && <a href={zipUrl.url} download={zipUrl.name}>Download {zipUrl.name}</a>}
              </div>
              <table className="prepare-files">
                <caption>Files written</caption>
                <thead><tr><th scope="col">File</th><th scope="col">Rows</th><th scope="col">Hours</th></tr></thead>
                <tbody>
                  {s.report.files.slice(0, 200).map((f) => (
                    <tr key={f.path}><td><code>{f.path}</code></td><td className="num">{formatCount(f.rows)}</td><td className="num">{formatHours(f.audioSamples / 16000 / 3600)}</td></tr>
                  ))}
                </tbody>
              </table>
              {s.report.files.length > 200 && <p className="hint">… and {formatCount(s.report.files.length - 200)} more files.</p>}
            </div>
          )}
        </div>
      )}
      <p className="hint">The same conversion as <code>npx mixscope prepare &lt;input&gt; --out &lt;dir&gt;</code> (same bytes).</p>
    </section>
  )
}
