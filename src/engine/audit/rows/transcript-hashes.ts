/**
 * The transcript as the leakage check compares it: normalized (NFC, lower-cased, whitespace runs collapsed to one
 * space, trimmed), and per row of a table its kind and the 64-bit hash of its normalized form, in typed arrays.
 */
import { contentHashPrefixInto } from '../../core/content-hash.ts'

/** The transcript as the leakage check compares it. */
export function normalizeTranscript(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim()
}

/** Per row, the transcript as the leakage check compares it: its kind and the 64-bit hash of its normalized form. */
export interface TranscriptHashes {
  /** `noTranscript`, `emptyNormalized` or `hashedTranscript`. */
  readonly kind: Uint8Array
  /** Row `i`'s hash (`contentHash` of the normalized UTF-8): `words[2i]` its first 8 hex digits, `words[2i + 1]` the last 8. */
  readonly words: Uint32Array
}

/** No transcript (null or empty): not counted. */
export const noTranscript = 0
/** A transcript that is empty once normalized: counted, never matched. */
export const emptyNormalized = 1
/** A hashed normalized transcript. */
export const hashedTranscript = 2

const utf8 = new TextEncoder()
let scratch = new Uint8Array(1024)
/** `scratch` as 32-bit words (the hash reads whole words). */
let scratchWords = new Uint32Array(scratch.buffer)

/**
 * Writes row `at`'s kind and hash for `text` into `into` (`contentHash` of the normalized transcript's UTF-8, as a
 * shard part's `transcript` column holds it in hex).
 */
export function hashTranscriptInto(text: string | null, into: TranscriptHashes, at: number): void {
  if (!text) { into.kind[at] = noTranscript; return }
  const ascii = asciiNormalizedInto(text)
  if (ascii === 0) { into.kind[at] = emptyNormalized; return }
  if (ascii > 0) {
    into.kind[at] = hashedTranscript
    contentHashPrefixInto(scratch, scratchWords, ascii, into.words, at)
    return
  }
  const normalized = normalizeTranscript(text)
  if (!normalized) { into.kind[at] = emptyNormalized; return }
  if (scratch.length < normalized.length * 3) growScratch(normalized.length * 3)
  const { written } = utf8.encodeInto(normalized, scratch)
  into.kind[at] = hashedTranscript
  contentHashPrefixInto(scratch, scratchWords, written, into.words, at)
}

/**
 * `normalizeTranscript(text)`'s UTF-8 written into `scratch` without a string made, when `text` is all ASCII: NFC
 * leaves ASCII as it is, lower-casing maps A–Z to a–z only, and the ASCII characters of `\s` and of `trim` (ECMA-262
 * WhiteSpace and LineTerminator) are TAB, LF, VT, FF, CR and SPACE (U+0009–U+000D, U+0020).
 * @returns the bytes written (0 when the normalized transcript is empty), or −1 when `text` has a non-ASCII character
 */
function asciiNormalizedInto(text: string): number {
  const n = text.length
  if (scratch.length < n) growScratch(n * 3)
  let w = 0
  let space = false
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i)
    if (c >= 0x80) return -1
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      // a run of whitespace becomes one space, and only between two kept characters (trimmed at both ends)
      space = w > 0
      continue
    }
    if (space) { scratch[w++] = 0x20; space = false }
    if (c >= 0x41 && c <= 0x5a) c += 0x20
    scratch[w++] = c
  }
  return w
}

/** A larger `scratch` of at least `bytes` (whole 32-bit words, for `scratchWords`). */
function growScratch(bytes: number): void {
  scratch = new Uint8Array(Math.ceil(bytes / 4) * 4)
  scratchWords = new Uint32Array(scratch.buffer)
}

/** Empty columns for `n` rows. */
export function transcriptHashes(n: number): TranscriptHashes {
  return { kind: new Uint8Array(n), words: new Uint32Array(2 * n) }
}

