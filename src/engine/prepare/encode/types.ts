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
}
