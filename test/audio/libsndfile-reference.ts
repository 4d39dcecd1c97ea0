/** libsndfile's own decode of test files (Debian's python3-soundfile), the reference the container tests hold to. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runPython } from '../prepare/python.ts'

/** What `sf.read` gave for one file, or its error. */
export interface LibsndfileDecode { rate: number; channels: number; frames: number; declared: number; error?: string }

/**
 * Decodes each of `names` in `dir` with `sf.read` (float32), writing its samples to `<name>.f32` (planar), and
 * returns the rate, channels, frames read and frames declared (`sf.info`) per file, or the error libsndfile raised.
 */
export function libsndfileDecodes(dir: string, names: readonly string[]): Record<string, LibsndfileDecode> {
  return JSON.parse(runPython(`
import sys, json, soundfile as sf
d, names = sys.argv[1], json.loads(sys.argv[2])
out = {}
for name in names:
    try:
        y, rate = sf.read(f'{d}/{name}', dtype='float32', always_2d=True)
        y.T.astype('<f4').tofile(f'{d}/{name}.f32')
        out[name] = {'rate': rate, 'channels': y.shape[1], 'frames': y.shape[0], 'declared': sf.info(f'{d}/{name}').frames}
    except Exception as e:
        out[name] = {'error': str(e)}
print(json.dumps(out))
`, [dir, JSON.stringify(names)])) as Record<string, LibsndfileDecode>
}

/** The planar samples `libsndfileDecodes` wrote for `name` (a copy of the file's bytes alone: a small file's Buffer is a view into a shared pool). */
export function libsndfileSamples(dir: string, name: string): Float32Array {
  const f32 = readFileSync(join(dir, `${name}.f32`))
  return new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.length))
}
