/**
 * The streamed batches as a virtualized table (@tanstack/react-virtual): only the rows in view are in the DOM, so
 * thousands of batches scroll smoothly. Click or Enter opens a batch; ↑/↓ move between batches.
 */
import { useRef, type KeyboardEvent } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from '../../components/virtual-after-layout.ts'
import type { BatchSummary } from '../../../engine/batches/batch-summary.ts'
import { formatCount, formatShare } from '../../lib/format.ts'

const rowHeight = 30

/** `eng_Latn ×12, deu_Latn ×3` (most first). */
function languagesText(b: BatchSummary): string {
  const byLanguage = new Map<string, number>()
  for (const p of b.partitions) byLanguage.set(p.language, (byLanguage.get(p.language) ?? 0) + p.count)
  return [...byLanguage].sort((x, y) => y[1] - x[1]).map(([l, n]) => `${l} ×${n}`).join(', ')
}

export function BatchList({ batches, selected, onSelect }: { batches: BatchSummary[]; selected: number | null; onSelect: (index: number) => void }) {
  const scroller = useRef<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({ count: batches.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12, ...virtualAfterLayout<HTMLDivElement, Element>(420) })
  const items = virtualizer.getVirtualItems()
  const top = items.length > 0 ? items[0].start : 0
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0

  function onKey(event: KeyboardEvent, index: number) {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onSelect(index)
    } else if (step !== 0) {
      event.preventDefault()
      const next = Math.min(batches.length - 1, Math.max(0, index + step))
      virtualizer.scrollToIndex(next)
      onSelect(next)
      requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-batch="${next}"]`)?.focus())
    }
  }

  return (
    <div ref={scroller} className="batch-list" tabIndex={-1}>
      <table aria-label="Batches" aria-rowcount={batches.length + 1}>
        <thead>
          <tr>
            <th scope="col" className="num">Batch</th><th scope="col" className="num">Step</th><th scope="col" className="num">Size</th>
            <th scope="col" className="num">Longest (samples)</th><th scope="col" className="num">Padded elements</th>
            <th scope="col" className="num">Padding waste</th><th scope="col">Languages</th>
          </tr>
        </thead>
        <tbody>
          {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
          {items.map((item) => {
            const b = batches[item.index]
            return (
              <tr key={b.index} data-batch={b.index} aria-rowindex={item.index + 2} tabIndex={0} aria-selected={selected === b.index}
                className={selected === b.index ? 'selected' : undefined} style={{ height: rowHeight }}
                onClick={() => onSelect(b.index)} onKeyDown={(e) => onKey(e, b.index)}>
                <td className="num">{b.index}</td>
                <td className="num">{b.step}.{b.indexInStep}</td>
                <td className="num" data-value={b.size}>{formatCount(b.size)}</td>
                <td className="num" data-value={b.longest}>{formatCount(b.longest)}</td>
                <td className="num" data-value={b.padded}>{formatCount(b.padded)}</td>
                <td className="num" data-value={b.waste}>{formatShare(b.waste)}</td>
                <td className="languages" dir="auto">{languagesText(b)}</td>
              </tr>
            )
          })}
          {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
        </tbody>
      </table>
    </div>
  )
}
