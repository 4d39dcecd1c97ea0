/**
 * hyparquet-compressors' decompressors behind checks that make a decompression bomb an error instead of gigabytes:
 * the size a page header declares (`uncompressed_page_size`) is checked against a cap and against what the codec can
 * produce from the compressed bytes present, before anything is allocated, and no codec may write past it.
 *
 * - SNAPPY: the stream's own length prefix must equal the declared size, and snappy expands at most 64 bytes per
 *   3-byte copy (https://github.com/google/snappy/blob/main/format_description.txt), so a declared size above ~22×
 *   the body is a lie.
 * - GZIP, BROTLI, LZ4, LZ4_RAW: hyparquet-compressors decodes into a buffer of exactly the declared size, so output
 *   is bounded by the declared size; deflate cannot expand more than 1032× (RFC 1951: 258 bytes per 2 bits), LZ4 not
 *   more than 255×.
 * - ZSTD: fzstd grows its output block by block with no limit (a frame of 4-byte RLE blocks of 128 KiB each inflates
 *   32,768×), so the frames are walked first (RFC 8878 §3.1: frame header, 3-byte block headers): raw and RLE blocks
 *   give their exact sizes, a frame content size is taken as given, and a frame whose blocks cannot fit is refused
 *   without decoding; when compressed blocks could still overflow, the stream decoder runs with a counter that stops
 *   at the declared size.
 *
 * The errors name the codec and the sizes; `ParquetReader` adds the file, row group and column.
 */
import { Decompress, decompress as zstdDecompress } from 'fzstd'
import { compressors as upstream } from 'hyparquet-compressors'
import type { Compressors } from 'hyparquet'

/** Largest uncompressed page mixscope decodes, bytes (512 MiB; writers default to pages of about 1 MiB). */
export const maxPageBytes = 512 * 1024 * 1024

/** Most output per input byte, per codec (see the module comment); ZSTD and BROTLI have no useful bound. */
const maxRatio: Record<string, number> = { SNAPPY: 22, GZIP: 1032, LZ4: 256, LZ4_RAW: 256 }

/** A page that inflates, or claims to, past what is allowed. */
export class DecompressionBombError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DecompressionBombError'
  }
}

function checkDeclared(codec: string, input: Uint8Array, declared: number): void {
  if (!Number.isSafeInteger(declared) || declared < 0) throw new DecompressionBombError(`${codec} page declares ${declared} uncompressed bytes`)
  if (declared > maxPageBytes) {
    throw new DecompressionBombError(`${codec} page claims ${declared} bytes uncompressed, more than the ${maxPageBytes}-byte page limit`)
  }
  const ratio = maxRatio[codec]
  if (ratio !== undefined && declared > input.length * ratio + 1024) {
    throw new DecompressionBombError(`${codec} page claims ${declared} bytes uncompressed from ${input.length} compressed bytes; ${codec} expands at most ${ratio}×`)
  }
}

/** The varint length prefix of a snappy stream, or -1 when it is malformed. */
function snappyLength(input: Uint8Array): number {
  let value = 0
  for (let i = 0, shift = 1; i < 5 && i < input.length; i++, shift *= 128) {
    value += (input[i] & 0x7f) * shift
    if (!(input[i] & 0x80)) return value
  }
  return -1
}

/** What a zstd stream's frames can produce, from their headers alone (RFC 8878 §3.1). */
interface ZstdBounds {
  /** Bytes the frames certainly produce (raw and RLE blocks, frame content sizes). */
  lower: number
  /** Most bytes they can produce (compressed blocks at their maximum). */
  upper: number
  /** Largest window a frame asks for, bytes. */
  window: number
}

function zstdBounds(input: Uint8Array): ZstdBounds {
  let at = 0
  let lower = 0
  let upper = 0
  let window = 0
  const u8 = (i: number) => {
    if (i >= input.length) throw new DecompressionBombError(`ZSTD stream ends inside a frame (at byte ${i} of ${input.length})`)
    return input[i]
  }
  const le = (i: number, n: number) => {
    let v = 0
    for (let k = n - 1; k >= 0; k--) v = v * 256 + u8(i + k)
    return v
  }
  while (at < input.length) {
    const magic = le(at, 4)
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) { // skippable frame
      at += 8 + le(at + 4, 4)
      continue
    }
    if (magic !== 0xfd2fb528) throw new DecompressionBombError(`ZSTD stream has no frame magic at byte ${at}`)
    const fhd = u8(at + 4)
    const fcsFlag = fhd >> 6
    const single = (fhd >> 5) & 1
    const checksum = (fhd >> 2) & 1
    let p = at + 5
    let frameWindow = 0
    if (!single) {
      const wd = u8(p++)
      const base = 2 ** (10 + (wd >> 3))
      frameWindow = base + (base / 8) * (wd & 7)
    }
    p += [0, 1, 2, 4][fhd & 3]
    const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag
    const contentSize = fcsBytes ? le(p, fcsBytes) + (fcsBytes === 2 ? 256 : 0) : null
    p += fcsBytes
    if (single) frameWindow = contentSize ?? 0
    window = Math.max(window, frameWindow)
    const blockMax = Math.min(frameWindow, 131072)
    let frameLower = 0
    let frameUpper = 0
    for (let last = 0; !last;) {
      const header = le(p, 3)
      last = header & 1
      const type = (header >> 1) & 3
      const size = header >>> 3
      p += 3
      if (type === 0) { frameLower += size; frameUpper += size; p += size }
      else if (type === 1) { frameLower += size; frameUpper += size; p += 1 }
      else if (type === 2) { frameUpper += blockMax; p += size }
      else throw new DecompressionBombError(`ZSTD stream has a reserved block type at byte ${p - 3}`)
      if (frameLower > maxPageBytes) break // enough to refuse it
    }
    if (checksum) p += 4
    if (contentSize !== null) {
      frameLower = Math.max(frameLower, contentSize)
      frameUpper = Math.min(frameUpper, contentSize)
    }
    lower += frameLower
    upper += frameUpper
    at = p
    if (lower > maxPageBytes) break
  }
  return { lower, upper, window }
}

function boundedZstd(input: Uint8Array, declared: number): Uint8Array {
  checkDeclared('ZSTD', input, declared)
  const { lower, upper, window } = zstdBounds(input)
  if (lower > declared) throw new DecompressionBombError(`ZSTD page inflates past its declared ${declared} bytes (its frames hold at least ${lower})`)
  if (window > Math.max(declared, 1 << 20) && window > maxPageBytes) {
    throw new DecompressionBombError(`ZSTD page asks for a ${window}-byte window, more than the ${maxPageBytes}-byte page limit`)
  }
  if (upper <= declared) return zstdDecompress(input)
  // compressed blocks could overflow: decode block by block and stop at the declared size
  const chunks: Uint8Array[] = []
  let total = 0
  const stream = new Decompress((chunk) => {
    total += chunk.length
    if (total > declared) throw new DecompressionBombError(`ZSTD page inflates past its declared ${declared} bytes`)
    chunks.push(chunk)
  })
  stream.push(input, true)
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** hyparquet-compressors' `compressors`, each bounded as the module comment says. */
export const boundedCompressors: Compressors = {
  SNAPPY: (input, declared) => {
    checkDeclared('SNAPPY', input, declared)
    const claimed = snappyLength(input)
    if (claimed !== declared) throw new DecompressionBombError(`SNAPPY stream claims ${claimed} bytes, its page header declares ${declared}`)
    return upstream.SNAPPY!(input, declared)
  },
  GZIP: (input, declared) => { checkDeclared('GZIP', input, declared); return upstream.GZIP!(input, declared) },
  BROTLI: (input, declared) => { checkDeclared('BROTLI', input, declared); return upstream.BROTLI!(input, declared) },
  LZ4: (input, declared) => { checkDeclared('LZ4', input, declared); return upstream.LZ4!(input, declared) },
  LZ4_RAW: (input, declared) => { checkDeclared('LZ4_RAW', input, declared); return upstream.LZ4_RAW!(input, declared) },
  ZSTD: boundedZstd,
}
