/**
 * Batches: the batches one rank of the training (or eval) run sees for the config, streamed from the worker in
 * chunks; the bucket table, the mixture with live sampler counts, drops, rank diagnostics; open a batch to see its
 * examples, and decode + featurize it and the next batches (what the data loader costs on this machine); export
 * the plan as JSONL (`mixscope batches --jsonl`, byte for byte) or Arrow IPC.
 */
import { memo, useDeferredValue, useEffect, useMemo, useState } from 'react'
import { engineClient } from '../../engine-client.ts'
import { formatCount, formatShare } from '../../lib/format.ts'
import { configSpec, useConfigStore, useResolvedConfig } from '../../stores/config-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableReport } from '../../stores/dataset-store.ts'
import { BatchDetail } from './batch-detail.tsx'
import { BatchList } from './batch-list.tsx'
import { LoaderCost } from './loader-cost.tsx'
import { ConfigForm } from './config-form.tsx'
import { downloadBytes } from '../../lib/download.ts'
import { BucketTable, DropsTable, MixtureTable, RankDiagnostics } from './plan-tables.tsx'
import { BatchPictures } from './batch-pictures.tsx'
import { batchesStore, useBatchesStore } from '../../stores/use-batches-store.ts'
import type { BatchesState } from '../../stores/batches-store.ts'
import { useViewActive } from '../../stores/view-active.ts'
import { selectionStore, useSelectionStore } from '../../stores/selection-store.ts'
import './batches.css'

const statusText = { idle: 'Idle', starting: 'Planning…', streaming: 'Streaming batches…', done: 'Done', stopped: 'Stopped', error: 'Failed' } as const

/** Opens a batch and puts it in the URL (`batch=N`: a link to the view opens it again). */
function openBatch(index: number) {
  void batchesStore.getState().select(index)
  selectionStore.getState().select(selectionStore.getState().exampleId, index)
}

/**
 * The config form, the resolved config's problems, and the plan it asks for: the only part of the view that a config
 * change re-renders (a beta step on the Mixture re-renders nothing else here, shown or hidden); the store decides
 * whether the change needs a new plan (batches-store.ts).
 */
function BatchesConfig({ dataset }: { dataset: number | null }) {
  const configState = useConfigStore((x) => x)
  const spec = useMemo(() => configSpec(configState), [configState])
  const maxBatches = configState.maxBatches
  const resolved = useResolvedConfig(engineClient)
  useEffect(() => {
    if (dataset === null) return
    void batchesStore.getState().run(dataset, spec, maxBatches)
  }, [dataset, spec, maxBatches])
  return (
    <>
      <ConfigForm resolved={resolved} />
      {resolved && resolved.findings.length > 0 && (
        <ul className="config-findings" aria-label="Config problems">
          {resolved.findings.map((f, i) => <li key={i}><span className={`severity ${f.severity}`}>{f.severity}</span> <code>{f.kind}</code> <span dir="auto">{f.message}</span></li>)}
        </ul>
      )}
    </>
  )
}

export function BatchesView() {
  const report = useDatasetStore(usableReport)
  // the status line, pictures, lists and tables draw from a deferred copy of the stream, so a chunk of batches landing
  // (a synchronous store update) re-renders next to nothing at once, and the status line never says more than the
  // list shows ("Done" once the list has every batch); the buttons follow the store itself
  const s = useBatchesStore((x) => x)
  const shown = useDeferredValue(s)
  const [exportError, setExportError] = useState<string | null>(null)
  const dataset = report?.dataset ?? null

  useEffect(() => () => batchesStore.getState().dispose(), [])
  // the batch in the URL (`batch=N`, the Inspector's batch context too) opens as soon as the stream has it
  const linked = useSelectionStore((x) => x.batchIndex)
  const streamed = s.batches.length
  useEffect(() => {
    if (linked !== null && linked < streamed && batchesStore.getState().selected !== linked) void batchesStore.getState().select(linked)
  }, [linked, streamed])
  // hidden (another tab shown), the stream waits: no chunk lands on the main thread while nobody looks
  const active = useViewActive()
  useEffect(() => batchesStore.getState().setVisible(active), [active])

  if (!report) return <div className="empty-state"><h3>No dataset open</h3><p>Open a dataset to see the batches one rank of training draws from it, exactly as the reference builds them.</p></div>
  const totalWaste = shown.batches.reduce((a, b) => a + b.padded, 0)
  const totalSamples = shown.batches.reduce((a, b) => a + b.samples, 0)

  async function exportAs(format: 'jsonl' | 'arrow') {
    setExportError(null)
    try {
      const bytes = await batchesStore.getState().exportPlan(format)
      downloadBytes(bytes, format === 'jsonl' ? 'batches.jsonl' : 'batches.arrow', format === 'jsonl' ? 'application/x-ndjson' : 'application/vnd.apache.arrow.file')
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <section className="batches-view" aria-labelledby="batches-heading" data-plans={s.plans}>
      <h2 id="batches-heading" className="visually-hidden">Batches</h2>
      <BatchesConfig dataset={dataset} />
      <div className="stream-status" role="status" aria-live="polite">
        <strong data-status={shown.status}>{statusText[shown.status]}</strong>
        {' '}{formatCount(shown.batches.length)} batch{shown.batches.length === 1 ? '' : 'es'}
        {shown.start?.limit !== null && shown.start?.limit !== undefined && ` of ${formatCount(shown.start.limit)}`}
        {shown.start && ` · split ${shown.start.config.split}, rank ${shown.start.config.rank}/${shown.start.config.world_size}, seed ${shown.start.config.seed}${shown.start.trainStreaming ? ' (train stream: infinite, cut at max batches)' : ' (one pass)'}`}
        {shown.batches.length === 0 && shown.rowGroupsRead !== null && shown.start && ` · ${formatCount(shown.rowGroupsRead)} row groups read`}
        {shown.warmUp && <WarmUpNote warmUp={shown.warmUp} />}
        {shown.rate !== null && ` · ${shown.rate.toFixed(0)} batches/s`}
        {shown.live && ` · ${formatCount(shown.live.io.rows)} rows read`}
        {totalWaste > 0 && ` · padding ${formatShare(1 - totalSamples / totalWaste)}`}
      </div>
      {s.error && <p className="field-problem" role="alert">{s.error}</p>}
      <div className="row">
        {s.status === 'streaming' && <button type="button" onClick={() => batchesStore.getState().stop()}>Stop</button>}
        {s.status === 'stopped' && <button type="button" onClick={() => void batchesStore.getState().resume()}>Continue</button>}
        <button type="button" disabled={s.batches.length === 0} onClick={() => void exportAs('jsonl')}>Export JSONL</button>
        <button type="button" disabled={s.batches.length === 0} onClick={() => void exportAs('arrow')}>Export Arrow IPC</button>
        {exportError && <span className="field-problem" role="alert">{exportError}</span>}
      </div>
      <div aria-busy={shown !== s}>
        <BatchesBody state={shown} />
      </div>
    </section>
  )
}

/**
 * The sampler's first fill, read behind the first batch: training reads one row group of every partition stream
 * before its first batch, and a failing read stops it there, so the batches stand once every stream is read.
 */
function WarmUpNote({ warmUp }: { warmUp: NonNullable<BatchesState['warmUp']> }) {
  const title = `Training reads one row group of each of its ${formatCount(warmUp.total)} partition streams before its first batch (its warm-up and the sampler's first draw). ` +
    'mixscope shows the batches once their own rows are read and checks the rest behind them: the batches are the same, unless one of those reads fails, which stops training before any batch.'
  if (warmUp.status === 'done') return <span className="warm-up-note" data-warm-up="done" title={title}> · warm-up checked: {formatCount(warmUp.total)} streams</span>
  if (warmUp.status === 'failed') return <span className="warm-up-note" data-warm-up="failed" title={title}> · warm-up failed</span>
  return <span className="warm-up-note" data-warm-up="running" title={title}> · provisional until the warm-up is checked: {formatCount(warmUp.filled)} of {formatCount(warmUp.total)} streams read</span>
}

/** The view below its status line, from the deferred copy of the store (memoized: an equal copy skips it). */
const BatchesBody = memo(function BatchesBody({ state }: { state: BatchesState }) {
  const selectedSummary = state.selected === null ? null : state.batches[state.selected] ?? null
  return (
    <>
      {state.start && <BatchPictures batches={state.batches} start={state.start} onOpen={openBatch} />}
      <div className="batches-main">
        <BatchList batches={state.batches} selected={state.selected} onSelect={openBatch} />
        {selectedSummary ? <BatchDetail summary={selectedSummary} batch={state.selectedBatch} /> : <p className="hint">Open a batch (click, or Enter) to list its examples.</p>}
      </div>
      {selectedSummary && <LoaderCost from={selectedSummary.index} streamed={state.batches.length} />}
      {state.start && (
        <div className="plan-tables">
          <section aria-labelledby="buckets-heading"><h3 id="buckets-heading">Length buckets</h3><BucketTable start={state.start} /></section>
          <section aria-labelledby="mixture-streams-heading">
            <h3 id="mixture-streams-heading">Mixture streams</h3>
            {state.start.mixture ? <MixtureTable mixture={state.live?.mixture ?? state.start.mixture} /> : <p>No mixture: one stream{state.start.summaryPath ? '' : ' (no language_distribution TSV)'}.</p>}
            {state.start.unweighted.length > 0 && <p>Left out (no TSV row): {state.start.unweighted.map((u) => `${u.corpus}/${u.language}`).join(', ')}</p>}
          </section>
          <section aria-labelledby="drops-heading"><h3 id="drops-heading">Dropped so far</h3><DropsTable drops={state.live?.drops ?? []} /></section>
          <section aria-labelledby="ranks-heading"><h3 id="ranks-heading">Rank diagnostics</h3><RankDiagnostics start={state.start} /></section>
        </div>
      )}
    </>
  )
})
