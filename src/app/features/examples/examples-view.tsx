/**
 * The Examples view: the filter form and a virtualized list of the matching examples (pages fetched from the worker
 * as they scroll into view). Choosing a row (click, Enter) selects the example and opens the Inspector.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { ExampleSummary } from '../../../engine/examples/search.ts'
import { languageName } from '../../lib/language-names.ts'
import { formatCount } from '../../lib/format.ts'
import { selectionStore, useSelectionStore } from '../../stores/selection-store.ts'
import { viewStore } from '../../stores/use-view-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { ExamplesFilter } from './examples-filter.tsx'
import { examplesStore, useExamplesStore } from '../../stores/use-examples-store.ts'
import './examples.css'

const rowHeight = 34

/** Seconds of `samples` stored 16 kHz samples, e.g. `3.15 s`; `—` for null. */
export function formatSamples(samples: number | null): string {
  return samples === null ? '—' : `${(samples / 16000).toFixed(2)} s`
}

/** Opens `id` in the Inspector (no batch). */
export function inspectExample(id: string): void {
  selectionStore.getState().select(id)
  viewStore.getState().show('inspector')
}

function Row({ row, selected }: { row: ExampleSummary | undefined; selected: boolean }) {
  if (!row) return <div className="examples-row loading" aria-hidden="true">…</div>
  const name = languageName(row.language)
  return (
    <div className={`examples-row${selected ? ' selected' : ''}`} role="option" aria-selected={selected} tabIndex={0}
      data-example-id={row.id}
      onClick={() => inspectExample(row.id)}
      onKeyDown={(e) => { if (e.key === 'Enter') inspectExample(row.id) }}>
      <span className="examples-language"><code>{row.language}</code>{name && <span className="language-name"> {name}</span>}</span>
      <span className="examples-corpus">{row.corpus} · {row.split}</span>
      <span className="examples-length num">{formatSamples(row.audioSize)}</span>
      <span className="examples-text" dir="auto">{row.text ?? <em className="hint">null transcript</em>}</span>
      <span className={`examples-findings severity ${row.severity ?? ''}`}>
        {row.findings > 0 ? `${row.findings} finding${row.findings === 1 ? '' : 's'}` : ''}
      </span>
    </div>
  )
}

function ExamplesList() {
  const total = useExamplesStore((s) => s.total) ?? 0
  // re-render when pages arrive
  useExamplesStore((s) => s.pages)
  const selected = useSelectionStore((s) => s.exampleId)
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 20 })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0
  useEffect(() => {
    if (total > 0) void examplesStore.getState().ensureRange(first, last + 1)
  }, [first, last, total])

  return (
    <div className="examples-scroller" ref={scroller} role="listbox" aria-label="Examples" tabIndex={-1}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = examplesStore.getState().rowAt(item.index)
          return (
            <div key={item.key} className="examples-slot" style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}>
              <Row row={row} selected={row?.id === selected} />
            </div>
          )
        })}
      </div>
    </div>
  )
}

export function ExamplesView() {
  const dataset = useDatasetStore((s) => s.report?.dataset ?? null)
  const status = useExamplesStore((s) => s.status)
  const error = useExamplesStore((s) => s.error)
  const progress = useExamplesStore((s) => s.progress)
  const total = useExamplesStore((s) => s.total)
  const sample = useExamplesStore((s) => s.sample)

  useEffect(() => { void examplesStore.getState().load(dataset) }, [dataset])

  if (dataset === null) return <section aria-labelledby="examples-heading"><h2 id="examples-heading">Examples</h2><p className="hint">Open a dataset first.</p></section>
  return (
    <section className="examples-view" aria-labelledby="examples-heading">
      <h2 id="examples-heading">Examples</h2>
      <ExamplesFilter />
      <p className="examples-count" aria-live="polite">
        {status === 'loading' && total === null
          ? `Reading audio_size and text${progress ? `: ${progress.done} of ${progress.total ?? '?'} row groups` : '…'}`
          : total !== null && `${formatCount(total)} example${total === 1 ? '' : 's'}${sample ? ` (random ${sample.perLanguage} per language, seed ${sample.seed})` : ''}`}
      </p>
      {status === 'error' && <p className="field-problem" role="alert">Could not list examples: {error}</p>}
      <ExamplesList />
      <p className="hint">Click or press Enter on an example to inspect it; j / k step through this list in the Inspector.</p>
    </section>
  )
}
