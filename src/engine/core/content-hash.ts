/**
 * A fast non-cryptographic 64-bit content hash (two MurmurHash3-style 32-bit lanes) for finding exact duplicate
 * audio: encoded bytes, and decoded float32 samples.
 */

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, 0x1b873593)
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

function finalize(h: number, length: number): number {
  h ^= length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** 16 hex digits identifying `bytes` (equal bytes → equal hash; different bytes collide with ~2^-64 chance). */
export function contentHash(bytes: Uint8Array): string {
  const out = new Uint32Array(2)
  contentHashInto(bytes, out, 0)
  return out[0].toString(16).padStart(8, '0') + out[1].toString(16).padStart(8, '0')
}

/**
 * `contentHash` as two 32-bit words, written to `out[2 · at]` (the first 8 hex digits) and `out[2 · at + 1]` (the
 * last 8), with no string made: for hashing one value per row of a large table.
 */
export function contentHashInto(bytes: Uint8Array, out: Uint32Array, at: number): void {
  const words = bytes.byteLength >>> 2
  const aligned = bytes.byteOffset % 4 === 0
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, words)
    : new Uint32Array(bytes.slice(0, words * 4).buffer)
  hashWordsInto(bytes, aligned, bytes.byteLength, out, at)
}

/**
 * `contentHashInto` of the first `length` bytes of `bytes`, which must start its buffer, with `view` a `Uint32Array`
 * over that same buffer from its start: a scratch buffer hashed once per row makes no view per call.
 * @throws RangeError when `bytes` or `view` does not start the buffer, or they are shorter than `length`
 */
export function contentHashPrefixInto(bytes: Uint8Array, view: Uint32Array, length: number, out: Uint32Array, at: number): void {
  if (bytes.byteOffset !== 0 || view.byteOffset !== 0 || view.buffer !== bytes.buffer || length > bytes.byteLength || length >>> 2 > view.length) {
    throw new RangeError(`content-hash: ${length} bytes asked of a ${bytes.byteLength}-byte scratch at offset ${bytes.byteOffset} and a view of another buffer or offset`)
  }
  hashWordsInto(bytes, view, length, out, at)
}

/** The hash of `bytes[0 … length)`, whose whole 32-bit words `aligned` holds (little-endian, as the platform's). */
function hashWordsInto(bytes: Uint8Array, aligned: Uint32Array, length: number, out: Uint32Array, at: number): void {
  const words = length >>> 2
  let a = 0x9747b28c
  let b = 0x5bd1e995
  for (let i = 0; i < words; i++) {
    const w = aligned[i]
    a = mix(a, w)
    b = mix(b, w ^ 0x27d4eb2f)
  }
  let tail = 0
  for (let i = words * 4; i < length; i++) tail = (tail << 8) | bytes[i]
  a = mix(a, tail)
  b = mix(b, tail ^ 0x27d4eb2f)
  out[2 * at] = finalize(a, length)
  out[2 * at + 1] = finalize(b, length ^ 0x5f3759df)
}

/** Hash of planar float32 channels (their bytes, channel after channel). */
export function pcmHash(channels: readonly Float32Array[]): string {
  if (channels.length === 1) return contentHash(new Uint8Array(channels[0].buffer, channels[0].byteOffset, channels[0].byteLength))
  const frames = channels[0]?.length ?? 0
  const all = new Float32Array(frames * channels.length)
  channels.forEach((c, i) => all.set(c, i * frames))
  return contentHash(new Uint8Array(all.buffer))
}
