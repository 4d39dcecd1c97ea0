/**
 * Ogg Vorbis through libvorbis (npm `wasm-media-encoders`, libvorbis compiled to WASM), as the reference's
 * `torchaudio.save(format="ogg", backend="soundfile")` writes it: libsndfile's default VBR quality 0.4 (4 on the
 * −1…10 scale). libsndfile picks a random Ogg stream serial number; here it is fixed, so that the same input gives
 * the same bytes.
 */
import { createOggEncoder } from 'wasm-media-encoders'
import { concatBytes } from './flac.ts'
import type { ClipEncoder } from './types.ts'

/** libsndfile's default Vorbis quality (0.4), on wasm-media-encoders' scale. */
export const VORBIS_QUALITY = 4

/** The Ogg stream serial number of every clip (any fixed value keeps the output deterministic). */
export const OGG_SERIAL = 0x6d697873 // "mixs"

type OggEncoder = Awaited<ReturnType<typeof createOggEncoder>>

/** A Vorbis encoder for mono clips (the WASM module is compiled once per thread). */
export async function createVorbisEncoder(): Promise<ClipEncoder> {
  const encoder: OggEncoder = await createOggEncoder()
  return {
    format: 'ogg',
    encode(samples, sampleRate) {
      encoder.configure({ channels: 1, sampleRate, vbrQuality: VORBIS_QUALITY, oggSerialNo: OGG_SERIAL })
      const chunks: Uint8Array[] = []
      // the encoder owns the arrays it returns: copy each; feed at most 1 M samples a call
      for (let i = 0; i < samples.length; i += 1 << 20) chunks.push(encoder.encode([samples.subarray(i, i + (1 << 20))]).slice())
      chunks.push(encoder.finalize().slice())
      return concatBytes(chunks)
    },
  }
}
