import { describe, expect, it } from 'vitest'
import { mainThreadTasks } from '../../bench/browser/main-thread-tasks.ts'

const meta = (pid: number, tid: number, name: string) => ({ name: 'thread_name', ph: 'M', pid, tid, ts: 0, args: { name } })
const x = (pid: number, tid: number, name: string, tsMs: number, durMs: number, tdurMs?: number) =>
  ({ name, ph: 'X', pid, tid, ts: tsMs * 1000, dur: durMs * 1000, ...(tdurMs === undefined ? {} : { tdur: tdurMs * 1000 }) })

describe('mainThreadTasks', () => {
  it('gives wall, CPU and font-lookup time per task of the busiest renderer main thread', () => {
    const trace = {
      traceEvents: [
        meta(1, 1, 'CrRendererMain'), meta(2, 7, 'CrRendererMain'), meta(1, 2, 'DedicatedWorker thread'),
        // the page: a task of 80 ms wall, 20 ms CPU, with two font lookups (one nested in another, counted once)
        x(1, 1, 'ThreadControllerImpl::RunTask', 100, 80, 20),
        x(1, 1, 'Layout', 105, 70, 15),
        x(1, 1, 'FontCache::GetFontPlatformData', 110, 30, 1),
        x(1, 1, 'FontCache::GetFontPlatformData', 115, 10, 1),
        x(1, 1, 'FontCache::GetFontPlatformData', 150, 12, 1),
        // a nested run loop's task inside it is not a task of its own
        x(1, 1, 'ThreadControllerImpl::RunTask', 160, 5, 5),
        x(1, 1, 'ThreadControllerImpl::RunTask', 300, 10, 9),
        // a font lookup outside any task is nobody's
        x(1, 1, 'FontCache::GetFontPlatformData', 400, 50, 1),
        // another renderer (e.g. a WebUI page) with less task time, and a worker thread: not the page's main thread
        x(2, 7, 'ThreadControllerImpl::RunTask', 0, 60, 60),
        x(1, 2, 'ThreadControllerImpl::RunTask', 0, 500, 500),
      ],
    }
    expect(mainThreadTasks(trace)).toEqual([
      { startMs: 0, wallMs: 80, cpuMs: 20, fontMs: 42 },
      { startMs: 200, wallMs: 10, cpuMs: 9, fontMs: 0 },
    ])
    expect(mainThreadTasks(trace, 50)).toEqual([{ startMs: 0, wallMs: 80, cpuMs: 20, fontMs: 42 }])
    expect(mainThreadTasks(trace.traceEvents, 50)).toHaveLength(1)
  })

  it('is empty for a trace without a renderer main thread', () => {
    expect(mainThreadTasks({ traceEvents: [meta(1, 2, 'CrBrowserMain'), x(1, 2, 'RunTask', 0, 100, 100)] })).toEqual([])
  })
})
