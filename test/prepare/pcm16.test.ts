/** float32 → 16-bit PCM against libsndfile itself (python3-soundfile writing FLAC PCM_16, as torchaudio.save does). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toPcm16 } from '../../src/engine/prepare/encode/pcm16.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { runPython } from './python.ts'

describe('toPcm16', () => {
  it('quantizes as libsndfile does (scale 32768, clip, round half to even), edge values and random ones', () => {
    const edges = [0, 0.5, 1, 1.2, -1, -1.2, 0.99999, -0.99999, 1e-9, -1e-9]
    for (let k = -8; k <= 8; k++) edges.push((k + 0.5) / 32768, k / 32768)
    edges.push(32766.5 / 32768, -32767.5 / 32768, 32767.5 / 32768)
    const random = mulberry32(5)
    const x = Float32Array.from([...edges, ...Array.from({ length: 20000 }, () => (random() * 2 - 1) * 1.05)])
    const dir = mkdtempSync(join(tmpdir(), 'mixscope-pcm16-'))
    writeFileSync(join(dir, 'x.f32'), x)
    runPython(`
import sys, numpy as np, soundfile as sf
d = sys.argv[1]
x = np.fromfile(f'{d}/x.f32', dtype=np.float32)
sf.write(f'{d}/x.flac', x, 16000, format='FLAC', subtype='PCM_16')
sf.read(f'{d}/x.flac', dtype='int16')[0].tofile(f'{d}/x.i16')
`, [dir])
    const bytes = readFileSync(join(dir, 'x.i16'))
    const expected = Array.from(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2))
    expect(Array.from(toPcm16(x))).toEqual(expected)
  })
})
