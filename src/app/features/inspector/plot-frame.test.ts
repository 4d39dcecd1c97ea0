import { expect, test } from 'vitest'
import { niceTicks, secondsLabel } from './plot-frame.tsx'

test('time ticks read exactly: a 0.25 s step is labelled 0.25, 0.50, … (not 0.3)', () => {
  const ticks = niceTicks(0, 2, 8)
  expect(ticks).toEqual([0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2])
  expect(ticks.map((t) => secondsLabel(t, 0.25))).toEqual(['0.00 s', '0.25 s', '0.50 s', '0.75 s', '1.00 s', '1.25 s', '1.50 s', '1.75 s', '2.00 s'])
  expect(secondsLabel(1.5, 0.5)).toBe('1.5 s')
  expect(secondsLabel(4, 2)).toBe('4 s')
  expect(secondsLabel(0.02, 0.02)).toBe('0.02 s')
  expect(secondsLabel(2.5, 2.5)).toBe('2.5 s')
})
