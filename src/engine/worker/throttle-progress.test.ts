import { expect, test } from 'vitest'
import type { Progress } from '../dataset/dataset.ts'
import { throttleProgress } from './throttle-progress.ts'

const at = (phase: Progress['phase'], done: number, total: number | null): Progress => ({ phase, done, total, requests: done, bytes: done * 10 })

test('forwards phase changes and final units, drops updates closer than the interval', () => {
  let clock = 0
  const sent: Progress[] = []
  const onProgress = throttleProgress((p) => sent.push(p), 50, () => clock)
  onProgress(at('listing', 1, null)) // first of a phase
  clock = 10; onProgress(at('listing', 2, null)) // too soon
  clock = 70; onProgress(at('listing', 3, null)) // interval passed
  clock = 71; onProgress(at('footers', 0, 4)) // new phase
  clock = 72; onProgress(at('footers', 1, 4)) // too soon
  clock = 73; onProgress(at('footers', 4, 4)) // final unit
  expect(sent.map((p) => `${p.phase}:${p.done}`)).toEqual(['listing:1', 'listing:3', 'footers:0', 'footers:4'])
})
