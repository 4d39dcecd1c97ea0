/**
 * Mounting a page's sections one at a time. React commits a render in one main-thread task, and a view holding
 * many charts and virtualized tables (the Overview at 1,600–8,000 languages and 100,000 partitions) committed them
 * all at once: one task of a second or more, during which the page painted nothing, the first chart included. Here
 * section `k` mounts in the idle time after section `k − 1` committed, so each is its own task and what is above the
 * fold paints first. A section not mounted yet holds its place (`min-height`) and is `aria-busy`.
 */
import { startTransition, useEffect, useState, type ReactNode } from 'react'
import { whenIdle } from '../lib/when-idle.ts'
import { useViewShownUntil } from '../stores/view-active.ts'

/**
 * How many of `total` sections may be mounted: 0 at first, then one more per idle period, up to `total`. With
 * `start` false the count waits (a view whose sections need a result that has not come yet); so it does while the
 * view is hidden (another tab shown: a section mounting there was a task of half a second in the middle of the
 * next tab's switch).
 */
export function useStage(total: number, start = true): number {
  const [stage, setStage] = useState(0)
  const active = useViewShownUntil(stage >= total)
  useEffect(() => {
    if (!start || !active || stage >= total) return
    // a transition: React renders the section in slices of a few ms (an update from an idle callback is otherwise
    // a blocking render: the Overview's language table and detail tables were one task of 0.25 s at 1,600 languages)
    return whenIdle(() => startTransition(() => setStage((s) => s + 1)))
  }, [stage, total, start, active])
  return stage
}

/** `children` once `stage` reaches `at` (1-based); before that an empty, busy block of `minHeight` px. */
export function Staged({ stage, at, minHeight, children }: { stage: number; at: number; minHeight: number; children: ReactNode }) {
  if (stage >= at) return <>{children}</>
  return <div className="staged-pending" aria-busy="true" style={{ minHeight }} />
}
