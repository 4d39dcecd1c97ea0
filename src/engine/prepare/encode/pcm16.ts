/**
 * Float samples → 16-bit PCM as the reference's encoder sees them: `torchaudio.save(..., backend="soundfile")` hands
 * float32 to libsndfile, which scales by 32768, clips to [−32768, 32767] and rounds half to even (measured with
 * Debian's libsndfile 1.2 through python3-soundfile: 0.5/32768 → 0, 1.5/32768 → 2, 1.0 → 32767, −1.0 → −32768).
 */

const ROUND = 6755399441055744 // 1.5 · 2^52

/**
 * @param samples float32 `[frames]`, nominally in [−1, 1)
 * @returns `[frames]` 16-bit values, in an Int32Array (what libFLAC takes)
 */
export function toPcm16(samples: Float32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(samples.length)
  for (let i = 0; i < samples.length; i++) {
    // a float32 times 2^15 is exact in float64: no rounding before lrintf's
    const v = samples[i] * 32768
    if (v >= 32767) out[i] = 32767
    else if (v <= -32768) out[i] = -32768
    else if (v !== v) out[i] = 0 // NaN
    // round half to even (lrintf in the default rounding mode): adding and removing 1.5·2^52 leaves a double with
    // no fraction bits, rounded by the FPU's own round-half-even
    else out[i] = (v + ROUND) - ROUND
  }
  return out
}
