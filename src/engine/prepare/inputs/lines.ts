/**
 * Text files of the input read line by line, in pieces: JSON Lines manifests (NeMo, Lhotse) of any size, gzip
 * compressed or not (`.gz`, decompressed with the platform's `DecompressionStream`), never held whole in one string.
 */
import type { InputFiles } from './input-files.ts'

/** Bytes read from the source at a time. */
const PIECE = 4 * 1024 * 1024

/** The bytes of `path`, piece by piece. */
function fileStream(input: InputFiles, path: string, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const size = input.sizes.get(path) ?? 0
  let at = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= size) { controller.close(); return }
      const bytes = await input.source.read(path, at, Math.min(size, at + PIECE), { signal })
      if (bytes.length === 0) { controller.close(); return }
      at += bytes.length
      controller.enqueue(bytes)
    },
  })
}

/** Whether `path` is gzip-compressed by its name. */
export function isGzip(path: string): boolean {
  return /\.gz$/i.test(path)
}

/**
 * The lines of a text file (UTF-8, a BOM dropped, `\r\n` or `\n`), with their 1-based numbers; `.gz` files are
 * decompressed on the way.
 * @throws Error `<path>: not a gzip file (…)` when a `.gz` file does not decompress
 */
export async function* readLines(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<{ line: string; number: number }> {
  let bytes = fileStream(input, path, signal)
  if (isGzip(path)) bytes = bytes.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
  const reader = bytes.pipeThrough(new TextDecoderStream('utf-8') as unknown as ReadableWritablePair<string, Uint8Array>).getReader()
  let carry = ''
  let number = 0
  let first = true
  try {
    for (;;) {
      let step: ReadableStreamReadResult<string>
      try {
        step = await reader.read()
      } catch (error) {
        signal?.throwIfAborted()
        throw new Error(`${path}: ${isGzip(path) ? 'not a readable gzip file' : 'cannot be read'} (${(error as Error).message})`)
      }
      if (step.done) break
      let text = carry + step.value
      if (first && text.length) { text = text.replace(/^\uFEFF/, ''); first = false }
      let start = 0
      for (let nl = text.indexOf('\n', start); nl >= 0; nl = text.indexOf('\n', start)) {
        number++
        yield { line: text.slice(start, nl > start && text[nl - 1] === '\r' ? nl - 1 : nl), number }
        start = nl + 1
      }
      carry = text.slice(start)
    }
    if (carry.length) yield { line: carry.replace(/\r$/, ''), number: number + 1 }
  } finally {
    reader.releaseLock()
  }
}
