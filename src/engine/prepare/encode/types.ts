/** What the dataprep's audio encoders share. */

/** Output container and codec of `audio_bytes` (docs/conventions.md "Dataprep": `--audio-format`). */
export type AudioFormat = 'flac' | 'ogg'

/** Encodes one clip of 16 kHz mono float32 samples into a complete file (FLAC or Ogg Vorbis). */
export interface ClipEncoder {
  readonly format: AudioFormat
  /**
   * @param samples `[frames]` float32 at `sampleRate`
   * @param sampleRate Hz (16000 for the dataprep)
   * @returns the encoded file's bytes
   */
  encode(samples: Float32Array, sampleRate: number): Uint8Array
  /**
   * The same file from samples given in pieces (the same bytes as `encode` on them joined): for clips too long to
   * hold as float32. One stream at a time per encoder.
   * @param totalSamples the clip's length (FLAC's STREAMINFO declares it up front, as `encode` does)
   */
  stream(sampleRate: number, totalSamples: number): ClipEncodeStream
}

/** A clip being encoded piece by piece. */
export interface ClipEncodeStream {
  /** The next `[n]` float32 samples. */
  push(samples: Float32Array): void
  /** @returns the encoded file's bytes */
  finish(): Uint8Array
}
