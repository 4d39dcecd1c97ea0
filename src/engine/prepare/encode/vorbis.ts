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

/** Samples per call into libvorbis: 1 M. */
const PIECE = 1 << 20

type OggEncoder = Awaited<ReturnType<typeof createOggEncoder>>

/** A Vorbis encoder for mono clips (the WASM module is compiled once per thread). */
export async function createVorbisEncoder(): Promise<ClipEncoder> {
  const encoder: OggEncoder = await createOggEncoder()
  const stream = (sampleRate: number) => {
    encoder.configure({ channels: 1, sampleRate, vbrQuality: VORBIS_QUALITY, oggSerialNo: OGG_SERIAL })
    const chunks: Uint8Array[] = []
    // the encoder is fed PIECE samples a call whatever the pieces pushed (its Ogg pages are cut per call, so the
    // same calls give the same bytes); it owns the arrays it returns: copy each
    const piece = new Float32Array(PIECE)
    let filled = 0
    const feed = (x: Float32Array) => { chunks.push(encoder.encode([x]).slice()) }
    return {
      push(samples: Float32Array) {
        let at = 0
        if (filled > 0) {
          const take = Math.min(PIECE - filled, samples.length)
          piece.set(samples.subarray(0, take), filled)
          filled += take
          at = take
          if (filled < PIECE) return
          feed(piece)
          filled = 0
        }
        for (; at + PIECE <= samples.length; at += PIECE) feed(samples.subarray(at, at + PIECE))
        piece.set(samples.subarray(at), 0)
        filled = samples.length - at
      },
      finish() {
        if (filled > 0) feed(piece.subarray(0, filled))
        chunks.push(encoder.finalize().slice())
        return concatBytes(chunks)
      },
    }
  }
  return {
    format: 'ogg',
    encode(samples, sampleRate) {
      const s = stream(sampleRate)
      s.push(samples)
      return s.finish()
    },
    stream,
  }
}
