/**
 * The dataprep's shuffle against Debian's numpy: the generator's raw draws, and the buffer shuffle of Hugging Face
 * datasets (BufferShuffledExamplesIterable.__iter__, its loop transcribed below around numpy's real default_rng).
 */
import { describe, expect, it } from 'vitest'
import { NumpyGenerator } from '../../src/engine/random/numpy-generator.ts'
import { bufferShuffleOrder } from '../../src/engine/prepare/shuffle/buffer-shuffle.ts'
import { runPython } from './python.ts'

describe('NumpyGenerator', () => {
  it('draws what np.random.default_rng draws (raw 64-bit, integers, shuffle)', () => {
    const expected = JSON.parse(runPython(`
import json, numpy as np
r = np.random.default_rng(123)
raw = [str(int(v)) for v in r.bit_generator.random_raw(5)]
r = np.random.default_rng(7)
ints = [int(v) for v in r.integers(0, 10000, size=50)] + [int(v) for v in r.integers(0, 3, size=20)]
r = np.random.default_rng(42)
xs = list(range(30)); r.shuffle(xs)
print(json.dumps({'raw': raw, 'ints': ints, 'shuffled': xs}))
`)) as { raw: string[]; ints: number[]; shuffled: number[] }
    let g = new NumpyGenerator(123)
    expect(Array.from({ length: 5 }, () => g.next64().toString())).toEqual(expected.raw)
    g = new NumpyGenerator(7)
    expect([...Array.from({ length: 50 }, () => g.integer(10000)), ...Array.from({ length: 20 }, () => g.integer(3))]).toEqual(expected.ints)
    g = new NumpyGenerator(42)
    const xs = Array.from({ length: 30 }, (_, i) => i)
    g.shuffle(xs)
    expect(xs).toEqual(expected.shuffled)
  })
})

describe('bufferShuffleOrder', () => {
  it('emits what datasets\' buffer shuffle emits with default_rng(123), below and above the buffer size', () => {
    const reference = (count: number, buffer: number) => JSON.parse(runPython(`
import sys, json, numpy as np
count, buffer_size = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(123)
def indices():
    while True:
        yield from (int(i) for i in rng.integers(0, buffer_size, size=1000))
it = indices(); buf = []; out = []
for x in range(count):
    if len(buf) == buffer_size:
        i = next(it); out.append(buf[i]); buf[i] = x
    else:
        buf.append(x)
rng.shuffle(buf); out.extend(buf)
print(json.dumps(out))
`, [String(count), String(buffer)])) as number[]
    for (const [count, buffer] of [[1, 10000], [37, 10000], [2500, 1000], [23456, 10000]]) {
      const got = bufferShuffleOrder(count, 123, buffer)
      expect(got.length).toBe(count)
      expect(got, `${count} rows, buffer ${buffer}`).toEqual(reference(count, buffer))
    }
  })
})
