/**
 * Text files of the input read line by line over a byte stream: JSON Lines manifests (NeMo, Lhotse) of any size,
 * gzip compressed or not (`.gz`, decompressed with the platform's `DecompressionStream`), never held whole in one
 * string. Lines are cut on the bytes (a `\n` byte never occurs inside a UTF-8 sequence) and decoded one at a time, so
 * a line that is only counted or skipped is never decoded.
 */
import type { InputFiles } from './input-files.ts'

/** Bytes read from the source at a time. */
export const LINE_PIECE = 4 * 1024 * 1024

/** How a file is read line by line. */
export interface LineOptions {
  signal?: AbortSignal
  /** Bytes read from the source at a time (default `LINE_PIECE`; tests force small pieces). */
  pieceSize?: number
}

/** The bytes of `path`, piece by piece. */
function fileStream(input: InputFiles, path: string, pieceSize: number, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const size = input.sizes.get(path) ?? 0
  let at = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= size) { controller.close(); return }
      const bytes = await input.source.read(path, at, Math.min(size, at + pieceSize), { signal })
      if (bytes.length === 0) { controller.close(); return }
      at += bytes.length
      controller.enqueue(bytes)
    },
  })
}

/**
 * The bytes of a file, piece by piece (`.gz` files decompressed on the way): for readers that cut records
 * themselves (a CSV's quoted newlines, a JSON array's elements).
 * @throws Error `<path>: not a readable gzip file (…)` / `<path>: cannot be read (…)`
 */
export async function* readPieces(input: InputFiles, path: string, options: LineOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal } = options
  let stream = fileStream(input, path, Math.max(1, options.pieceSize ?? LINE_PIECE), signal)
  if (isGzip(path)) stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
  const reader = stream.getReader()
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>
      try {
        step = await reader.read()
      } catch (error) {
        signal?.throwIfAborted()
        throw new Error(`${path}: ${isGzip(path) ? 'not a readable gzip file' : 'cannot be read'} (${(error as Error).message})`)
      }
      if (step.done) return
      yield step.value
    }
  } finally {
    reader.releaseLock()
  }
}

/** Whether `path` is gzip-compressed by its name. */
export function isGzip(path: string): boolean {
  return /\.gz$/i.test(path)
}

/** Two pieces as one. */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/**
 * The lines of a file as bytes (a UTF-8 BOM at the start dropped, the `\n` and one `\r` before it removed), with
 * their 1-based numbers; `.gz` files are decompressed on the way. A yielded `bytes` is valid until the next line is
 * asked for. A last line without `\n` is yielded when it is not empty.
 * @throws Error `<path>: not a readable gzip file (…)` when a `.gz` file does not decompress
 */
export async function* readLineBytes(input: InputFiles, path: string, options: LineOptions = {}): AsyncGenerator<{ bytes: Uint8Array; number: number }> {
  let carry: Uint8Array | null = null
  let number = 0
  let head = true
  const trimmed = (line: Uint8Array) => (line.length && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line)
  const bom = (piece: Uint8Array) => (piece.length >= 3 && piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf ? piece.subarray(3) : piece)
  /** The whole lines of `piece` (the one begun in `carry` first); what is left becomes the carry. */
  function* cut(piece: Uint8Array): Generator<{ bytes: Uint8Array; number: number }> {
    let start = 0
    for (let nl = piece.indexOf(0x0a); nl >= 0; nl = piece.indexOf(0x0a, start)) {
      number++
      if (carry) {
        const line = concat(carry, piece.subarray(0, nl))
        carry = null
        yield { bytes: trimmed(line), number }
      } else {
        yield { bytes: trimmed(piece.subarray(start, nl)), number }
      }
      start = nl + 1
    }
    if (start < piece.length) carry = carry ? concat(carry, piece.subarray(start)) : piece.slice(start)
  }
  for await (let piece of readPieces(input, path, options)) {
    if (head) {
      // the BOM may arrive split over pieces: wait for three bytes before deciding
      if (carry) { piece = concat(carry, piece); carry = null }
      if (piece.length < 3) { carry = piece; continue }
      piece = bom(piece)
      head = false
    }
    yield* cut(piece)
  }
  if (head && carry) {
    const piece: Uint8Array = bom(carry)
    carry = null
    yield* cut(piece)
  }
  if (carry && carry.length) yield { bytes: trimmed(carry), number: number + 1 }
}

/** One decoder for every line: a U+FEFF that starts a line inside the file is text, not a BOM. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** A line's bytes as text (malformed UTF-8 becomes U+FFFD, as a streaming decoder would make it). */
export function decodeLine(bytes: Uint8Array): string {
  return utf8.decode(bytes)
}

/**
 * Whether a line holds nothing but white space, as `line.trim() === ''` says: ASCII lines are judged on their bytes,
 * a line with other bytes is decoded first.
 */
export function isBlankLine(bytes: Uint8Array): boolean {
  let other = false
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue
    if (b < 0x80) return false
    other = true
  }
  return !other || decodeLine(bytes).trim() === ''
}

/**
 * The lines of a text file (UTF-8, a BOM dropped, `\r\n` or `\n`), with their 1-based numbers; `.gz` files are
 * decompressed on the way.
 * @throws Error `<path>: not a readable gzip file (…)` when a `.gz` file does not decompress
 */
export async function* readLines(input: InputFiles, path: string, signal?: AbortSignal, pieceSize?: number): AsyncGenerator<{ line: string; number: number }> {
  for await (const { bytes, number } of readLineBytes(input, path, { signal, pieceSize })) yield { line: decodeLine(bytes), number }
}
