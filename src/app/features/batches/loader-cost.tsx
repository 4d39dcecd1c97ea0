/**
 * "Decode & featurize": runs the data loader's audio steps (decode, then the config's model input) over the open
 * batch and the ones after it, in the engine worker with decoding on helper Workers ahead of the features, and shows
 * per batch the padded shape, the times, how long features waited for audio, and the rows that failed.
 */
import { useState } from 'react'
import type { FeatureDevice } from '../../../engine/features/model-input.ts'
import { formatSeconds } from '../../lib/format.ts'
import { inspectExample } from './batch-detail.tsx'
import { batchesStore, useBatchesStore } from '../../stores/use-batches-store.ts'

/** Batches featurized per run: enough to see the pipeline settle, few enough to answer in a second or two. */
const LOADER_BATCHES = 8

export function LoaderCost({ from, streamed }: { from: number; streamed: number }) {
  const state = useBatchesStore((s) => s.featurize)
  const [device, setDevice] = useState<FeatureDevice>('gpu')
  const count = Math.max(1, Math.min(LOADER_BATCHES, streamed - from))
  const result = state.status === 'done' ? state.result : null
  const later = result ? result.batches.slice(1) : []
  const waited = later.reduce((s, b) => s + b.waitMs, 0)
  const featured = later.reduce((s, b) => s + b.featureMs, 0)
  return (
    <section className="loader-cost" aria-labelledby="loader-cost-heading">
      <h4 id="loader-cost-heading">Data loader cost</h4>
      <div className="row">
        <label className="field-inline">
          Features on{' '}
          <select value={device} onChange={(e) => setDevice(e.target.value as FeatureDevice)} aria-label="Feature device">
            <option value="gpu">GPU (WebGPU)</option>
            <option value="cpu">CPU</option>
          </select>
        </label>
        <button type="button" disabled={state.status === 'running'} onClick={() => void batchesStore.getState().featurizeBatches(from, count, device)}>
          Decode &amp; featurize batch{count === 1 ? ` ${from}` : `es ${from}–${from + count - 1}`}
        </button>
        {state.status === 'running' && <span role="status">Decoding and featurizing…</span>}
        {state.status === 'error' && <span className="field-problem" role="alert">{state.error}</span>}
      </div>
      {result && (
        <>
          <p role="status">
            Decoded {result.decodeWorkers === 0 ? 'in the engine worker' : `on ${result.decodeWorkers} helper Worker${result.decodeWorkers === 1 ? '' : 's'}`} ahead of the features on{' '}
            {result.device === 'gpu' ? `the GPU (${result.adapter})` : 'the CPU'}
            {result.fallbackReason && ` (no GPU: ${result.fallbackReason})`}. After the first batch, features waited{' '}
            {waited.toFixed(0)} ms for audio over {featured.toFixed(0)} ms of feature work:{' '}
            <strong data-bottleneck={result.bottleneck}>{result.bottleneck === 'decode' ? 'decoding is the bottleneck here' : 'decoding keeps up'}</strong>.
            {' '}SpecAugment is left out (the Inspector shows its masks).
          </p>
          <table aria-label="Data loader cost per batch" className="loader-table">
            <thead>
              <tr>
                <th scope="col" className="num">Batch</th>
                <th scope="col" title="Padded model input: [examples, samples] for waveform models, [examples, frames, 80] for fbank">Model input</th>
                <th scope="col" className="num">Audio</th>
                <th scope="col" className="num" title="Wall time from handing the batch to the decoders to its audio coming back (overlaps earlier batches)">Decode ms</th>
                <th scope="col" className="num" title="Model input of every decoded example">Features ms</th>
                <th scope="col" className="num" title="How long the feature stage waited for this batch's audio">Waited ms</th>
                <th scope="col">Decoders</th><th scope="col">Failed rows</th>
              </tr>
            </thead>
            <tbody>
              {result.batches.map((b) => (
                <tr key={b.index}>
                  <td className="num">{b.index}</td>
                  <td><code>{b.shape ? `[${b.shape.join(', ')}]` : '—'}</code></td>
                  <td className="num">{formatSeconds(b.audioSeconds)}</td>
                  <td className="num">{b.decodeMs.toFixed(0)}</td>
                  <td className="num">{b.featureMs.toFixed(0)}</td>
                  <td className="num">{b.waitMs.toFixed(0)}</td>
                  <td>{b.decoders.join(', ')}</td>
                  <td>
                    {b.failed.length === 0 ? 'none' : b.failed.map((f, i) => (
                      <button key={i} type="button" className="link" title={f.error} onClick={() => inspectExample(f.id, b.index)}><code dir="auto">{f.id}</code></button>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}
