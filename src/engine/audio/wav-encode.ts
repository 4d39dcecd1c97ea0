/**
 * WAV writers: 16-bit PCM for `<audio>` playback blobs, 32-bit float for `mixscope decode --out x.wav`.
 */

function header(channels: number, rate: number, frames: number, bits: 16 | 32, formatTag: 1 | 3): { bytes: Uint8Array; view: DataView } {
  if (!(Number.isInteger(rate) && rate > 0)) throw new Error(`wav: sample rate must be a positive integer (got ${rate})`)
  const dataSize = frames * channels * (bits / 8)
  const bytes = new Uint8Array(44 + dataSize)
  const view = new DataView(bytes.buffer)
  const ascii = (at: number, s: string) => { for (let i = 0; i < 4; i++) bytes[at + i] = s.charCodeAt(i) }
  ascii(0, 'RIFF')
  view.setUint32(4, 36 + dataSize, true)
  ascii(8, 'WAVE')
  ascii(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, formatTag, true)
  view.setUint16(22, channels, true)
  view.setUint32(24, rate, true)
  view.setUint32(28, rate * channels * (bits / 8), true)
  view.setUint16(32, channels * (bits / 8), true)
  view.setUint16(34, bits, true)
  ascii(36, 'data')
  view.setUint32(40, dataSize, true)
  return { bytes, view }
}

function frameCount(channels: Float32Array[]): number {
  if (channels.length === 0) throw new Error('wav: no channels')
  const n = channels[0].length
  for (const ch of channels) if (ch.length !== n) throw new Error(`wav: channels differ in length (${n} vs ${ch.length})`)
  return n
}

/**
 * Encodes planar float audio as 16-bit PCM WAV (values clipped to [-1, 1), rounded to nearest).
 *
 * @param channels planar `[channels][frames]`
 * @param rate sample rate in Hz
 */
export function toWav16(channels: Float32Array[], rate: number): Uint8Array {
  const frames = frameCount(channels)
  const { bytes, view } = header(channels.length, rate, frames, 16, 1)
  let at = 44
  for (let i = 0; i < frames; i++) {
    for (const ch of channels) {
      const v = Math.round(ch[i] * 32768)
      view.setInt16(at, v > 32767 ? 32767 : v < -32768 ? -32768 : v, true)
      at += 2
    }
  }
  return bytes
}

/**
 * Encodes planar float audio as 32-bit IEEE float WAV (values as they are).
 *
 * @param channels planar `[channels][frames]`
 * @param rate sample rate in Hz
 */
export function toWavFloat32(channels: Float32Array[], rate: number): Uint8Array {
  const frames = frameCount(channels)
  const { bytes, view } = header(channels.length, rate, frames, 32, 3)
  let at = 44
  for (let i = 0; i < frames; i++) {
    for (const ch of channels) {
      view.setFloat32(at, ch[i], true)
      at += 4
    }
  }
  return bytes
}
