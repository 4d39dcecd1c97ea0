/**
 * bfloat16 as torch casts float32 tensors on the CPU (round to nearest, ties to even, on the float32 bits), widened back
 * to float32 so shown and exported values are exactly what the model receives. NaN becomes 0xFFFF, as torch's vectorized
 * CPU cast writes it (measured with torch 1.13, test/fixtures/features/bf16.json; the scalar path in c10/util/BFloat16.h
 * writes 0x7FC0: both are NaN, and NaN is shown as null anyway).
 */

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)

/** bf16 bit pattern (upper 16 bits) of a float32 given by its bits. */
export function bf16BitsFromF32Bits(bits: number): number {
  if ((bits & 0x7fffffff) > 0x7f800000) return 0xffff
  const roundingBias = 0x7fff + ((bits >>> 16) & 1)
  return ((bits + roundingBias) >>> 16) & 0xffff
}

/** bf16 bit pattern of a number (first rounded to float32). */
export function bf16Bits(value: number): number {
  f32[0] = value
  return bf16BitsFromF32Bits(u32[0])
}

/**
 * Rounds every value to bfloat16 and widens it back to float32.
 * @param x any float32 array, e.g. `[frames, bins]` features or `[samples]` waveform
 * @returns a new array of the same length
 */
export function roundToBfloat16(x: Float32Array): Float32Array {
  const out = new Float32Array(x.length)
  const inBits = new Uint32Array(x.buffer, x.byteOffset, x.length)
  const outBits = new Uint32Array(out.buffer)
  for (let i = 0; i < x.length; i++) outBits[i] = bf16BitsFromF32Bits(inBits[i]) << 16
  return out
}

/** The training dtypes mixscope shows values in. */
export type TrainingDtype = 'float32' | 'bfloat16'

/** Applies the training dtype: identity for float32, bf16 round trip for bfloat16. */
export function castToTrainingDtype(x: Float32Array, dtype: TrainingDtype): Float32Array {
  return dtype === 'bfloat16' ? roundToBfloat16(x) : x
}
