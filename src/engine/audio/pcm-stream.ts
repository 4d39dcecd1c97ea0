/**
 * Raw-sample files (WAV/RIFX/RF64, Wave64, AIFF/AIFC, CAF, NIST SPHERE, Sun/NeXT AU, the rarer containers of
 * rare-containers.ts, with PCM, float or G.711 samples) read a
 * stretch at a time: the layout from the file's first bytes and its size, then frames `[start, end)` in chunks
 * through ranged reads, with the values `decodeAudio` gives (pcm.ts, libsndfile's). What lets the dataprep convert
 * a file longer than `decodeAudio`'s sample limit, or one segment of it, without holding the file or its samples
 * (docs/interpretations.md "Audio").
 */
import { ascii } from './bytes.ts'
import { decodePcm, pcmFramesIn, type PcmLayout } from './pcm.ts'
import { pcmContainerOf, readPcmContainer, wavEncoding } from './pcm-containers.ts'
import { blockingProblems, type AudioContainer } from './sniff-result.ts'
import { sniffWavLayout } from './wav.ts'

/** Bytes of a file's start that `pcmLayoutFromHead` needs at most (headers before the samples, with some metadata). */
export const PCM_HEAD_BYTES = 1 << 20

/** Frames longer than this (per channel) are refused, as the sniffers' "absurd declared length" (2^31). */
const MAX_FRAMES = 2 ** 31

/** A raw-sample file's layout for the whole file, read from its head. */
export interface PcmFileLayout {
  container: AudioContainer
  /** Hz (an integer for the resampler; a fractional AIFF/CAF rate gives null from `pcmLayoutFromHead`). */
  sampleRate: number
  /** `frames`: every whole frame of the file's declared data that the file holds. */
  layout: PcmLayout
}

/**
 * The layout of a raw-sample file from its first bytes.
 * @param head the file's first bytes (`PCM_HEAD_BYTES`, or the whole file when shorter)
 * @param fileSize the whole file's size in bytes
 * @returns null when the head is not such a file, its samples are not one libsndfile reads raw (ADPCM, …), the
 * header has a problem that stops libsndfile, or the sample data does not start within the head: `decodeAudio`
 * then decides (and says why)
 */
export function pcmLayoutFromHead(head: Uint8Array, fileSize: number): PcmFileLayout | null {
  const magic = ascii(head, 0, 4)
  let container: AudioContainer
  let layout: PcmLayout | null
  let rate: number | null
  if (magic === 'RIFF' || magic === 'RIFX' || magic === 'RF64') {
    const { sniff, layout: wav } = sniffWavLayout(head)
    if (!wav || blockingProblems(sniff).length || !sniff.codec || !sniff.channels || !sniff.bitsPerSample) return null
    const encoding = wavEncoding(wav.formatTag, sniff.bitsPerSample)
    if (!encoding) return null
    container = 'wav'
    rate = sniff.sampleRate
    layout = {
      encoding, bits: sniff.bitsPerSample, littleEndian: wav.littleEndian, channels: sniff.channels, dataOffset: wav.dataOffset,
      blockAlign: wav.blockAlign, frames: 0, dataBytes: wav.dataSize,
    }
  } else {
    const kind = pcmContainerOf(head, fileSize)
    if (!kind) return null
    const found = readPcmContainer(head, kind, fileSize)
    if (!found.layout || blockingProblems(found.sniff).length) return null
    container = kind
    rate = found.sniff.sampleRate
    layout = found.layout
  }
  if (rate === null || !Number.isInteger(rate) || rate <= 0 || layout.dataOffset > head.length || layout.blockAlign <= 0) return null
  const frames = pcmFramesIn(layout, fileSize)
  if (frames >= MAX_FRAMES) return null
  return { container, sampleRate: rate, layout: { ...layout, frames } }
}

/** Reads bytes `[start, end)` of the file. */
export type RangeReader = (start: number, end: number) => Promise<Uint8Array>

/**
 * Planar float32 frames `[start, end)` of a raw-sample file, `chunkFrames` at a time (the last chunk shorter), each
 * chunk from one ranged read: memory stays at one chunk whatever the file's length.
 * @param read the file's ranged reader
 * @param layout from `pcmLayoutFromHead`
 * @yields `[channels][≤ chunkFrames]`
 */
export async function* readPcmFrames(read: RangeReader, layout: PcmLayout, start: number, end: number, chunkFrames: number): AsyncGenerator<Float32Array[]> {
  if (start < 0 || end > layout.frames || start > end) throw new Error(`audio: frames [${start}, ${end}) are outside the file's ${layout.frames}`)
  const step = Math.max(1, Math.floor(chunkFrames))
  for (let at = start; at < end; at += step) {
    const count = Math.min(step, end - at)
    const bytes = await read(layout.dataOffset + at * layout.blockAlign, layout.dataOffset + (at + count) * layout.blockAlign)
    if (bytes.length < count * layout.blockAlign) throw new Error(`audio: read ${bytes.length} bytes of the ${count * layout.blockAlign} at frame ${at}: the file changed or is shorter than listed`)
    yield decodePcm(bytes, { ...layout, dataOffset: 0, frames: count })
  }
}
