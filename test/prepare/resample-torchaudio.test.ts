/**
 * The dataprep resampler against torchaudio.functional.resample (Debian python3-torchaudio 0.13, defaults:
 * sinc_interp_hann, lowpass_filter_width 6, rolloff 0.99): same lengths, same samples to float32 rounding.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resampleTorchaudio, torchaudioResampledLength } from '../../src/engine/prepare/resample-torchaudio.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { runPython } from './python.ts'

const cases: { rate: number; frames: number }[] = [
  { rate: 44100, frames: 44100 + 17 }, { rate: 48000, frames: 48000 }, { rate: 22050, frames: 10007 },
  { rate: 8000, frames: 8001 }, { rate: 11025, frames: 3000 }, { rate: 24000, frames: 2401 }, { rate: 32000, frames: 999 },
  { rate: 12345, frames: 4000 }, { rate: 44100, frames: 1 }, { rate: 48000, frames: 2 }, { rate: 8000, frames: 3 }, { rate: 96000, frames: 9600 },
]

function signal(frames: number, seed: number): Float32Array {
  const random = mulberry32(seed)
  const x = new Float32Array(frames)
  // speech-like: a few partials plus noise, peaks near ±0.9 so the edges of the range are exercised
  for (let i = 0; i < frames; i++) x[i] = 0.5 * Math.sin(i * 0.031) + 0.3 * Math.sin(i * 0.37 + 1) + 0.1 * (random() * 2 - 1)
  return x
}

describe('resampleTorchaudio', () => {
  it('matches torchaudio.functional.resample in length and samples', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mixscope-resample-'))
    const inputs = cases.map((c, i) => {
      const x = signal(c.frames, i + 1)
      writeFileSync(join(dir, `${i}.f32`), x)
      return x
    })
    runPython(`
import sys, numpy as np, torch, torchaudio
d, spec = sys.argv[1], sys.argv[2]
for i, rate in enumerate(int(r) for r in spec.split(',')):
    x = torch.from_numpy(np.fromfile(f'{d}/{i}.f32', dtype=np.float32))[None]
    torchaudio.functional.resample(x, rate, 16000)[0].numpy().astype(np.float32).tofile(f'{d}/{i}.out.f32')
`, [dir, cases.map((c) => c.rate).join(',')])
    cases.forEach((c, i) => {
      const bytes = readFileSync(join(dir, `${i}.out.f32`))
      const expected = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
      const got = resampleTorchaudio(inputs[i], c.rate, 16000)
      expect(got.length, `${c.rate} Hz × ${c.frames}`).toBe(expected.length)
      expect(torchaudioResampledLength(c.frames, c.rate, 16000)).toBe(expected.length)
      let worst = 0
      for (let k = 0; k < got.length; k++) worst = Math.max(worst, Math.abs(got[k] - expected[k]))
      expect(worst, `${c.rate} Hz × ${c.frames}: max |mixscope − torchaudio|`).toBeLessThan(5e-7)
    })
  })

  it('returns the input unchanged at 16 kHz', () => {
    const x = signal(100, 9)
    expect(resampleTorchaudio(x, 16000, 16000)).toBe(x)
  })
})
