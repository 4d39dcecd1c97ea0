/**
 * Decoding parquet string values (hyparquet's `parsers.stringFromBytes`). hyparquet calls `TextDecoder.decode` once per
 * value; in a Chromium Worker each call costs a few µs, which at 100,000 paths and keys of a dataset index was the
 * largest single cost of opening it. hyparquet hands over each value as a view into its page's buffer, so a pure-ASCII
 * value, what paths and hive keys almost always are, is cut out of that whole buffer decoded once, with a decoder that
 * turns every byte into exactly one character (windows-1252, as the WHATWG Encoding standard defines it), so that
 * character offsets are byte offsets. Anything else goes to `TextDecoder`, so the result is the same string either way.
 */
// ignoreBOM: a value's leading U+FEFF is a character of it, as pyarrow reads it (the default would drop it)
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
/** One character per byte (ASCII bytes stay themselves). */
const bytewise = new TextDecoder('windows-1252')

/** Buffers up to this many bytes are decoded whole (a larger one: each ASCII value on its own). */
const wholeBufferMaxBytes = 64 * 1024 * 1024

/** The buffer decoded last, and its text: hyparquet hands over the values of one page one after another. */
let lastBuffer: ArrayBufferLike | null = null
let lastText = ''

/** UTF-8 bytes → string, as `TextDecoder.decode` (replacement characters for bad sequences); `undefined` stays. */
export function stringFromBytes(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return bytes
  const n = bytes.length
  for (let i = 0; i < n; i++) if (bytes[i] >= 0x80) return decoder.decode(bytes)
  const buffer = bytes.buffer
  if (buffer.byteLength > wholeBufferMaxBytes) return String.fromCharCode.apply(null, bytes as unknown as number[])
  if (buffer !== lastBuffer) {
    lastText = bytewise.decode(new Uint8Array(buffer))
    lastBuffer = buffer
  }
  return lastText.substring(bytes.byteOffset, bytes.byteOffset + n)
}

/** Lets go of the page text kept for the next value (call when a read is done: it may be megabytes). */
export function releaseStringCache(): void {
  lastBuffer = null
  lastText = ''
}

/** hyparquet `parsers` with the string decoder above. */
export const fastStringParsers = { stringFromBytes } as const
