/**
 * A minimal Thrift compact-protocol reader for parquet page headers (the byte-list fast path reads pages itself;
 * hyparquet does not export its page reader). Decodes a struct into `{fieldId: value}`, nested structs likewise.
 */

/** Cursor over bytes. */
export interface ByteCursor {
  bytes: Uint8Array
  offset: number
}

function varint(c: ByteCursor): number {
  let result = 0
  let shift = 0
  for (;;) {
    if (c.offset >= c.bytes.length) throw new Error('thrift: varint runs past the end of the buffer')
    const b = c.bytes[c.offset++]
    result += (b & 0x7f) * 2 ** shift
    if ((b & 0x80) === 0) return result
    shift += 7
    if (shift > 63) throw new Error('thrift: varint longer than 10 bytes')
  }
}

function zigzag(c: ByteCursor): number {
  const n = varint(c)
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2
}

/** A decoded compact struct: values by field id. Lists become arrays; binary stays bytes. */
export type ThriftStruct = Map<number, unknown>

function value(c: ByteCursor, type: number): unknown {
  switch (type) {
    case 1: return true
    case 2: return false
    case 3: return c.bytes[c.offset++]
    case 4: case 5: case 6: return zigzag(c)
    case 7: c.offset += 8; return 0
    case 8: {
      const n = varint(c)
      const out = c.bytes.subarray(c.offset, c.offset + n)
      c.offset += n
      return out
    }
    case 9: case 10: {
      const head = c.bytes[c.offset++]
      let size = head >> 4
      if (size === 15) size = varint(c)
      const elem = head & 0x0f
      const out: unknown[] = []
      for (let i = 0; i < size; i++) out.push(elem === 1 || elem === 2 ? c.bytes[c.offset++] === 1 : value(c, elem))
      return out
    }
    case 11: {
      const size = varint(c)
      if (size === 0) return []
      const types = c.bytes[c.offset++]
      for (let i = 0; i < size; i++) {
        value(c, types >> 4)
        value(c, types & 0x0f)
      }
      return []
    }
    case 12: return readStruct(c)
    default: throw new Error(`thrift: unknown compact type ${type} at byte ${c.offset}`)
  }
}

/** Reads one struct at the cursor (advancing it). */
export function readStruct(c: ByteCursor): ThriftStruct {
  const out: ThriftStruct = new Map()
  let field = 0
  for (;;) {
    if (c.offset >= c.bytes.length) throw new Error('thrift: struct runs past the end of the buffer')
    const head = c.bytes[c.offset++]
    if (head === 0) return out
    const delta = head >> 4
    field = delta === 0 ? zigzag(c) : field + delta
    out.set(field, value(c, head & 0x0f))
  }
}
