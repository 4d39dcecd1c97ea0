/**
 * The coded streams of the raw-sample containers (coded.ts) read a stretch at a time: GSM 06.10 in WAV, Wave64
 * and AIFC (gsm610.ts), AIFC `ima4` (adpcm.ts), AIFC `DWVW` (dwvw.ts), ALAC in CAF (alac.ts), G.721 / G.723 in
 * Sun/NeXT AU (g72x.ts), Ensoniq PAF 24-bit blocks (paf24.ts) and FastTracker 2 XI delta PCM (xi.ts); and the
 * ADPCM and G.721 blocks of WAV that streamed-decode.ts reads. Each decodes a fixed number of blocks or packets per ranged read
 * (about `chunkBytes` of input), one decoder state running through the stream, and gives the samples and the length
 * `decodeAudio` gives the file (libsndfile's: docs/interpretations.md "Audio"), without holding the file or its
 * samples; what lets the dataprep convert such a file longer than `decodeAudio`'s sample limit.
 */
import { decodeAdpcm, IMA4_PACKET_BYTES, IMA4_PACKET_SAMPLES, type AdpcmLayout } from './adpcm.ts'
import { AlacDecoder, type AlacConfig } from './alac.ts'
import { ascii, u32be } from './bytes.ts'
import type { CodedLayout } from './coded.ts'
import { DwvwDecoder } from './dwvw.ts'
import { G72X_BLOCK_SAMPLES, G72xDecoder, g72xBlockBytes, g72xFrames, type G72xKind } from './g72x.ts'
import { GsmBlockDecoder, gsmBlocks, GSM_WAV49_BLOCK_SAMPLES } from './gsm610.ts'
import { PAF24_BLOCK_BYTES, PAF24_BLOCK_SAMPLES, Paf24Decoder } from './paf24.ts'
import { pcmContainerOf, readPcmContainer, sniffCaf } from './pcm-containers.ts'
import type { RangeReader } from './pcm-stream.ts'
import { blockingProblems } from './sniff-result.ts'
import { countFrames, upTo, type StreamedDecode } from './stream-pieces.ts'
import { gsmDataBytes, sniffWavLayout } from './wav.ts'
import { XiDpcmDecoder } from './xi.ts'

/** Most bytes of CAF chunks before ALAC's data (its packet table: ~2 bytes a packet) read to open the stream. */
const MAX_CAF_HEADER_BYTES = 64 << 20

/**
 * GSM 06.10 WAV (WAV49 blocks): the frames and samples of wav.ts's `decodeGsmWav`.
 * @param head the file's first bytes (its header, up to the data's start at least)
 * @returns null when the file is no GSM WAV, or has a problem `decodeAudio` stops at
 */
export function gsmWavStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): StreamedDecode | null {
  const { sniff, layout } = sniffWavLayout(head)
  if (sniff.codec !== 'gsm610' || !layout || blockingProblems(sniff).length || !sniff.sampleRate || layout.dataOffset > head.length) return null
  const dataBytes = gsmDataBytes(layout.dataSize, size - layout.dataOffset)
  const frames = gsmBlocks(dataBytes, true) * GSM_WAV49_BLOCK_SAMPLES
  return { container: 'wav', codec: 'gsm610', sampleRate: sniff.sampleRate, channels: 1, frames, pieces: () => gsmPieces(read, size, layout.dataOffset, true, frames, chunkBytes) }
}

/**
 * The coded stream of an AIFC (`ima4`, `DWVW`, `GSM `), Wave64 (GSM 06.10), CAF (ALAC), Sun/NeXT AU (G.721, G.723),
 * Ensoniq PAF (24-bit) or FastTracker 2 XI file, with the frames and samples of pcm-containers.ts's
 * `decodePcmContainer`.
 * @param head the file's first bytes (up to 1 MiB, or the whole file when shorter)
 * @returns null when the file holds none of these, or has a problem `decodeAudio` stops at
 */
export async function codedContainerStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): Promise<StreamedDecode | null> {
  const kind = pcmContainerOf(head, size)
  if (kind === 'caf') return alacCafStream(read, size, head, chunkBytes)
  if (!kind) return null
  const { sniff, coded } = readPcmContainer(head, kind, size)
  if (!coded || !sniff.codec || blockingProblems(sniff).length || !sniff.sampleRate || !Number.isInteger(sniff.sampleRate) || coded.dataOffset > head.length) return null
  const base = { container: kind, codec: sniff.codec, sampleRate: sniff.sampleRate, channels: coded.channels, frames: coded.frames } as const
  if (coded.kind === 'gsm610') return { ...base, pieces: () => gsmPieces(read, size, coded.dataOffset, coded.wav49, coded.frames, chunkBytes) }
  if (coded.kind === 'ima4') {
    const layout: AdpcmLayout = {
      kind: 'ima4', channels: coded.channels, blockAlign: IMA4_PACKET_BYTES * coded.channels, samplesPerBlock: IMA4_PACKET_SAMPLES,
      dataOffset: coded.dataOffset, dataBytes: coded.dataBytes,
    }
    return { ...base, pieces: () => adpcmPieces(read, layout, coded.frames, chunkBytes) }
  }
  if (coded.kind === 'dwvw') {
    // libsndfile counts the frames by decoding the stream (capped at COMM's count): a first pass counts them
    const decoded = () => dwvwPieces(read, size, coded, chunkBytes)
    const frames = await countFrames(decoded())
    return { ...base, frames, pieces: () => upTo(decoded(), frames) }
  }
  if (coded.kind === 'g72x') return { ...base, pieces: () => g72xPieces(read, coded.variant, coded.dataOffset, coded.dataBytes, chunkBytes) }
  if (coded.kind === 'paf24') return { ...base, pieces: () => paf24Pieces(read, coded, chunkBytes) }
  if (coded.kind === 'xi') return { ...base, pieces: () => xiPieces(read, coded, chunkBytes) }
  return null
}

/**
 * ALAC in CAF: the chunks before the data (desc, kuki, pakt: libsndfile writes the packet table there) read and
 * checked by pcm-containers.ts's `sniffCaf`, the last packet read where it is to count its frames as libsndfile does
 * (`alacCaf`), then the packets a stretch at a time.
 */
async function alacCafStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): Promise<StreamedDecode | null> {
  // the data chunk's header, found by chunk sizes (each chunk: 4-byte id, 64-bit big-endian size)
  let at = 8
  let dataBody = -1
  let dataSize = 0
  while (at + 12 <= size && at <= MAX_CAF_HEADER_BYTES) {
    const h = at + 12 <= head.length ? head.subarray(at, at + 12) : await read(at, at + 12)
    if (h.length < 12) return null
    const chunk = u32be(h, 4) * 2 ** 32 + u32be(h, 8)
    if (ascii(h, 0, 4) === 'data') {
      dataBody = at + 12
      // a size of -1 (all ones) runs to the end of the file
      dataSize = h[4] === 0xff && chunk >= 2 ** 63 ? size - dataBody : chunk
      break
    }
    at += 12 + chunk
  }
  if (dataBody < 0 || dataBody + 4 > Math.min(size, MAX_CAF_HEADER_BYTES)) return null
  const prefix = dataBody + 4 <= head.length ? head.subarray(0, dataBody + 4) : await read(0, dataBody + 4)
  // the chunks up to the data's 4-byte edit count: sniffCaf finds no packet bytes there (its "truncated data"
  // problem, and a count without the last packet's frames, are put right below)
  const { sniff, coded } = sniffCaf(prefix)
  if (!coded || coded.kind !== 'alac' || blockingProblems(sniff).length || !sniff.sampleRate || !Number.isInteger(sniff.sampleRate)) return null
  const dataOffset = dataBody + 4
  const dataBytes = Math.max(0, Math.min(dataSize, size - dataBody) - 4)
  const { config, sizes, channels } = coded
  const total = sizes.reduce((n, x) => n + x, 0)
  const decoded = () => alacPieces(read, dataOffset, dataBytes, sizes, config, chunkBytes)
  let frames: number
  if (sizes.length && total <= dataBytes) {
    // every packet's frames but the last, plus what the last decodes to (a fresh decoder, as `alacCaf`'s)
    const last = sizes[sizes.length - 1]
    const bytes = await read(dataOffset + total - last, dataOffset + total)
    try {
      frames = coded.frames + new AlacDecoder(config).packet(bytes, new Int32Array(config.frameLength * channels))
    } catch {
      return null // the whole-file path says why
    }
  } else {
    // the packets past the data are not read (libsndfile's read comes up short): as far as they decode
    frames = await countFrames(decoded())
  }
  return { container: 'caf', codec: 'alac', sampleRate: sniff.sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
}

/**
 * G.72x blocks (`G72xDecoder`, one state through the stream) `chunkBytes` of input at a time: every block of the
 * `dataBytes` at `dataOffset`, the last one even when cut short, as g72x.ts's `decodeG72x` (`g72xFrames` in all).
 */
export async function* g72xPieces(read: RangeReader, variant: G72xKind, dataOffset: number, dataBytes: number, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const blockBytes = g72xBlockBytes(variant)
  const blocks = g72xFrames(variant, dataBytes) / G72X_BLOCK_SAMPLES
  const perRead = Math.max(1, Math.floor(chunkBytes / blockBytes))
  const decoder = new G72xDecoder(variant)
  for (let b0 = 0; b0 < blocks; b0 += perRead) {
    const b1 = Math.min(blocks, b0 + perRead)
    const end = Math.min(dataBytes, b1 * blockBytes)
    const bytes = await read(dataOffset + b0 * blockBytes, dataOffset + end)
    if (bytes.length < end - b0 * blockBytes) throw new Error(`audio: read ${bytes.length} bytes of G.72x block ${b0}: the file changed or is shorter than listed`)
    yield [decoder.decode(bytes, b1 - b0)]
  }
}

/**
 * PAF 24-bit blocks (`Paf24Decoder`, whose block buffer completes a last block cut short) `chunkBytes` of input at a
 * time: the frames of paf24.ts's `decodePaf24`.
 */
async function* paf24Pieces(read: RangeReader, coded: Extract<CodedLayout, { kind: 'paf24' }>, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const { channels, dataOffset, dataBytes, frames } = coded
  const blockBytes = PAF24_BLOCK_BYTES * channels
  const blocks = Math.ceil(frames / PAF24_BLOCK_SAMPLES)
  const perRead = Math.max(1, Math.floor(chunkBytes / blockBytes))
  const decoder = new Paf24Decoder(channels, coded.littleEndian)
  for (let b0 = 0; b0 < blocks; b0 += perRead) {
    const b1 = Math.min(blocks, b0 + perRead)
    const end = Math.min(dataBytes, b1 * blockBytes)
    const bytes = await read(dataOffset + b0 * blockBytes, dataOffset + end)
    if (bytes.length < end - b0 * blockBytes) throw new Error(`audio: read ${bytes.length} bytes of PAF 24-bit block ${b0}: the file changed or is shorter than listed`)
    yield decoder.decode(bytes, Math.min(frames, b1 * PAF24_BLOCK_SAMPLES) - b0 * PAF24_BLOCK_SAMPLES)
  }
}

/** XI delta PCM (`XiDpcmDecoder`, one register through the stream) `chunkBytes` of input at a time. */
async function* xiPieces(read: RangeReader, coded: Extract<CodedLayout, { kind: 'xi' }>, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const { dataOffset, frames, bits } = coded
  const width = bits / 8
  const perRead = Math.max(1, Math.floor(chunkBytes / width))
  const decoder = new XiDpcmDecoder(bits)
  for (let f0 = 0; f0 < frames; f0 += perRead) {
    const n = Math.min(perRead, frames - f0)
    const bytes = await read(dataOffset + f0 * width, dataOffset + (f0 + n) * width)
    if (bytes.length < n * width) throw new Error(`audio: read ${bytes.length} bytes of XI samples from frame ${f0}: the file changed or is shorter than listed`)
    yield [decoder.decode(bytes, n)]
  }
}

/**
 * GSM 06.10 blocks (`GsmBlockDecoder`) `chunkBytes` of input at a time: frames `[0, frames)` of the data at
 * `dataOffset`, a last block cut short read on to the end of the file (as `decodeGsm610` reads it).
 */
async function* gsmPieces(read: RangeReader, size: number, dataOffset: number, wav49: boolean, frames: number, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const d = new GsmBlockDecoder(wav49)
  const { blockBytes, blockSamples } = d
  const perRead = Math.max(1, Math.floor(chunkBytes / blockBytes))
  for (let b0 = 0; b0 * blockSamples < frames; b0 += perRead) {
    const from = dataOffset + b0 * blockBytes
    const to = Math.min(size, dataOffset + (b0 + perRead) * blockBytes)
    const bytes = await read(from, to)
    if (bytes.length < to - from) throw new Error(`audio: read ${bytes.length} bytes of GSM 6.10 block ${b0}: the file changed or is shorter than listed`)
    const out = new Float32Array(Math.min(frames, (b0 + perRead) * blockSamples) - b0 * blockSamples)
    d.decode(bytes, out, 0, out.length)
    yield [out]
  }
}

/**
 * ADPCM blocks (WAV's IMA / Microsoft, AIFC's `ima4` packet groups) `chunkBytes` of input at a time: frames
 * `[0, frames)` of `decodeAdpcm`'s decode of the whole data. Each read starts one block early: a last block cut
 * short is completed from the previous block's bytes, as libsndfile's reused buffer completes it (adpcm.ts).
 * @param layout where the data is in the file (`dataOffset`, `dataBytes`) and how it is cut
 */
export async function* adpcmPieces(read: RangeReader, layout: AdpcmLayout, frames: number, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const { blockAlign, samplesPerBlock, dataOffset, dataBytes } = layout
  const blocks = Math.ceil(frames / samplesPerBlock)
  const perRead = Math.max(1, Math.floor(chunkBytes / blockAlign))
  for (let b0 = 0; b0 < blocks; b0 += perRead) {
    const b1 = Math.min(blocks, b0 + perRead)
    const from = Math.max(0, b0 - 1)
    const end = Math.min(dataBytes, b1 * blockAlign)
    const bytes = await read(dataOffset + from * blockAlign, dataOffset + end)
    if (bytes.length < end - from * blockAlign) throw new Error(`audio: read ${bytes.length} bytes of ADPCM block ${from}: the file changed or is shorter than listed`)
    // a sub-stream from block `from`: its blocks, and (ima4) its packet count, are the whole stream's from there
    const out = decodeAdpcm(bytes, { ...layout, dataOffset: 0, dataBytes: bytes.length }, Math.min(frames, b1 * samplesPerBlock) - from * samplesPerBlock)
    yield out.map((c) => c.subarray((b0 - from) * samplesPerBlock))
  }
}

/**
 * DWVW (`DwvwDecoder`), `chunkBytes` of input at a time: up to COMM's frames, as coded.ts's `decodeCoded` (whole
 * frames only, values / 2^(bits−1)).
 */
async function* dwvwPieces(read: RangeReader, size: number, coded: Extract<CodedLayout, { kind: 'dwvw' }>, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const { channels, bits, dataOffset } = coded
  const limit = coded.frames * channels
  const d = new DwvwDecoder(bits, size - dataOffset)
  const scale = 1 / 2 ** (bits - 1)
  const step = Math.max(4096, chunkBytes)
  /** Samples of a frame not yet complete. */
  let pending = new Int32Array(0)
  for (let pos = dataOffset; !d.done && d.decoded < limit;) {
    if (pos < size) {
      const next = await read(pos, Math.min(size, pos + step))
      if (next.length === 0) throw new Error(`audio: DWVW read at byte ${pos} came back empty: the file changed or is shorter than listed`)
      pos += next.length
      d.push(next)
    }
    const got = d.decode(limit - d.decoded)
    let all = got
    if (pending.length) {
      all = new Int32Array(pending.length + got.length)
      all.set(pending)
      all.set(got, pending.length)
    }
    const n = Math.floor(all.length / channels)
    pending = all.slice(n * channels)
    if (n === 0) continue
    const out = Array.from({ length: channels }, () => new Float32Array(n))
    for (let c = 0; c < channels; c++) {
      const ch = out[c]
      for (let i = 0, at = c; i < n; i++, at += channels) ch[i] = all[at] * scale
    }
    yield out
  }
}

/**
 * ALAC packets (`AlacDecoder`, one through the stream), about `chunkBytes` of them per read; stops at the first
 * packet that runs past the data, as coded.ts's `decodeAlac` (libsndfile's read comes up short there).
 */
async function* alacPieces(read: RangeReader, dataOffset: number, dataBytes: number, sizes: readonly number[], config: AlacConfig, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const { channels, frameLength } = config
  const d = new AlacDecoder(config)
  const buf = new Int32Array(frameLength * channels)
  for (let k = 0, at = 0; k < sizes.length;) {
    let k1 = k
    let end = at
    while (k1 < sizes.length && end + sizes[k1] <= dataBytes && (k1 === k || end + sizes[k1] - at <= chunkBytes)) end += sizes[k1++]
    if (k1 === k) return
    const bytes = await read(dataOffset + at, dataOffset + end)
    if (bytes.length < end - at) throw new Error(`audio: read ${bytes.length} bytes of ALAC packets ${k}–${k1 - 1}: the file changed or is shorter than listed`)
    const decoded: Int32Array[] = []
    let frames = 0
    for (let p = k, off = 0; p < k1; off += sizes[p++]) {
      const n = d.packet(bytes.subarray(off, off + sizes[p]), buf)
      decoded.push(buf.slice(0, n * channels))
      frames += n
    }
    const out = Array.from({ length: channels }, () => new Float32Array(frames))
    let f = 0
    for (const p of decoded) {
      const n = p.length / channels
      for (let i = 0; i < n; i++) for (let c = 0; c < channels; c++) out[c][f + i] = p[i * channels + c] / 2147483648
      f += n
    }
    if (frames > 0) yield out
    at = end
    k = k1
  }
}
