/**
 * The compressed codecs of the raw-sample containers that libsndfile reads (the training reference decodes with
 * it): AIFC `ima4` (adpcm.ts), AIFC `DWVW` (dwvw.ts), GSM 06.10 in AIFC, WAV and Wave64 (gsm610.ts), ALAC in CAF
 * (alac.ts), G.721 / G.723 ADPCM in Sun/NeXT AU (g72x.ts, au.ts), Ensoniq PARIS 24-bit blocks (paf24.ts), MIDI SDS
 * packets (sds.ts) and FastTracker 2 XI delta PCM (xi.ts). The containers' sniffers (pcm-containers.ts, wav.ts,
 * au.ts, rare-containers.ts) find where the coded data is and how many frames libsndfile gives it; `decodeCoded`
 * turns it into planar float32 with libsndfile's values.
 */
import { decodeAdpcm, IMA4_PACKET_BYTES, IMA4_PACKET_SAMPLES } from './adpcm.ts'
import { decodeDwvw } from './dwvw.ts'
import { decodeGsm610 } from './gsm610.ts'
import { decodeAlac, type AlacConfig } from './alac.ts'
import { decodeG72x, type G72xKind } from './g72x.ts'
import { decodePaf24 } from './paf24.ts'
import { decodeSds } from './sds.ts'
import { XiDpcmDecoder } from './xi.ts'

/** Where a coded stream is, and what libsndfile makes of it. */
export type CodedLayout =
  | CodedCommon & { kind: 'ima4' }
  | CodedCommon & { kind: 'dwvw'; /** sample width, 8–24 */ bits: number }
  | CodedCommon & { kind: 'alac'; config: AlacConfig; /** each packet's bytes, in order */ sizes: number[] }
  | CodedCommon & { kind: 'gsm610'; /** Microsoft's 65-byte two-frame blocks (WAV, Wave64), else 33-byte frames */ wav49: boolean }
  | CodedCommon & { kind: 'g72x'; /** G.721 32 kbit/s, G.723 24 or 40 kbit/s (mono) */ variant: G72xKind }
  | CodedCommon & { kind: 'paf24'; /** the samples' byte order */ littleEndian: boolean }
  | CodedCommon & { kind: 'sds'; /** the header's bit width, 8–28 */ bits: number; /** the header's length (`frames`: what libsndfile's read of it returns) */ declared: number }
  | CodedCommon & { kind: 'xi'; /** 8- or 16-bit deltas */ bits: 8 | 16 }

interface CodedCommon {
  channels: number
  /** Byte offset of the coded data. */
  dataOffset: number
  /**
   * Bytes of coded data as libsndfile counts them (GSM in WAV: a pad byte after an odd-sized chunk included; DWVW: to
   * the end of the file, as libsndfile reads it).
   */
  dataBytes: number
  /** Frames libsndfile gives the stream (`sf_info`'s `frames`; DWVW: COMM's count, fewer when the stream ends first). */
  frames: number
}

/**
 * Decodes a coded stream.
 * @param bytes the whole file
 * @returns planar `[channels][frames]` float32 (ADPCM, G.72x and GSM: 16-bit values / 32768; DWVW and XI:
 * / 2^(bits−1); SDS: its 32-bit values / 2^31)
 */
export function decodeCoded(bytes: Uint8Array, layout: CodedLayout): Float32Array[] {
  const { channels, frames, dataOffset, dataBytes } = layout
  if (layout.kind === 'ima4') {
    return decodeAdpcm(bytes, { kind: 'ima4', channels, blockAlign: IMA4_PACKET_BYTES * channels, samplesPerBlock: IMA4_PACKET_SAMPLES, dataOffset, dataBytes }, frames)
  }
  if (layout.kind === 'alac') return decodeAlac(bytes.subarray(dataOffset, dataOffset + dataBytes), layout.sizes, layout.config)
  if (layout.kind === 'gsm610') return [decodeGsm610(bytes.subarray(dataOffset), dataBytes, layout.wav49, frames)]
  if (layout.kind === 'g72x') return [decodeG72x(layout.variant, bytes.subarray(dataOffset), dataBytes)]
  if (layout.kind === 'paf24') return decodePaf24(bytes.subarray(dataOffset, dataOffset + dataBytes), channels, layout.littleEndian, frames)
  if (layout.kind === 'sds') return [decodeSds(bytes.subarray(dataOffset, dataOffset + dataBytes), layout.bits, layout.declared)]
  if (layout.kind === 'xi') return [new XiDpcmDecoder(layout.bits).decode(bytes.subarray(dataOffset, dataOffset + dataBytes), frames)]
  const samples = decodeDwvw(bytes.subarray(dataOffset, dataOffset + dataBytes), layout.bits, frames * channels)
  // libsndfile counts the frames by decoding (`psf_decode_frame_count`), capped at COMM's count
  const got = Math.floor(samples.length / channels)
  const out = Array.from({ length: channels }, () => new Float32Array(got))
  const scale = 1 / 2 ** (layout.bits - 1)
  for (let c = 0; c < channels; c++) {
    const ch = out[c]
    for (let i = 0, at = c; i < got; i++, at += channels) ch[i] = samples[at] * scale
  }
  return out
}
