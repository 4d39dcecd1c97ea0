/**
 * 16-bit FLAC through libFLAC 1.3.4 (npm `libflacjs` 5.6.0, libFLAC compiled to WASM), as the reference's
 * `torchaudio.save(format="flac", backend="soundfile")` writes it: libsndfile drives libFLAC at compression level 5
 * with PCM_16 (docs/reference-pipeline.md §17). The library object is passed in: Node and the browser load it
 * differently (src/engine/node/libflac-node.ts, src/engine/prepare/libflac-browser.ts).
 */
import type * as LibFlac from 'libflacjs/dist/index.d.ts'
import { toPcm16 } from './pcm16.ts'
import type { ClipEncoder } from './types.ts'

/** The libflacjs API, loaded and ready. */
export type Flac = typeof LibFlac

/** libFLAC's compression level libsndfile uses when not told otherwise. */
export const FLAC_COMPRESSION_LEVEL = 5

/** Joins chunks into one array. */
export function concatBytes(chunks: Uint8Array[]): Uint8Array {
  let n = 0
  for (const c of chunks) n += c.length
  const out = new Uint8Array(n)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/**
 * Writes the final STREAMINFO (frame sizes, MD5) over the one libFLAC wrote first: a stream encoder without a seek
 * callback cannot go back, while libsndfile's (seekable) output has them. Layout: FLAC format spec, METADATA_BLOCK_STREAMINFO.
 */
function patchStreamInfo(bytes: Uint8Array, info: LibFlac.StreamMetadata): void {
  if (bytes.length < 42 || bytes[0] !== 0x66 || bytes[1] !== 0x4c || bytes[2] !== 0x61 || bytes[3] !== 0x43 || (bytes[4] & 0x7f) !== 0) {
    throw new Error('flac: the encoder did not start with fLaC + STREAMINFO')
  }
  const at = 8
  const put24 = (o: number, v: number) => { bytes[o] = (v >>> 16) & 0xff; bytes[o + 1] = (v >>> 8) & 0xff; bytes[o + 2] = v & 0xff }
  put24(at + 4, info.min_framesize)
  put24(at + 7, info.max_framesize)
  if (/^[0-9a-f]{32}$/i.test(info.md5sum)) {
    for (let i = 0; i < 16; i++) bytes[at + 18 + i] = parseInt(info.md5sum.slice(2 * i, 2 * i + 2), 16)
  }
}

/**
 * A FLAC encoder for mono clips.
 * @param flac the loaded libflacjs module
 */
export function createFlacEncoder(flac: Flac): ClipEncoder {
  const stream = (sampleRate: number, totalSamples: number) => {
    const encoder = flac.create_libflac_encoder(sampleRate, 1, 16, FLAC_COMPRESSION_LEVEL, totalSamples, false, 0)
    if (!encoder) throw new Error(`flac: libFLAC could not create an encoder for ${sampleRate} Hz`)
    const chunks: Uint8Array[] = []
    let info: LibFlac.StreamMetadata | undefined
    let open = true
    const close = () => {
      if (open) flac.FLAC__stream_encoder_delete(encoder)
      open = false
    }
    try {
      const status = flac.init_encoder_stream(encoder, (data) => { chunks.push(data.slice()) }, (metadata) => { if (metadata) info = metadata })
      if (status !== 0) throw new Error(`flac: libFLAC init failed with status ${status}`)
    } catch (error) {
      close()
      throw error
    }
    return {
      push(samples: Float32Array) {
        try {
          // libFLAC copies the samples per call; one call per 1 M samples keeps its WASM heap small
          for (let i = 0; i < samples.length; i += 1 << 20) {
            const part = toPcm16(samples.subarray(i, Math.min(samples.length, i + (1 << 20))))
            if (!flac.FLAC__stream_encoder_process_interleaved(encoder, part, part.length)) {
              throw new Error(`flac: libFLAC failed to encode (state ${flac.FLAC__stream_encoder_get_state(encoder)})`)
            }
          }
        } catch (error) {
          close()
          throw error
        }
      },
      finish() {
        try {
          if (!flac.FLAC__stream_encoder_finish(encoder)) throw new Error(`flac: libFLAC failed to finish (state ${flac.FLAC__stream_encoder_get_state(encoder)})`)
        } finally {
          close()
        }
        const bytes = concatBytes(chunks)
        if (info) patchStreamInfo(bytes, info)
        return bytes
      },
    }
  }
  return {
    format: 'flac',
    encode(samples, sampleRate) {
      const s = stream(sampleRate, samples.length)
      s.push(samples)
      return s.finish()
    },
    stream,
  }
}
