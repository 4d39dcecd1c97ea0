import { describe, expect, it } from 'vitest'
import { afterFrames, type FrameClock } from './after-frames.ts'

/** A clock whose frames and tasks run only when the test says so; `log` records what ran, in order. */
function manualClock() {
  const log: string[] = []
  let id = 0
  const frames = new Map<number, () => void>()
  const tasks = new Map<number, () => void>()
  const clock: FrameClock = {
    requestAnimationFrame: (cb) => { frames.set(++id, cb); return id },
    cancelAnimationFrame: (i) => { frames.delete(i) },
    setTimeout: (cb) => { tasks.set(++id, cb); return id },
    clearTimeout: (i) => { tasks.delete(i as number) },
  }
  return {
    clock, log,
    /** Runs the tasks queued now (not those they queue). */
    tasks() { const now = [...tasks]; tasks.clear(); for (const [, cb] of now) cb() },
    /** Renders a frame: its animation-frame callbacks, then "paint". */
    frame() { const now = [...frames]; frames.clear(); for (const [, cb] of now) cb(); log.push('paint') },
    pending: () => frames.size + tasks.size,
  }
}

describe('afterFrames', () => {
  it('runs the callback only after the given number of painted frames', () => {
    const c = manualClock()
    afterFrames(2, () => c.log.push('run'), c.clock)
    c.tasks(); c.tasks()
    expect(c.log).toEqual([])
    c.frame(); c.tasks()
    expect(c.log).toEqual(['paint'])
    c.frame(); c.tasks()
    // in the task after the second frame's paint
    expect(c.log).toEqual(['paint', 'paint', 'run'])
    expect(c.pending()).toBe(0)
  })

  it('with 0 frames runs in a task of its own, not synchronously', () => {
    const c = manualClock()
    afterFrames(0, () => c.log.push('run'), c.clock)
    expect(c.log).toEqual([])
    c.tasks()
    expect(c.log).toEqual(['run'])
  })

  it('cancels at any step, and cancelling after the run does nothing', () => {
    // frames = 1: task (asks for a frame), frame (queues a task), task (runs): cancelled before the third step it never runs
    for (let at = 0; at < 5; at++) {
      const c = manualClock()
      const cancel = afterFrames(1, () => c.log.push('run'), c.clock)
      for (let i = 0; i < at; i++) { if (i % 2 === 0) c.tasks(); else c.frame() }
      cancel()
      for (let i = 0; i < 6; i++) { c.tasks(); c.frame() }
      expect(c.log.filter((l) => l === 'run')).toEqual(at >= 3 ? ['run'] : [])
      expect(c.pending()).toBe(0)
    }
    const c = manualClock()
    const cancel = afterFrames(1, () => c.log.push('run'), c.clock)
    for (let i = 0; i < 4; i++) { c.tasks(); c.frame() }
    expect(c.log.filter((l) => l === 'run')).toEqual(['run'])
    cancel()
    expect(c.pending()).toBe(0)
  })
})
