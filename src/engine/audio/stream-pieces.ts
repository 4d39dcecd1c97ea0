/**
 * What the streamed decoders (streamed-decode.ts, coded-stream.ts) share: the opened stream's shape, counting a
 * decode's frames, keeping the first `frames` of it, and joining two byte windows.
 */
import type { AudioCodec, AudioContainer } from './sniff-result.ts'

/** A compressed file opened for reading in pieces. */
export interface StreamedDecode {
  container: AudioContainer
  codec: AudioCodec
  /** Hz. */
  sampleRate: number
  channels: number
  /** Frames (per channel) `decodeAudio` returns for the file: what `pieces` yields in all. */
  frames: number
  /**
   * The planar samples of frames `[0, frames)`, in order, a piece at a time (each a few MiB of input's worth);
   * can be called again (it reads the file again).
   * @yields `[channels][n]` float32, n > 0
   * @throws Error `audio: ...` when the file ends before `frames` (it changed, or is damaged past repair)
   */
  pieces(): AsyncGenerator<Float32Array[]>
}


/** Frames a decode yields in all (a first pass where the length is only known once decoded). */
export async function countFrames(pieces: AsyncGenerator<Float32Array[]>): Promise<number> {
  let n = 0
  for await (const p of pieces) n += p[0].length
  return n
}

/**
 * The pieces of the first `frames` frames; stops reading there.
 * @throws Error `audio: ...` when there are fewer
 */
export async function* upTo(pieces: AsyncGenerator<Float32Array[]>, frames: number): AsyncGenerator<Float32Array[]> {
  let at = 0
  for await (const p of pieces) {
    const n = Math.min(p[0].length, frames - at)
    if (n > 0) yield n === p[0].length ? p : p.map((c) => c.subarray(0, n))
    at += n
    if (at >= frames) {
      await pieces.return(undefined)
      return
    }
  }
  throw new Error(`audio: the stream decodes to ${at} frames, its header declares ${frames}: the file changed, or is damaged before its end`)
}

/** `a` then `b` in one new array. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
