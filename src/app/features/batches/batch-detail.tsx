/**
 * One open batch: its composition per (corpus, language) and its examples. Clicking an example selects it (with the
 * batch) and shows it in the Inspector.
 */
import type { PlannedBatch } from '../../../engine/pipeline/plan-batches.ts'
import type { BatchSummary } from '../../../engine/batches/batch-summary.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatCount, formatSamples, formatShare } from '../../lib/format.ts'
import { selectionStore } from '../../stores/selection-store.ts'
import { viewStore } from '../../stores/use-view-store.ts'

/** Selects an example of a batch and shows it in the Inspector. */
export function inspectExample(exampleId: string, batchIndex: number | null): void {
  selectionStore.getState().select(exampleId, batchIndex)
  viewStore.getState().show('inspector')
}

export function BatchDetail({ summary, batch }: { summary: BatchSummary; batch: PlannedBatch | null }) {
  return (
    <section className="batch-detail" aria-labelledby="batch-detail-heading">
      <h3 id="batch-detail-heading">Batch {summary.index} (step {summary.step}, {summary.indexInStep + 1} in step)</h3>
      <p>
        {formatCount(summary.size)} examples, longest {formatCount(summary.longest)} samples ({formatSamples(summary.longest)}),
        {' '}{formatCount(summary.padded)} padded elements, {formatShare(summary.waste)} padding.
      </p>
      <table aria-label={`Composition of batch ${summary.index}`}>
        <thead><tr><th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">Examples</th><th scope="col">Share</th></tr></thead>
        <tbody>
          {summary.partitions.map((p) => (
            <tr key={`${p.corpus}/${p.language}`}>
              <td dir="auto">{p.corpus}</td>
              <LanguageCell code={p.language} />
              <td className="num">{p.count}</td>
              <td><span className="share-bar" style={{ width: `${(100 * p.count) / summary.size}%` }} aria-hidden="true" /> {formatShare(p.count / summary.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {batch === null ? <p role="status">Loading examples…</p> : (
        <table aria-label={`Examples of batch ${summary.index}`} className="examples">
          <thead>
            <tr><th scope="col">Example</th><th scope="col">Language</th><th scope="col" className="num">Length (samples)</th><th scope="col" className="num">Duration</th><th scope="col">Transcript</th></tr>
          </thead>
          <tbody>
            {batch.examples.map((e) => {
              const id = `${e.file}:${e.row}`
              return (
                <tr key={id}>
                  <td className="where"><button type="button" className="link" onClick={() => inspectExample(id, batch.index)} title="Show in the Inspector"><code dir="auto">{id}</code></button></td>
                  <LanguageCell code={e.language} />
                  <td className="num">{formatCount(e.length)}</td>
                  <td className="num" title={`${e.length} samples at 16 kHz`}>{formatSamples(e.length)}</td>
                  <td dir="auto" className="transcript">{e.text}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </section>
  )
}
