/**
 * A JSON file read a piece at a time: a top-level array yields its elements one by one (each parsed on its own,
 * from its bytes: memory is one piece and one element, whatever the file's size); any other document is parsed
 * whole up to `MAX_JSON_DOCUMENT_BYTES`. For Lhotse's older `.json` manifests (a JSON array of records).
 */
import type { InputFiles } from './input-files.ts'
import { readPieces } from './lines.ts'

/** Bytes of a JSON document that is not an array, or of one array element, read whole at most. */
export const MAX_JSON_DOCUMENT_BYTES = 64 << 20

/** One element (or the whole non-array document), parsed, or why it is not JSON. */
export type JsonItem = { index: number; value: unknown; error: null } | { index: number; value: null; error: string }

const utf8 = new TextDecoder('utf-8')
const BOM = [0xef, 0xbb, 0xbf]

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
}

/**
 * The elements of the top-level JSON array in `path` (`.gz` decompressed), in order with their 0-based index; a
 * document that is not an array comes as one item with index −1. A malformed element is an item with its error
 * and the next ones still come; a structural error (no closing `]`, text after it) ends the items with one error.
 * @throws Error naming the file and the limit when a non-array document or an element is over
 * `MAX_JSON_DOCUMENT_BYTES` (convert the file to JSON Lines, one record per line)
 */
export async function* readJsonArray(input: InputFiles, path: string, signal?: AbortSignal, pieceSize?: number): AsyncGenerator<JsonItem> {
  /** 'start': before the document; 'array': inside the top-level array, between elements; 'element': in one;
   * 'after': after the closing bracket; 'document': a non-array document, read whole. */
  let state: 'start' | 'array' | 'element' | 'after' | 'document' = 'start'
  let parts: Uint8Array[] = []
  let partBytes = 0
  let index = 0
  /** Within the element: nesting depth, in a string, after a backslash; the kind of element. */
  let depth = 0
  let inString = false
  let escaped = false
  let scalar = false
  let expectElement = true
  const tooBig = (what: string) => new Error(`lhotse: ${path}: ${what} is over ${MAX_JSON_DOCUMENT_BYTES} bytes; convert the manifest to JSON Lines (.jsonl, one record per line), which is read line by line`)
  const keep = (bytes: Uint8Array, what: string) => {
    if (!bytes.length) return
    partBytes += bytes.length
    if (partBytes > MAX_JSON_DOCUMENT_BYTES) throw tooBig(what)
    parts.push(bytes.slice())
  }
  const take = (): string => {
    const all = new Uint8Array(partBytes)
    let at = 0
    for (const p of parts) { all.set(p, at); at += p.length }
    parts = []
    partBytes = 0
    return utf8.decode(all)
  }
  const parse = (i: number, text: string): JsonItem => {
    try {
      return { index: i, value: JSON.parse(text) as unknown, error: null }
    } catch (error) {
      return { index: i, value: null, error: `not JSON (${(error as Error).message})` }
    }
  }
  /** Bytes of a UTF-8 BOM matched at the file's start so far (−1: no BOM). */
  let bom = 0
  for await (const piece of readPieces(input, path, { signal, pieceSize })) {
    let elementStart = state === 'element' || state === 'document' ? 0 : -1
    for (let i = 0; i < piece.length && state !== 'document'; i++) {
      const b = piece[i]
      if (state === 'start') {
        if (bom >= 0 && bom < 3 && b === BOM[bom]) { bom++; continue }
        bom = -1
        if (isSpace(b)) continue
        if (b === 0x5b) { state = 'array'; continue } // [
        state = 'document'
        elementStart = i
        continue
      }
      if (state === 'after') {
        if (isSpace(b)) continue
        yield { index, value: null, error: 'not JSON (text after the closing "]")' }
        return
      }
      if (state === 'array') {
        if (isSpace(b)) continue
        if (b === 0x5d) { // ]
          state = 'after'
          continue
        }
        if (b === 0x2c) { // ,
          if (expectElement) { yield { index, value: null, error: 'not JSON (an empty element: ",")' }; return }
          expectElement = true
          continue
        }
        if (!expectElement) { yield { index, value: null, error: `not JSON (no "," before element ${index})` }; return }
        state = 'element'
        elementStart = i
        depth = 0
        inString = false
        escaped = false
        scalar = b !== 0x7b && b !== 0x5b && b !== 0x22
      }
      // state === 'element'
      let end = -1
      if (inString) {
        if (escaped) escaped = false
        else if (b === 0x5c) escaped = true
        else if (b === 0x22) {
          inString = false
          if (depth === 0) end = i + 1
        }
      } else if (scalar) {
        if (isSpace(b) || b === 0x2c || b === 0x5d) end = i
      } else if (b === 0x22) inString = true
      else if (b === 0x7b || b === 0x5b) depth++
      else if (b === 0x7d || b === 0x5d) {
        depth--
        if (depth === 0) end = i + 1
      }
      if (end >= 0) {
        keep(piece.subarray(elementStart, end), `element ${index}`)
        yield parse(index++, take())
        state = 'array'
        expectElement = false
        elementStart = -1
        // a scalar ended on the delimiter itself: read it again as the array's
        if (end === i) i--
      }
    }
    if (state === 'element') keep(piece.subarray(elementStart), `element ${index}`)
    else if (state === 'document') keep(piece.subarray(Math.max(0, elementStart)), 'a JSON document that is not an array')
  }
  if (state === 'document') {
    yield parse(-1, take())
    return
  }
  if (state === 'element' && scalar) {
    yield parse(index++, take())
    state = 'array'
  }
  if (state === 'start') yield { index: -1, value: null, error: 'not JSON (empty file)' }
  else if (state !== 'after') yield { index, value: null, error: 'not JSON (the array has no closing "]")' }
}
