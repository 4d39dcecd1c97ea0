/**
 * The page's main-thread tasks from a Chromium trace (Playwright `browser.startTracing` with `traceCategories`): for
 * each task its wall time, its thread (CPU) time, and how long it waited inside Chromium's synchronous font calls
 * to the browser process. The Long Tasks API counts wall time; on a small machine a task of 20 ms of work can last
 * 80 ms while the renderer waits for a core, or for the browser process to answer a font lookup (the first layout of
 * each font size and weight asks it). Telling the page's own work from those waits needs both numbers.
 */

/** Trace categories that give the renderer's tasks with thread times, and the font calls inside them. */
export const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'fonts']

/** One main-thread task of the page. Times in ms; `startMs` from the first event of the page's main thread. */
export interface MainThreadTask {
  startMs: number
  wallMs: number
  /** Time the thread ran (CPU), from the trace's thread clock. */
  cpuMs: number
  /** Wall time inside `FontCache::GetFontPlatformData` (font lookups answered by the browser process), outermost calls only. */
  fontMs: number
}

interface TraceEvent { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } }

const taskNames = new Set(['ThreadControllerImpl::RunTask', 'RunTask'])

/**
 * The tasks of the page's renderer main thread (`CrRendererMain`; with several renderers, the one with the most
 * task time) that lasted at least `minWallMs`, in start order.
 * @param trace the trace file's JSON (an array of events or `{ traceEvents }`)
 */
export function mainThreadTasks(trace: unknown, minWallMs = 0): MainThreadTask[] {
  const events: TraceEvent[] = Array.isArray(trace) ? trace : (trace as { traceEvents: TraceEvent[] }).traceEvents
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`))
  const byThread = new Map<string, TraceEvent[]>()
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue
    const key = `${e.pid}:${e.tid}`
    if (!mains.has(key)) continue
    let list = byThread.get(key)
    if (!list) byThread.set(key, (list = []))
    list.push(e)
  }
  let busiest: TraceEvent[] = []
  let most = -1
  for (const list of byThread.values()) {
    const total = list.filter((e) => taskNames.has(e.name)).reduce((s, e) => s + (e.dur ?? 0), 0)
    if (total > most) { most = total; busiest = list }
  }
  if (busiest.length === 0) return []
  busiest.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const origin = busiest[0].ts
  const tasks: MainThreadTask[] = []
  let openEnd = -Infinity
  let fontEnd = -Infinity
  let current: MainThreadTask | null = null
  let currentEnd = -Infinity
  for (const e of busiest) {
    const end = e.ts + (e.dur ?? 0)
    if (taskNames.has(e.name)) {
      if (e.ts < openEnd) continue // a task nested in a task (a nested run loop): counted in the outer one
      openEnd = end
      current = { startMs: (e.ts - origin) / 1000, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000, fontMs: 0 }
      currentEnd = end
      tasks.push(current)
    } else if (e.name === 'FontCache::GetFontPlatformData' && current && e.ts < currentEnd && e.ts >= fontEnd) {
      fontEnd = end
      current.fontMs += (e.dur ?? 0) / 1000
    }
  }
  return tasks.filter((t) => t.wallMs >= minWallMs)
}
