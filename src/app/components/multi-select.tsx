/**
 * A searchable multi-select for long option lists (1,600 languages): a button showing the choice opens a popover
 * (Radix) with a search box and a virtualized list of checkboxes (@tanstack/react-virtual); "Clear" and "Only
 * matches" act on many at once. Arrow keys move from the search box into the list.
 */
import * as Popover from '@radix-ui/react-popover'
import { useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { virtualAfterLayout } from './virtual-after-layout.ts'
import { formatCount } from '../lib/format.ts'

const optionHeight = 28

export function MultiSelect({ label, options, selected, onChange, name = (o) => o, placeholder = 'All' }: {
  label: string
  options: readonly string[]
  selected: readonly string[]
  onChange: (selected: string[]) => void
  /** Shown beside an option's value (e.g. a language's English name). */
  name?: (option: string) => string
  placeholder?: string
}) {
  const [query, setQuery] = useState('')
  const chosen = useMemo(() => new Set(selected), [selected])
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase()
    return needle === '' ? options : options.filter((o) => `${o} ${name(o)}`.toLowerCase().includes(needle))
  }, [options, query, name])
  const list = useRef<HTMLDivElement | null>(null)
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => list.current, estimateSize: () => optionHeight, overscan: 10, ...virtualAfterLayout<HTMLDivElement, Element>(280) })
  const toggle = (o: string) => onChange(chosen.has(o) ? selected.filter((s) => s !== o) : [...selected, o])
  const summary = selected.length === 0 ? placeholder : selected.length === 1 ? selected[0] : `${selected[0]} +${selected.length - 1}`
  return (
    <div className="field multi-select">
      <span>{label}</span>
      <Popover.Root onOpenChange={(open) => { if (!open) setQuery('') }}>
        <Popover.Trigger asChild>
          <button type="button" className="multi-select-trigger" aria-label={`${label}: ${selected.length === 0 ? placeholder : selected.join(', ')}`}>
            <span className="multi-select-value">{summary}</span><span aria-hidden="true"> ▾</span>
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover multi-select-popover" sideOffset={4} align="start" aria-label={`Choose ${label.toLowerCase()}`}>
            <div className="row">
              <input type="search" aria-label={`Search ${label.toLowerCase()}`} placeholder="Search…" value={query} autoFocus
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(e) => { if (e.key === 'ArrowDown') { e.preventDefault(); list.current?.querySelector<HTMLInputElement>('input')?.focus() } }} />
              <button type="button" onClick={() => onChange([])} disabled={selected.length === 0}>Clear</button>
              {query && <button type="button" onClick={() => onChange([...new Set([...selected, ...shown])])}>Add {formatCount(shown.length)} matches</button>}
            </div>
            <p className="hint">{formatCount(selected.length)} chosen · {formatCount(shown.length)} of {formatCount(options.length)} shown</p>
            <div ref={list} className="multi-select-list" role="group" aria-label={label}>
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {virtualizer.getVirtualItems().map((item) => {
                  const o = shown[item.index]
                  const extra = name(o)
                  return (
                    <label key={o} className="multi-select-option" style={{ transform: `translateY(${item.start}px)`, height: optionHeight }}
                      onKeyDown={(e) => {
                        const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
                        if (step === 0) return
                        e.preventDefault()
                        const next = Math.max(0, Math.min(shown.length - 1, item.index + step))
                        virtualizer.scrollToIndex(next)
                        requestAnimationFrame(() => list.current?.querySelector<HTMLInputElement>(`input[data-index="${next}"]`)?.focus())
                      }}>
                      <input type="checkbox" data-index={item.index} checked={chosen.has(o)} onChange={() => toggle(o)} />
                      <code>{o}</code>{extra !== o && <span className="language-name"> {extra}</span>}
                    </label>
                  )
                })}
              </div>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  )
}
