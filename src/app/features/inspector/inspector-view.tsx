/**
 * The Inspector: one example, listened to and looked at as training sees it. Player (Blob URL of the worker's WAV),
 * waveform with a zoomable visible window and play-head, the display spectrogram of that window, the model input,
 * transcript and tokens, metadata and findings. Keys: j / → next example, k / ← previous, J / K next / previous
 * batch, space play / pause. "Play batch" plays the batch's examples one after another.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { DisplaySpectrogram } from '../../../engine/features/display-spectrogram.ts'
import { useStore } from 'zustand'
import type { ExampleFacts } from '../../../engine/examples/example-facts.ts'
import type { InspectConfig } from '../../../engine/worker/protocol/inspect.ts'
import { exampleKeysOf } from '../../../engine/index.ts'
import { engineClient } from '../../engine-client.ts'
import { formatSeconds } from '../../lib/format.ts'
import { playbackStore } from '../../stores/playback-store.ts'
import { languageLabel } from '../../lib/language-names.ts'
import { useSelectionStore } from '../../stores/selection-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableDataset } from '../../stores/dataset-store.ts'
import { FactsPanel, FindingsPanel, MetadataPanel, TranscriptPanel } from './details-panels.tsx'
import { ModelInputPanel } from './model-input-panel.tsx'
import { stepBatch, stepExample } from './navigation.ts'
import { inspectorStore, useInspectConfig, useInspectorStore } from './use-inspector.ts'
import { SpectrogramPlot, WaveformPlot } from './plots.tsx'
import './inspector.css'

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName))
}

/** The display spectrogram of the visible window: the whole-clip one from the inspect result, else a window request. */
function useWindowSpectrogram(dataset: number | null, id: string | null, whole: DisplaySpectrogram | null, start: number, end: number, total: number): DisplaySpectrogram | null {
  const device = useInspectorStore((s) => s.settings.device)
  const [windowed, setWindowed] = useState<DisplaySpectrogram | null>(null)
  const isWhole = start === 0 && end === total
  useEffect(() => {
    if (isWhole || dataset === null || id === null) return
    const controller = new AbortController()
    engineClient.request('inspect-spectrogram', { dataset, exampleId: id, start, end, maxFrames: 1200, device }, { signal: controller.signal })
      .then(setWindowed, () => undefined)
    return () => controller.abort()
  }, [dataset, id, start, end, isWhole, device])
  return isWhole ? whole : windowed
}

/** The Inspector; `compact` is the panel beside the Examples list (same content, the list stays in view). */
/** What is known about `id` without decoding it (`example-facts`), fetched only when asked for. */
function useExampleFacts(dataset: number | null, id: string | null, config: InspectConfig | null): ExampleFacts | null {
  const [facts, setFacts] = useState<ExampleFacts | null>(null)
  useEffect(() => {
    if (dataset === null || id === null) return
    const controller = new AbortController()
    engineClient.request('example-facts', { dataset, exampleId: id, config }, { signal: controller.signal }).then(setFacts, () => undefined)
    return () => controller.abort()
  }, [dataset, id, config])
  return facts
}

export function InspectorView({ compact = false }: { compact?: boolean }) {
  const dataset = useDatasetStore(usableDataset)
  const exampleId = useSelectionStore((s) => s.exampleId)
  const batchIndex = useSelectionStore((s) => s.batchIndex)
  const { config, error: configError } = useInspectConfig()
  const settings = useInspectorStore((s) => s.settings)
  const status = useInspectorStore((s) => s.status)
  const result = useInspectorStore((s) => s.result)
  const audioUrl = useInspectorStore((s) => s.audioUrl)
  const error = useInspectorStore((s) => s.error)
  const audio = useRef<HTMLAudioElement>(null)
  const facts = useExampleFacts(dataset, status === 'error' ? exampleId : null, config)
  const pendingPlay = useStore(playbackStore, (s) => s.pending)
  const [playhead, setPlayhead] = useState<number | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [playingBatch, setPlayingBatch] = useState(false)
  const [zoomState, setZoomState] = useState<{ id: string; start: number; end: number } | null>(null)
  const configKey = JSON.stringify(config)

  useEffect(() => {
    if (dataset === null || exampleId === null || config === null) return
    void inspectorStore.getState().load(dataset, exampleId, config)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- configKey stands for config
  }, [dataset, exampleId, configKey, settings])
  // the Blob URL goes when the Inspector is no longer shown
  useEffect(() => () => inspectorStore.getState().clear(), [])

  const step = useCallback((run: () => Promise<string | null>) => {
    void run().then(setMessage, (e: Error) => setMessage(e.message))
  }, [])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return
      const key = event.key
      if (key === 'j' || key === 'ArrowRight') step(() => stepExample(1))
      else if (key === 'k' || key === 'ArrowLeft') step(() => stepExample(-1))
      else if (key === 'J') step(() => stepBatch(1))
      else if (key === 'K') step(() => stepBatch(-1))
      else if (key === ' ' && (event.target as HTMLElement | null)?.tagName !== 'BUTTON') {
        const a = audio.current
        if (a) void (a.paused ? a.play().catch(() => undefined) : a.pause())
      } else return
      event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [step])

  // a list asked to play this example: play it as soon as its audio is here
  useEffect(() => {
    const a = audio.current
    if (!a || !audioUrl || pendingPlay === null || result?.meta.id !== pendingPlay) return
    playbackStore.getState().done(pendingPlay)
    void a.play().catch(() => undefined)
  }, [audioUrl, pendingPlay, result])
  useEffect(() => { if (status === 'error' && pendingPlay !== null && pendingPlay === exampleId) playbackStore.getState().done(pendingPlay) }, [status, pendingPlay, exampleId])

  // play-head follows the audio; in "play batch" a new example starts when it arrives
  useEffect(() => {
    const a = audio.current
    if (!a) return
    let frame = 0
    const tick = () => { setPlayhead(a.currentTime); if (!a.paused) frame = requestAnimationFrame(tick) }
    const onPlay = () => { frame = requestAnimationFrame(tick) }
    const onEnded = () => {
      setPlayhead(a.currentTime)
      if (playingBatch) step(async () => { const m = await stepExample(1); if (m) setPlayingBatch(false); return m })
    }
    a.addEventListener('play', onPlay)
    a.addEventListener('seeked', tick)
    a.addEventListener('ended', onEnded)
    if (playingBatch && audioUrl) void a.play().catch(() => undefined)
    return () => { cancelAnimationFrame(frame); a.removeEventListener('play', onPlay); a.removeEventListener('seeked', tick); a.removeEventListener('ended', onEnded) }
  }, [audioUrl, playingBatch, step])

  // the result shown belongs to the selected example (an error for another example keeps the old result in the store)
  const shown = result && result.meta.id === exampleId ? result : null
  const total = shown?.display.length ?? 0
  // a zoom belongs to the example it was made on
  const zoom = zoomState && zoomState.id === shown?.meta.id ? zoomState : null
  const setZoom = (z: { start: number; end: number } | null) => setZoomState(z && result ? { id: result.meta.id, ...z } : null)
  const view = zoom ?? { start: 0, end: total }
  const spectrogram = useWindowSpectrogram(dataset, shown?.meta.id ?? null, shown?.spectrogram ?? null, view.start, view.end, total)
  const zoomBy = (factor: number) => {
    if (!result) return
    const centre = playhead !== null ? playhead * result.meta.sampleRate : (view.start + view.end) / 2
    const width = Math.min(total, Math.max(800, Math.round((view.end - view.start) * factor)))
    const start = Math.max(0, Math.min(total - width, Math.round(centre - width / 2)))
    setZoom(width >= total ? null : { start, end: start + width })
  }

  if (dataset === null) return <div className="empty-state"><h3>No dataset open</h3><p>Open a dataset, then pick an example in Examples or Batches (or press j here).</p></div>
  // from the selected id, never from the last example decoded (an undecodable row keeps the previous result)
  const language = exampleId ? exampleKeysOf(exampleId).language : undefined
  const headingId = compact ? 'inspector-panel-heading' : 'inspector-heading'
  return (
    <section className={`inspector${compact ? ' compact' : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={compact ? 'panel-title' : 'visually-hidden'}>Inspector</h2>
      <div className="inspector-nav">
        <button type="button" onClick={() => step(() => stepExample(-1))} aria-keyshortcuts="k ArrowLeft">← Previous (k)</button>
        <button type="button" onClick={() => step(() => stepExample(1))} aria-keyshortcuts="j ArrowRight">Next (j) →</button>
        <button type="button" onClick={() => step(() => stepBatch(-1))} aria-keyshortcuts="Shift+K">← Batch (K)</button>
        <button type="button" onClick={() => step(() => stepBatch(1))} aria-keyshortcuts="Shift+J">Batch (J) →</button>
        {batchIndex !== null && <button type="button" aria-pressed={playingBatch} onClick={() => setPlayingBatch((p) => !p)}>{playingBatch ? 'Stop batch' : `Play batch ${batchIndex}`}</button>}
        <span className="inspector-id" data-testid="inspector-example-id">
          {exampleId ? <><code>{exampleId}</code>{language && <> — {languageLabel(language)}</>}{batchIndex !== null && <> — batch {batchIndex}</>}</> : 'No example selected: pick one in Examples or Batches, or press j.'}
        </span>
        {status === 'loading' && <span className="hint" aria-live="polite">Decoding…</span>}
      </div>
      {message && <p className="hint" role="status">{message}</p>}
      {configError && <p className="field-problem" role="alert">Config: {configError}</p>}
      {error && <p className="field-problem" role="alert">{error}</p>}
      {!exampleId && <div className="empty-state"><h3>No example selected</h3><p>Pick a row in the Examples list or a batch's example, or press j for the first example of the Examples list.</p></div>}
      {status === 'error' && facts && facts.id === exampleId && <FactsPanel facts={facts} />}
      {shown && config && (
        <>
          <div className="player">
            <audio ref={audio} controls src={audioUrl ?? undefined} data-testid="inspector-audio"
              aria-label={`Audio of ${shown.meta.id} (${shown.playback.sampleRate} Hz, 16-bit)`} />
            <button type="button" onClick={() => zoomBy(0.5)}>Zoom in</button>
            <button type="button" onClick={() => zoomBy(2)} disabled={!zoom}>Zoom out</button>
            <button type="button" onClick={() => setZoom(null)} disabled={!zoom}>Whole clip</button>
            <span className="hint">{formatSeconds(view.start / shown.meta.sampleRate)} – {formatSeconds(view.end / shown.meta.sampleRate)} shown; click the waveform to seek</span>
          </div>
          <WaveformPlot testId="waveform-canvas" samples={shown.display} sampleRate={shown.meta.sampleRate} start={view.start} end={view.end}
            playhead={playhead} fixedScale label={`Waveform of ${shown.meta.id} (full scale ±1)`}
            onSeek={(s) => { if (audio.current) { audio.current.currentTime = s; setPlayhead(s) } }} />
          {spectrogram && <SpectrogramPlot testId="spectrogram-canvas" spec={spectrogram} playhead={playhead}
            label="Display spectrogram (power STFT, dB) of the visible window" />}
          <div className="inspector-columns">
            <TranscriptPanel result={shown} />
            <MetadataPanel result={shown} />
          </div>
          <FindingsPanel result={shown} />
          <ModelInputPanel result={shown} config={config} playhead={playhead} />
        </>
      )}
    </section>
  )
}
