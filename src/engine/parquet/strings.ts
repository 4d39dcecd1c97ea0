/**
 * Decoding parquet string values (hyparquet's `parsers.stringFromBytes`). hyparquet calls `TextDecoder.decode` once per
 * value; in a Chromium Worker each call costs a few µs, which at 100,000 paths and keys of a dataset index was the
 * largest single cost of opening it (0.2–0.4 s). Short pure-ASCII values, what paths and hive keys almost always are,
 * are built here from their bytes; anything else goes to `TextDecoder`, so the result is the same string either way.
 */
const decoder = new TextDecoder()

/** Values up to this many bytes take the ASCII path (longer ones are rare and `TextDecoder` amortizes its call). */
const asciiMaxBytes = 256

/** UTF-8 bytes → string, as `TextDecoder.decode` (replacement characters for bad sequences); `undefined` stays. */
export function stringFromBytes(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return bytes
  const n = bytes.length
  if (n > asciiMaxBytes) return decoder.decode(bytes)
  for (let i = 0; i < n; i++) if (bytes[i] >= 0x80) return decoder.decode(bytes)
  return String.fromCharCode.apply(null, bytes as unknown as number[])
}

/** hyparquet `parsers` with the string decoder above. */
export const fastStringParsers = { stringFromBytes } as const
