/**
 * Compressed files read a stretch at a time: native FLAC (frames found and decoded by flac-decoder.ts a window of
 * input at a time), Ogg Vorbis and MP3 (also MP3 in WAV, format tag 0x55) (the WASM decoders of wasm.ts fed ranged
 * reads), Ogg Opus (libopus fed the packets of Ogg pages read a window at a time) and FLAC in Ogg (its packets decoded
 * by flac-decoder.ts), G.721 WAV (g72x.ts), IMA / Microsoft ADPCM WAV
 * (whole blocks, adpcm.ts), and the coded streams of coded-stream.ts (GSM 6.10 in WAV, Wave64 and AIFC, AIFC `ima4`
 * and DWVW, ALAC in CAF, G.721 / G.723 in AU, 24-bit PAF, FastTracker 2 XI). Each gives the samples `decodeAudio` gives for the file (libsndfile's, trimmed to the
 * length it reads: FLAC's STREAMINFO total, Vorbis's last granule), without holding the file or its samples: what
 * lets the dataprep convert a compressed file longer than `decodeAudio`'s sample limit (docs/interpretations.md
 * "Audio"). Raw-sample files stream through pcm-stream.ts instead.
 */
import { adpcmBlocks, type AdpcmKind } from './adpcm.ts'
import { adpcmPieces, codedContainerStream, g72xPieces, gsmWavStream } from './coded-stream.ts'
import { pcmContainerOf } from './pcm-containers.ts'
import { ascii } from './bytes.ts'
import { g72xFrames } from './g72x.ts'
import { flacStart, mp3WavFrames } from './decode.ts'
import { crc16, decodeFlacFrames, flacFrameEnd, frameFormat, parseStreamInfo, readFrameHeader, type FlacStreamInfo } from './flac-decoder.ts'
import type { RangeReader } from './pcm-stream.ts'
import { sniffAudio } from './sniff.ts'
import { blockingProblems } from './sniff-result.ts'
import { opusPieces, wasmPieces } from './wasm.ts'
import { oggReadState, readOggPages } from './ogg.ts'
import { sniffWavLayout } from './wav.ts'
import { concat, countFrames, upTo, type StreamedDecode } from './stream-pieces.ts'

export type { StreamedDecode } from './stream-pieces.ts'

/** Sniff problems that `decodeAudio` reads through (as decode.ts's `tolerated`). */
const tolerated = /^(truncated data|valid bits|no final Ogg page|truncated stream)/

/** Bytes searched back from the end of an Ogg file for its last page (as ogg.ts's sniffer: 64 KiB + a page header). */
const OGG_TAIL_BYTES = 65536 + 27

/** Most bytes one FLAC frame may span before the file is taken as damaged (libFLAC's largest frame is ~2 MiB). */
const MAX_FLAC_FRAME_BYTES = 16 << 20

/**
 * Opens a compressed file for streamed decoding.
 * @param read the file's ranged reader
 * @param size the file's size, bytes
 * @param head the file's first bytes (up to 1 MiB, or the whole file when shorter)
 * @param chunkBytes input read per step
 * @returns null when the file is none of the formats streamed here, or its header has a problem that stops
 * `decodeAudio` (which then says why)
 */
export async function openStreamedDecode(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): Promise<StreamedDecode | null> {
  const magic = ascii(head, 0, 4)
  if (magic === 'RIFF' || magic === 'RIFX' || magic === 'RF64') {
    return mp3WavStream(read, size, head, chunkBytes) ?? g721Stream(read, size, head, chunkBytes) ?? adpcmStream(read, size, head, chunkBytes) ?? gsmWavStream(read, size, head, chunkBytes)
  }
  if (pcmContainerOf(head, size)) return codedContainerStream(read, size, head, chunkBytes)
  let probe = head
  if (magic === 'OggS' && size > head.length) {
    // the sniffer reads the first page and the last one: give it the head and the file's tail
    const tail = await read(Math.max(head.length, size - OGG_TAIL_BYTES), size)
    probe = new Uint8Array(head.length + tail.length)
    probe.set(head)
    probe.set(tail, head.length)
  }
  const sniff = sniffAudio(probe)
  if (sniff.problems.some((p) => !tolerated.test(p)) || !sniff.sampleRate || !sniff.channels || !Number.isInteger(sniff.sampleRate)) return null
  const { sampleRate, channels } = sniff
  if (sniff.container === 'flac') return flacStream(read, size, head, chunkBytes)
  if (sniff.container === 'ogg' && sniff.codec === 'vorbis') {
    const decoded = () => wasmPieces('vorbis', read, size, channels, chunkBytes)
    // libsndfile reads up to the last granule; without one (no final page) as far as the stream decodes
    const frames = sniff.declaredFrames ?? await countFrames(decoded())
    return { container: 'ogg', codec: 'vorbis', sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
  }
  if (sniff.container === 'ogg' && sniff.codec === 'opus') {
    const decoded = () => opusPieces(oggPackets(read, size, chunkBytes), sampleRate)
    // as decodeAudio: the last granule less the pre-skip, at the decoding rate; without one, as far as it decodes
    const frames = sniff.declaredFrames !== null ? Math.floor(sniff.declaredFrames * sampleRate / 48000) : await countFrames(decoded())
    return { container: 'ogg', codec: 'opus', sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
  }
  if (sniff.container === 'ogg' && sniff.codec === 'flac') {
    // decodeAudio reads every frame of FLAC in Ogg (no declared length): a first pass counts them
    const decoded = () => oggFlacPieces(oggPackets(read, size, chunkBytes))
    const frames = await countFrames(decoded())
    return { container: 'ogg', codec: 'flac', sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
  }
  if (sniff.container === 'mp3') {
    // mpg123 in gapless mode gives libsndfile's length; it is only known once decoded (a first pass counts it)
    const decoded = () => wasmPieces('mp3', read, size, channels, chunkBytes)
    const frames = await countFrames(decoded())
    return { container: 'mp3', codec: 'mp3', sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
  }
  return null
}

/**
 * The packets of an Ogg file's first logical stream, `chunkBytes` of input at a time (ogg.ts `readOggPages`: the
 * packets `readOggPackets` gives the whole file).
 * @yields the packets completed by each window, in order
 */
async function* oggPackets(read: RangeReader, size: number, chunkBytes: number): AsyncGenerator<Uint8Array[]> {
  const state = oggReadState()
  let carry = new Uint8Array(0)
  const step = Math.max(1 << 16, chunkBytes)
  for (let pos = 0; pos < size;) {
    const next = await read(pos, Math.min(size, pos + step))
    if (next.length === 0) throw new Error(`audio: Ogg read at byte ${pos} came back empty: the file changed or is shorter than listed`)
    pos += next.length
    const b = carry.length ? concat(carry, next) : next
    const used = readOggPages(b, state, pos >= size)
    carry = b.slice(used)
    if (carry.length > MAX_FLAC_FRAME_BYTES) throw new Error(`audio: no complete Ogg page in ${carry.length} bytes: damaged stream`)
    if (state.packets.length) yield state.packets.splice(0).map((p) => p.data)
  }
  if (state.serial === -1) throw new Error('audio: no Ogg page found')
}

/**
 * FLAC in Ogg: the mapping header (STREAMINFO at 17), the other metadata packets it counts, then one frame per
 * packet, decoded by flac-decoder.ts (the values of the whole-file path's decoders: integers / 2^(bits−1)).
 */
async function* oggFlacPieces(packets: AsyncIterable<Uint8Array[]>): AsyncGenerator<Float32Array[]> {
  let info: FlacStreamInfo | null = null
  let skip = 0
  for await (const batch of packets) {
    let frames = batch
    if (!info) {
      const head = batch[0]
      info = parseStreamInfo(head, 17)
      skip = 1 + ((head[7] << 8) | head[8])
    }
    if (skip) {
      const n = Math.min(skip, frames.length)
      frames = frames.slice(n)
      skip -= n
    }
    if (!frames.length) continue
    const r = decodeFlacFrames(frames, info, Infinity)
    if (r.frames > 0) yield r.channels
  }
}

/**
 * MPEG Layer III in a WAV (tag 0x55): its data chunk decoded as an MP3 file (`decodeAudio` does the same), the
 * length counted by a first pass.
 */
function mp3WavStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): Promise<StreamedDecode> | null {
  const { sniff, layout } = sniffWavLayout(head)
  if (sniff.codec !== 'mp3' || !layout || blockingProblems(sniff).length) return null
  const { dataOffset } = layout
  const dataBytes = Math.max(0, Math.min(layout.dataSize, size - dataOffset))
  if (dataBytes === 0 || dataOffset >= head.length) return null
  // the rate and channels of the MPEG frames, which mpg123 decodes at (as `decodeAudio`'s), not the fmt chunk's
  const mpeg = sniffAudio(head.subarray(dataOffset, Math.min(head.length, dataOffset + dataBytes)))
  if (mpeg.container !== 'mp3' || mpeg.problems.some((p) => !tolerated.test(p)) || !mpeg.channels || !mpeg.sampleRate) return null
  const { channels, sampleRate } = mpeg
  const decoded = () => wasmPieces('mp3', (start, end) => read(dataOffset + start, dataOffset + end), dataBytes, channels, chunkBytes)
  // libsndfile reads no further than mpg123's estimate of the length (decode.ts `mp3WavFrames`)
  const declared = mp3WavFrames(size, head.subarray(dataOffset, Math.min(head.length, dataOffset + dataBytes)))
  return countFrames(decoded()).then((n) => {
    const frames = declared === null ? n : Math.min(n, declared)
    return { container: 'wav', codec: 'mp3', sampleRate, channels, frames, pieces: () => upTo(decoded(), frames) }
  })
}

/** G.721 WAV: whole 60-byte blocks through one decoder state, with the frames `decodeWav` gives (g72x.ts). */
function g721Stream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): StreamedDecode | null {
  const { sniff, layout } = sniffWavLayout(head)
  if (sniff.codec !== 'g721' || !layout || blockingProblems(sniff).length || !sniff.sampleRate || layout.dataOffset > head.length) return null
  const { dataOffset } = layout
  const dataBytes = Math.max(0, Math.min(layout.dataSize, size - dataOffset))
  const frames = g72xFrames('g721_32', dataBytes)
  return { container: 'wav', codec: 'g721', sampleRate: sniff.sampleRate, channels: 1, frames, pieces: () => g72xPieces(read, 'g721_32', dataOffset, dataBytes, chunkBytes) }
}

/** IMA / Microsoft ADPCM WAV: whole blocks at a time, with the frames `decodeWav` gives (adpcm.ts). */
function adpcmStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): StreamedDecode | null {
  const { sniff, layout } = sniffWavLayout(head)
  if (!layout?.samplesPerBlock || blockingProblems(sniff).length || !sniff.channels || !sniff.sampleRate || layout.dataOffset > head.length) return null
  if (sniff.codec !== 'ima_adpcm' && sniff.codec !== 'ms_adpcm') return null
  const kind: AdpcmKind = sniff.codec
  const { blockAlign, samplesPerBlock, dataOffset } = layout
  const channels = sniff.channels
  const dataBytes = Math.max(0, Math.min(layout.dataSize, size - dataOffset))
  const blocks = adpcmBlocks(kind, { blockAlign, dataBytes })
  const frames = blocks * samplesPerBlock
  const adpcm = { kind, channels, blockAlign, samplesPerBlock, dataOffset, dataBytes }
  return { container: 'wav', codec: kind, sampleRate: sniff.sampleRate, channels, frames, pieces: () => adpcmPieces(read, adpcm, frames, chunkBytes) }
}

/** Native FLAC: STREAMINFO from the head, then frames found a window at a time and decoded by flac-decoder.ts. */
async function flacStream(read: RangeReader, size: number, head: Uint8Array, chunkBytes: number): Promise<StreamedDecode | null> {
  const start = flacStart(head)
  if (start + 42 > head.length || ascii(head, start, 4) !== 'fLaC' || (head[start + 4] & 0x7f) !== 0) return null
  const info = parseStreamInfo(head, start + 8)
  // the metadata blocks (a picture may reach past the head: their 4-byte headers are read where they are)
  let at = start + 4
  for (let last = false; !last;) {
    const h = at + 4 <= head.length ? head.subarray(at, at + 4) : await read(at, at + 4)
    if (h.length < 4) return null
    last = (h[0] & 0x80) !== 0
    at += 4 + ((h[1] << 16) | (h[2] << 8) | h[3])
    if (at > size) return null
  }
  const audioOffset = at
  const decoded = () => flacPieces(read, size, audioOffset, info, chunkBytes)
  // libsndfile reads no further than STREAMINFO's total; an unknown total (0): as far as the stream decodes
  const frames = info.totalSamples > 0 ? info.totalSamples : await countFrames(decoded())
  return { container: 'flac', codec: 'flac', sampleRate: info.sampleRate, channels: info.channels, frames, pieces: () => upTo(decoded(), frames) }
}

/**
 * The frames of a native FLAC stream from `audioOffset`, found as flac.ts's `splitFlacFrames` finds them (a frame
 * ends where a valid header follows and the CRC-16 up to it is 0; one whose CRC-16 fails before a header like the
 * first frame's is cut at its own end, or dropped), `chunkBytes` of input at a time: what is left of a window (a
 * frame not yet complete, and the last 32 bytes, which may hold a header cut in two) starts the next.
 */
async function* flacPieces(read: RangeReader, size: number, audioOffset: number, info: FlacStreamInfo, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  let carry = new Uint8Array(0)
  /** File offset of `carry[0]`. */
  let carryAt = audioOffset
  let pos = audioOffset
  let firstHeader: Uint8Array | null = null
  const step = Math.max(1 << 16, chunkBytes)
  while (pos < size || carry.length) {
    const next = pos < size ? await read(pos, Math.min(size, pos + step)) : new Uint8Array(0)
    if (pos < size && next.length === 0) throw new Error(`audio: FLAC read at byte ${pos} came back empty: the file changed or is shorter than listed`)
    pos += next.length
    const final = pos >= size
    const b = carry.length ? concat(carry, next) : next
    let first = 0
    if (!firstHeader) {
      while (first < b.length && !readFrameHeader(b, first)) first++
      if (first >= b.length) throw new Error(`audio: no valid FLAC frame header in the ${b.length} bytes after the metadata`)
      firstHeader = b.slice(first, first + 4)
    }
    const ref = firstHeader
    const frames: Uint8Array[] = []
    const offsets: number[] = []
    const push = (from: number, to: number) => { frames.push(b.subarray(from, to)); offsets.push(carryAt + from) }
    const limit = final ? b.length : b.length - 32
    let frameStart = first
    let crc = 0
    let summed = first
    for (let i = b.indexOf(0xff, first + 10); i !== -1 && i < limit; i = b.indexOf(0xff, i + 1)) {
      if (i - frameStart < 10 || (b[i + 1] & 0xfe) !== 0xf8 || !readFrameHeader(b, i)) continue
      crc = crc16(b, summed, i, crc)
      summed = i
      if (crc === 0) {
        // zero bytes after a frame keep its CRC-16 at 0: when the last two bytes are 0, find the frame's real end
        const end = b[i - 1] === 0 && b[i - 2] === 0 ? flacFrameEnd(b, frameStart, i, info) : i
        push(frameStart, end > 0 ? end : i)
        frameStart = i
      } else if (b[i + 1] === ref[1] && (b[i + 2] & 0x0f) === (ref[2] & 0x0f) && b[i + 3] === ref[3]) {
        const end = flacFrameEnd(b, frameStart, i, info)
        if (end > 0) push(frameStart, end)
        frameStart = i
        crc = 0
      }
    }
    if (final) {
      const end = crc16(b, summed, b.length, crc) === 0 ? b.length : flacFrameEnd(b, frameStart, b.length, info)
      if (end > 0) push(frameStart, end)
      carry = new Uint8Array(0)
    } else {
      carry = b.slice(frameStart)
      carryAt += frameStart
      if (carry.length > MAX_FLAC_FRAME_BYTES) throw new Error(`audio: no FLAC frame boundary in ${carry.length} bytes from byte ${carryAt}: damaged stream`)
    }
    for (let k = 0; k < frames.length; k++) {
      const h = readFrameHeader(frames[k], 0)!
      const f = frameFormat(h, info)
      if (h.channels !== info.channels || f.sampleRate !== info.sampleRate || f.bitsPerSample !== info.bitsPerSample) {
        throw new Error(`audio: the FLAC frame at byte ${offsets[k]} has ${h.channels} channels, ${f.sampleRate} Hz, ${f.bitsPerSample} bits; STREAMINFO declares ${info.channels}, ${info.sampleRate} Hz, ${info.bitsPerSample} bits (libFLAC refuses such a stream)`)
      }
    }
    if (frames.length) {
      const r = decodeFlacFrames(frames, info, Infinity, offsets)
      if (r.frames > 0) yield r.channels
    }
    if (final) return
  }
}
