import { describe, expect, test } from 'vitest'
import { band, labelledSlots, rankColumns, valueScale } from './scales.ts'

describe('value scale', () => {
  test('linear: 0 at the range start, the maximum inside the range, ticks ascending in value and in place', () => {
    const s = valueScale(3.7, [200, 10], String)
    expect(s.base).toBe(200)
    expect(s.at(0)).toBe(200)
    expect(s.at(3.7)).toBeLessThanOrEqual(200)
    expect(s.at(3.7)).toBeGreaterThanOrEqual(10)
    expect(s.ticks.length).toBeGreaterThanOrEqual(3)
    for (let i = 1; i < s.ticks.length; i++) {
      expect(s.ticks[i].value).toBeGreaterThan(s.ticks[i - 1].value)
      expect(s.ticks[i].at).toBeLessThan(s.ticks[i - 1].at)
    }
    // a tick is where its value is
    for (const t of s.ticks) expect(t.at).toBeCloseTo(s.at(t.value), 9)
    // the axis reaches past the maximum to a round number
    expect(s.ticks[s.ticks.length - 1].value).toBeGreaterThanOrEqual(3.7)
  })
  test('linear, whole numbers only: a count of 3 has no tick at 0.5', () => {
    const s = valueScale(3, [100, 0], String, { integer: true })
    expect(s.ticks.every((t) => Number.isInteger(t.value))).toBe(true)
    expect(s.ticks.map((t) => t.value)).toContain(3)
  })
  test('linear: equal steps in value are equal steps in px', () => {
    const s = valueScale(10, [0, 500], String)
    expect(s.at(2) - s.at(1)).toBeCloseTo(s.at(9) - s.at(8), 9)
  })
  test('log: decades are equal steps, values at or under the floor sit on the base', () => {
    const s = valueScale(5000, [300, 0], String, { log: true, floor: 0.05 })
    expect(s.at(10) - s.at(100)).toBeCloseTo(s.at(100) - s.at(1000), 6)
    expect(s.at(0)).toBe(s.base)
    expect(s.at(-3)).toBe(s.base)
    expect(s.at(0.001)).toBe(s.base)
    // five decades: ticks at powers of ten only
    expect(s.ticks.length).toBeGreaterThanOrEqual(2)
    for (const t of s.ticks) expect(Math.log10(t.value) % 1).toBeCloseTo(0, 9)
  })
  test('log over less than a decade still has ticks', () => {
    const s = valueScale(4, [100, 0], String, { log: true, floor: 1 })
    expect(s.ticks.length).toBeGreaterThanOrEqual(2)
  })
  test('tick labels are the format of the tick values', () => {
    const s = valueScale(100, [0, 100], (v) => `${v} h`)
    for (const t of s.ticks) expect(t.label).toBe(`${t.value} h`)
  })
})

describe('band', () => {
  test('slots tile the axis; bars sit inside their slot, centred', () => {
    const b = band(8, 40, 800, 0.1)
    expect(b.step).toBe(100)
    for (let i = 0; i < 8; i++) {
      const at = b.barAt(i)
      expect(at).toBeGreaterThanOrEqual(40 + i * 100)
      expect(at + b.width).toBeLessThanOrEqual(40 + (i + 1) * 100 + 1e-9)
      expect(at + b.width / 2).toBeCloseTo(b.centre(i), 9)
    }
  })
  test('the slot under a px is the one that holds it; outside the axis there is none', () => {
    const b = band(10, 0, 100)
    expect(b.indexAt(0)).toBe(0)
    expect(b.indexAt(9.99)).toBe(0)
    expect(b.indexAt(10)).toBe(1)
    expect(b.indexAt(99.9)).toBe(9)
    expect(b.indexAt(100)).toBe(-1)
    expect(b.indexAt(-1)).toBe(-1)
  })
  test('1,600 slots in 1,000 px: every bar is still drawn (at least half a px)', () => {
    const b = band(1600, 0, 1000)
    expect(b.width).toBeGreaterThanOrEqual(0.5)
  })
})

describe('labelled slots', () => {
  test('no two labels closer than the spacing asked, the first and the last labelled', () => {
    for (const [count, step, spacing] of [[40, 30, 16], [1600, 0.7, 16], [21, 28, 60], [7, 100, 10], [1, 5, 50]]) {
      const slots = labelledSlots(count, step, spacing)
      expect(slots[0]).toBe(0)
      expect(slots[slots.length - 1]).toBe(count - 1)
      for (let i = 1; i < slots.length; i++) expect((slots[i] - slots[i - 1]) * step).toBeGreaterThanOrEqual(spacing / 2)
    }
  })
  test('wide slots: every slot labelled', () => {
    expect(labelledSlots(40, 30, 16)).toEqual(Array.from({ length: 40 }, (_, i) => i))
  })
})

describe('rank columns', () => {
  test('every rank in exactly one column, in order, at most the columns asked', () => {
    for (const [count, most] of [[100_000, 1600], [1600, 1600], [1601, 1600], [5, 1600], [0, 10]]) {
      const columns = rankColumns(count, most)
      expect(columns.length).toBeLessThanOrEqual(Math.max(most, 0))
      let next = 0
      for (const c of columns) {
        expect(c.from).toBe(next)
        expect(c.to).toBeGreaterThanOrEqual(c.from)
        next = c.to + 1
      }
      expect(next).toBe(count)
    }
  })
  test('fewer ranks than columns: one rank a column', () => {
    expect(rankColumns(3, 10)).toEqual([{ from: 0, to: 0 }, { from: 1, to: 1 }, { from: 2, to: 2 }])
  })
})
