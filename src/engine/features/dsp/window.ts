/** Analysis windows, computed in double and stored as float32 (as Kaldi and torch store them). */

/**
 * Kaldi's "povey" window: `w[i] = (0.5 − 0.5·cos(2πi/(N−1)))^0.85`, i = 0..N−1 (KNF:feature-window.cc:25-63).
 * @param length frame length in samples (400 at 16 kHz)
 * @returns `[length]` float32
 */
export function poveyWindow(length: number): Float32Array {
  const w = new Float32Array(length)
  const a = (2 * Math.PI) / (length - 1)
  for (let i = 0; i < length; i++) w[i] = Math.pow(0.5 - 0.5 * Math.cos(a * i), 0.85)
  return w
}

/**
 * Hann window as `torch.hann_window(length, periodic)`: `0.5 − 0.5·cos(2πi/M)`, M = length (periodic) or length−1.
 * @returns `[length]` float32
 */
export function hannWindow(length: number, periodic = true): Float32Array {
  const w = new Float32Array(length)
  const m = periodic ? length : length - 1
  for (let i = 0; i < length; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / m)
  return w
}
