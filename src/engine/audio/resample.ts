/**
 * Band-limited resampling for playback, display and `decode --rate` (never the training-exact path: the
 * reference does not resample). Method: polyphase windowed-sinc interpolation with a Kaiser window.
 *
 * For a rational ratio `to/from = L/M` (reduced), output sample `n` sits at input time `t = n·M/L`; its value is
 * `Σ_k x[k] · h(t − k)` with `h(u) = c · sinc(c·u) · kaiser(u / halfWidth)`, `c = min(1, L/M) · rolloff` the cutoff
 * as a fraction of the input Nyquist-normalised rate, and `halfWidth = zeroCrossings / c` input samples. The `L`
 * distinct phases of `h` are tabulated once when `L` is small (≤ 2048), else evaluated per output sample. Samples
 * outside the input are zero; the output has `ceil(frames · to / from)` samples (as torchaudio).
 *
 * Defaults (zeroCrossings 32, rolloff 0.94, Kaiser β 10): stopband attenuation ≈ 100 dB; passband (below
 * 0.9 · the lower Nyquist) error ≤ 1.1e-5 of full scale on a sine sweep, tested < 3e-5 (test/audio/resample.test.ts).
 */

/** Resampler quality knobs. */
export interface ResampleOptions {
  /** Sinc zero crossings on each side of the centre (at the lower of the two rates); default 32. */
  zeroCrossings?: number
  /** Cutoff as a fraction of the lower Nyquist frequency; default 0.94. */
  rolloff?: number
  /** Kaiser window β; default 10. */
  beta?: number
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b]
  return a
}

/** Zeroth-order modified Bessel function of the first kind (series), for the Kaiser window. */
function besselI0(x: number): number {
  let sum = 1
  let term = 1
  const q = (x * x) / 4
  for (let k = 1; k < 64; k++) {
    term *= q / (k * k)
    sum += term
    if (term < sum * 1e-17) break
  }
  return sum
}

/**
 * Resamples one channel.
 *
 * @param input samples at `from` Hz
 * @param from input rate in Hz (positive integer)
 * @param to output rate in Hz (positive integer)
 * @returns `ceil(input.length · to / from)` samples at `to` Hz (the input itself when the rates are equal)
 */
export function resample(input: Float32Array, from: number, to: number, options: ResampleOptions = {}): Float32Array {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from > 0 && to > 0)) {
    throw new Error(`resample: rates must be positive integers (got ${from} → ${to} Hz)`)
  }
  if (from === to) return input
  const { zeroCrossings = 32, rolloff = 0.94, beta = 10 } = options
  const g = gcd(from, to)
  const L = to / g
  const M = from / g
  const c = Math.min(1, L / M) * rolloff
  const halfWidth = zeroCrossings / c
  const taps = 2 * Math.ceil(halfWidth) + 1
  const i0beta = besselI0(beta)
  const kernel = (u: number): number => {
    const r = u / halfWidth
    if (r <= -1 || r >= 1) return 0
    const w = besselI0(beta * Math.sqrt(1 - r * r)) / i0beta
    const a = Math.PI * c * u
    return c * (a === 0 ? 1 : Math.sin(a) / a) * w
  }
  const half = Math.ceil(halfWidth)
  // table[phase][j] = h(phase/L + half − j) for input k = base − half + j, base = floor(t)
  let table: Float64Array[] | null = null
  if (L <= 2048) {
    table = []
    for (let p = 0; p < L; p++) {
      const row = new Float64Array(taps)
      for (let j = 0; j < taps; j++) row[j] = kernel(p / L + half - j)
      table.push(row)
    }
  }
  const n = input.length
  const outLength = Math.ceil((n * to) / from)
  const out = new Float32Array(outLength)
  const row = new Float64Array(taps)
  for (let o = 0; o < outLength; o++) {
    const num = o * M
    const base = Math.floor(num / L)
    const phase = num - base * L
    let h: Float64Array
    if (table) h = table[phase]
    else {
      for (let j = 0; j < taps; j++) row[j] = kernel(phase / L + half - j)
      h = row
    }
    const k0 = base - half
    const jStart = Math.max(0, -k0)
    const jEnd = Math.min(taps, n - k0)
    let acc = 0
    for (let j = jStart; j < jEnd; j++) acc += input[k0 + j] * h[j]
    out[o] = acc
  }
  return out
}

/** Resamples every channel of planar audio (`[channels][frames]`). */
export function resampleChannels(channels: Float32Array[], from: number, to: number, options?: ResampleOptions): Float32Array[] {
  return channels.map((ch) => resample(ch, from, to, options))
}
