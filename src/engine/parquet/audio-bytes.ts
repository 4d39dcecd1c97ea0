/**
 * `audio_bytes` cells as the encoded file's bytes. The column may be `binary` (a Uint8Array per row) or
 * `list<int8>` / `large_list<int8>` (the dataprep's signed bytes, docs/reference-pipeline.md §17: reinterpret as uint8 to get the file).
 */

/** Column types `audio_bytes` may have. */
const audioBytesTypes = ['binary', 'large_binary', 'list<int8>', 'large_list<int8>', 'list<uint8>', 'large_list<uint8>'] as const

/** True when `type` is an accepted `audio_bytes` type. */
export function isAudioBytesType(type: string): boolean {
  return (audioBytesTypes as readonly string[]).includes(type)
}

/**
 * One cell as the encoded file: `null` for a null cell. Signed bytes are reinterpreted (−1 → 0xff) without copying
 * when the reader already produced a typed array.
 */
export function audioBytesOf(value: unknown): Uint8Array | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return value
  if (value instanceof Int8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  if (ArrayBuffer.isView(value)) {
    // Int32Array etc. of byte values: convert element-wise (wraps like a C cast)
    const bytes = Int8Array.from(value as unknown as ArrayLike<number>)
    return new Uint8Array(bytes.buffer)
  }
  if (Array.isArray(value)) {
    const bytes = new Uint8Array(value.length)
    for (let i = 0; i < value.length; i++) bytes[i] = value[i] as number
    return bytes
  }
  return null
}
