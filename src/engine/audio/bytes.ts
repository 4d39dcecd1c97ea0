/** Byte readers the container parsers share: bounds-checked ASCII, little/big-endian integers, hex for messages. */

/** `n` bytes at `at` as Latin-1 text, or `''` when they run past the end. */
export function ascii(b: Uint8Array, at: number, n: number): string {
  if (at < 0 || at + n > b.length) return ''
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(b[at + i])
  return s
}

export function u16le(b: Uint8Array, at: number): number { return b[at] | (b[at + 1] << 8) }
export function u32le(b: Uint8Array, at: number): number { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 2 ** 24 }
export function u32be(b: Uint8Array, at: number): number { return b[at] * 2 ** 24 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) }

/** Unsigned 64-bit little-endian as a double (exact below 2^53); all ones (2^64 − 1, "unset") returns -1. */
export function u64le(b: Uint8Array, at: number): number {
  const lo = u32le(b, at)
  const hi = u32le(b, at + 4)
  if (hi === 0xffffffff && lo === 0xffffffff) return -1
  return hi * 2 ** 32 + lo
}

/** Hex of bytes `[at, at+n)` for messages. */
export function hex(b: Uint8Array, at: number, n: number): string {
  let s = ''
  for (let i = at; i < at + n && i < b.length; i++) s += b[i].toString(16).padStart(2, '0')
  return s
}
