/**
 * Mono mix as the reference's waveform path does it (docs/reference-pipeline.md §11): sum the channels left to right into
 * channel 0, then divide by the channel count, in float32.
 */

/**
 * @param channels planar `[channels][frames]`
 * @returns `[frames]`; the input's only channel itself when already mono
 */
export function toMono(channels: Float32Array[]): Float32Array {
  if (channels.length === 0) throw new Error('mono: no channels')
  if (channels.length === 1) return channels[0]
  const frames = channels[0].length
  const count = channels.length
  if (count === 2) {
    // stereo in one pass: the same two float32 roundings (the store into a Float32Array rounds as Math.fround does)
    const [a, b] = channels
    const out = new Float32Array(frames)
    for (let i = 0; i < frames; i++) out[i] = Math.fround(a[i] + b[i]) / 2
    return out
  }
  const out = new Float32Array(channels[0])
  // float32 accumulation, one channel at a time, as torch's x.sum(dim) over a (N, C) float32 tensor... then / C
  for (let c = 1; c < channels.length; c++) {
    const ch = channels[c]
    for (let i = 0; i < frames; i++) out[i] = Math.fround(out[i] + ch[i])
  }
  for (let i = 0; i < frames; i++) out[i] = Math.fround(out[i] / count)
  return out
}
