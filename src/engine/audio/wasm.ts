/**
 * The WASM decoder path (Node, and browsers without a usable WebCodecs decoder): `@wasm-audio-decoders/flac`,
 * `@wasm-audio-decoders/ogg-vorbis`, `opus-decoder` (libopus, fed packets by our Ogg demuxer), `mpg123-decoder`. Input
 * is fed in pieces so that decoding stops as soon as the output passes `maxSamples`.
 */
import { FLACDecoder } from '@wasm-audio-decoders/flac'
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis'
import { OpusDecoder } from 'opus-decoder'
import { MPEGDecoder } from 'mpg123-decoder'
import { readOggPackets } from './ogg.ts'
import type { AudioSniff } from './sniff-result.ts'

/** Planar output of one decoder before trimming, at `sampleRate`. */
export interface RawDecode {
  sampleRate: number
  channels: Float32Array[]
  /** `wasm:<codec>`, `webcodecs:<codec>`, `js:flac` */
  decoder: string
  warnings: string[]
  /** Decoder errors that libsndfile would stop at (libFLAC's error callback ends its read): training fails. */
  damage: string[]
}

interface Piece { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number; errors: { message: string }[] }

/** Collects decoded pieces, enforcing the sample cap. */
class Collector {
  pieces: Float32Array[][] = []
  frames = 0
  rate = 0
  errors: string[] = []
  constructor(private readonly channels: number, private readonly maxSamples: number) {}
  add(p: Piece): void {
    for (const e of p.errors ?? []) if (this.errors.length < 5) this.errors.push(e.message)
    if (p.samplesDecoded === 0) return
    this.rate = p.sampleRate
    this.pieces.push(p.channelData.slice(0, this.channels).map((c) => c.slice(0, p.samplesDecoded)))
    this.frames += p.samplesDecoded
    if (this.frames * this.channels > this.maxSamples) {
      throw new Error(`decoded more than the limit of ${this.maxSamples} samples (${this.frames} frames × ${this.channels} channels so far)`)
    }
  }
  planar(): Float32Array[] {
    return Array.from({ length: this.channels }, (_, c) => {
      const out = new Float32Array(this.frames)
      let at = 0
      for (const p of this.pieces) {
        const src = p[c] ?? p[0]
        out.set(src, at)
        at += src.length
      }
      return out
    })
  }
}

const CHUNK = 16384

/**
 * Runs a decoder call with `console.error` muted: the WASM decoders print every stream error there (one line per
 * damaged frame), while they also return the same errors, which become this row's warnings or error. Only the
 * synchronous part of the call is muted (the decoders' work is synchronous).
 */
function quietly<T>(call: () => T): T {
  const saved = console.error
  console.error = () => {}
  try {
    return call()
  } finally {
    console.error = saved
  }
}

/** OpusHead (RFC 7845 §5.1): channels, pre-skip at 48 kHz, and for mapping family ≥ 1 the stream layout. */
function parseOpusHead(p: Uint8Array): { channels: number; preSkip: number; mapping: { streamCount?: number; coupledStreamCount?: number; channelMappingTable?: number[] } } {
  if (p.length < 19 || String.fromCharCode(...p.subarray(0, 8)) !== 'OpusHead') throw new Error(`first Ogg packet is not an OpusHead (${p.length} bytes)`)
  const channels = p[9]
  if (channels === 0) throw new Error('OpusHead declares 0 channels')
  const preSkip = p[10] | (p[11] << 8)
  const family = p[18]
  if (family === 0) return { channels, preSkip, mapping: {} }
  if (p.length < 21 + channels) throw new Error(`OpusHead mapping family ${family}: ${p.length} bytes, needs ${21 + channels}`)
  return { channels, preSkip, mapping: { streamCount: p[19], coupledStreamCount: p[20], channelMappingTable: [...p.subarray(21, 21 + channels)] } }
}

/**
 * Decodes a FLAC, Ogg Vorbis, Ogg Opus or MP3 file with the WASM decoders.
 *
 * @param sniff the file's sniff (container, codec, channels, Opus decode rate)
 * @param flacFrames native FLAC: the frames from `splitFlacFrames` (its warnings are the caller's)
 * @throws Error with a plain description of what failed (the caller adds id and container)
 */
export async function decodeWasm(bytes: Uint8Array, sniff: AudioSniff, maxSamples: number, flacFrames?: Uint8Array[]): Promise<RawDecode> {
  const channels = sniff.channels ?? 1
  const col = new Collector(channels, maxSamples)
  const warnings: string[] = []
  const codec = sniff.codec
  if (codec === 'flac') {
    let frames: Uint8Array[]
    if (sniff.container === 'ogg') {
      const ogg = readOggPackets(bytes)
      warnings.push(...ogg.warnings)
      // packet 0: 0x7F FLAC mapping header (with STREAMINFO); then the other metadata blocks; then audio frames
      const headers = 1 + ((ogg.packets[0].data[7] << 8) | ogg.packets[0].data[8])
      frames = ogg.packets.slice(headers).map((p) => p.data)
    } else {
      if (!flacFrames) throw new Error('native FLAC needs its frames split first (splitFlacFrames)')
      frames = flacFrames
    }
    const format = `${sniff.sampleRate}/${sniff.channels}/${sniff.bitsPerSample}`
    const d = await takeFlacDecoder(format)
    let healthy = false
    try {
      let bitDepth = sniff.bitsPerSample ?? 16
      for (let i = 0; i < frames.length; i += 64) {
        const piece = await quietly(() => d.decodeFrames(frames.slice(i, i + 64)))
        if (piece.bitDepth) bitDepth = piece.bitDepth
        col.add(piece)
      }
      // the WASM decoder scales by 1/(2^(bits−1) − 1); libsndfile (and WebCodecs) by 1/2^(bits−1): undo exactly
      const planar = col.planar()
      // only 8/16/24-bit streams come here (needsOwnFlacDecoder sends the others to flac-decoder.ts)
      if (bitDepth !== 8 && bitDepth !== 16 && bitDepth !== 24) throw new Error(`the WASM FLAC decoder cannot scale ${bitDepth}-bit samples`)
      rescaleFlac(planar, bitDepth)
      healthy = col.errors.length === 0 && warnings.length === 0
      // an error libFLAC reports (a frame it cannot decode) is one libsndfile stops at
      return done(planar, col, 'wasm:flac', warnings, true)
    } finally { giveBackFlacDecoder(format, d, healthy) }
  }
  if (codec === 'vorbis') {
    const d = new OggVorbisDecoder()
    try {
      await d.ready
      for (let i = 0; i < bytes.length; i += CHUNK) col.add(await quietly(() => d.decode(bytes.subarray(i, i + CHUNK))))
      col.add(await quietly(() => d.flush()))
      return done(col.planar(), col, 'wasm:vorbis', warnings)
    } finally { d.free() }
  }
  if (codec === 'opus') {
    // our Ogg demuxer feeds the packets to libopus (opus-decoder) at the input rate, as libsndfile decodes: the same
    // samples as ogg-opus-decoder (tested), without its JS Ogg parser (~10% of the time), and a cut or damaged page
    // is dropped as libogg drops it instead of being decoded from empty or damaged slices
    const rate = sniff.sampleRate ?? 48000
    const ogg = readOggPackets(bytes)
    warnings.push(...ogg.warnings)
    if (ogg.packets.length < 2) throw new Error(`Ogg Opus stream has ${ogg.packets.length} packets, needs OpusHead and OpusTags`)
    const head = parseOpusHead(ogg.packets[0].data)
    const d = new OpusDecoder({ ...head.mapping, channels: head.channels, preSkip: Math.round((head.preSkip / 48000) * rate), sampleRate: rate } as ConstructorParameters<typeof OpusDecoder>[0])
    try {
      await d.ready
      const packets = ogg.packets.slice(2).map((p) => p.data)
      for (let i = 0; i < packets.length; i += 256) col.add(quietly(() => d.decodeFrames(packets.slice(i, i + 256))) as Piece)
      return done(col.planar(), col, 'wasm:opus', warnings)
    } finally { d.free() }
  }
  if (codec === 'mp3') {
    // mpg123 always outputs two channels; gapless mode removes the LAME encoder delay and padding
    const d = new MPEGDecoder({ enableGapless: true })
    try {
      await d.ready
      for (let i = 0; i < bytes.length; i += CHUNK) col.add(quietly(() => d.decode(bytes.subarray(i, i + CHUNK))))
      return done(col.planar(), col, 'wasm:mp3', warnings)
    } finally { d.free() }
  }
  throw new Error(`no WASM decoder for codec ${codec}`)
}

/**
 * Idle FLAC decoders kept per thread, per stream format (rate, channels, bits), up to `IDLE_FLAC_PER_FORMAT` each
 * (files decoding at once each hold one). Creating one instantiates its WASM module (its `reset()` does too), about
 * as long as decoding a 3 s clip. Frame headers may defer rate and bits to STREAMINFO, so a decoder is only reused
 * for clips of the same format; one that reported an error is freed, never reused. Tests compare reused and fresh
 * decoders sample for sample.
 */
const idleFlac = new Map<string, FLACDecoder[]>()
const IDLE_FLAC_PER_FORMAT = 4
const IDLE_FLAC_FORMATS = 4

async function takeFlacDecoder(format: string): Promise<FLACDecoder> {
  const idle = idleFlac.get(format)?.pop()
  if (idle) return idle
  const d = new FLACDecoder()
  await d.ready
  return d
}

function giveBackFlacDecoder(format: string, d: FLACDecoder, healthy: boolean): void {
  let idle = idleFlac.get(format)
  if (!idle && healthy && idleFlac.size < IDLE_FLAC_FORMATS) idleFlac.set(format, (idle = []))
  if (healthy && idle && idle.length < IDLE_FLAC_PER_FORMAT) idle.push(d)
  else d.free()
}

/**
 * The decode's result; the decoder's own errors become warnings, or, where `errorsAreDamage` (libFLAC: libsndfile's
 * error callback ends its read), damage that fails the row for training.
 */
function done(channels: Float32Array[], col: Collector, decoder: string, warnings: string[], errorsAreDamage = false): RawDecode {
  const errors = col.errors.length ? [`${decoder}: ${col.errors.join('; ')}`] : []
  if (col.frames === 0) throw new Error(`${decoder} decoded no samples${col.errors.length ? ` (${col.errors.join('; ')})` : ''}`)
  return { sampleRate: col.rate, channels, decoder, warnings: errorsAreDamage ? warnings : [...warnings, ...errors], damage: errorsAreDamage ? errors : [] }
}

/** Maps x = n/(2^(b−1) − 1) back to n/2^(b−1) exactly (n is recovered by rounding; float32 keeps b ≤ 24 exact). */
function rescaleFlac(channels: Float32Array[], bits: number): void {
  const up = 2 ** (bits - 1) - 1
  const down = 2 ** (bits - 1)
  // adding and subtracting 1.5·2^52 rounds a double to the nearest integer (the products are within 1e-4 of one)
  const magic = 6755399441055744
  for (const ch of channels) for (let i = 0; i < ch.length; i++) ch[i] = ((ch[i] * up + magic) - magic) / down
}

/**
 * The planar output of the Ogg Vorbis or MP3 WASM decoder on a file read by ranges, `chunkBytes` of input at a
 * time: the same decoder, fed the same bytes, as `decodeWasm`, so the same samples (before `decodeAudio`'s
 * trimming), without holding the file or its samples. What streams a long compressed file through the dataprep
 * (src/engine/audio/streamed-decode.ts).
 * @param read reads bytes `[start, end)` of the file
 * @param size the file's size, bytes
 * @param channels the channels to keep (the sniffed count: mpg123 always gives two)
 * @yields `[channels][n]` float32 pieces, in order (never empty)
 * @throws Error `audio: ...` when the codec is not one of the two
 */
export async function* wasmPieces(codec: 'vorbis' | 'mp3', read: (start: number, end: number) => Promise<Uint8Array>, size: number, channels: number, chunkBytes: number): AsyncGenerator<Float32Array[]> {
  const d = codec === 'vorbis' ? new OggVorbisDecoder() : new MPEGDecoder({ enableGapless: true })
  const keep = (p: Piece) => p.channelData.slice(0, channels).map((c) => c.slice(0, p.samplesDecoded))
  try {
    await d.ready
    // the decoders take any piece of the stream (the whole-file path feeds CHUNK bytes at a time)
    const step = Math.max(CHUNK, Math.floor(chunkBytes / CHUNK) * CHUNK)
    for (let at = 0; at < size; at += step) {
      const bytes = await read(at, Math.min(size, at + step))
      for (let i = 0; i < bytes.length; i += CHUNK) {
        const p = await quietly(() => d.decode(bytes.subarray(i, i + CHUNK))) as Piece
        if (p.samplesDecoded) yield keep(p)
      }
    }
    if (d instanceof OggVorbisDecoder) {
      const p = await quietly(() => d.flush())
      if (p.samplesDecoded) yield keep(p)
    }
  } finally { d.free() }
}

/**
 * An Ogg Opus stream's samples from its packets read a window at a time (streamed-decode.ts), decoded by libopus as
 * `decodeWasm` decodes the whole file: at `rate`, OpusHead's pre-skip applied, 256 packets per call.
 * @param packets the stream's packets in order, in batches (OpusHead and OpusTags first)
 * @yields `[channels][n]` float32 pieces
 */
export async function* opusPieces(packets: AsyncIterable<Uint8Array[]>, rate: number): AsyncGenerator<Float32Array[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let d: OpusDecoder<any> | null = null
  let channels = 0
  let headers = 0
  let queue: Uint8Array[] = []
  const flush = async function* (all: boolean): AsyncGenerator<Float32Array[]> {
    while (d && (queue.length >= 256 || (all && queue.length))) {
      const p = quietly(() => d!.decodeFrames(queue.slice(0, 256))) as Piece
      queue = queue.slice(256)
      if (p.samplesDecoded) yield p.channelData.slice(0, channels).map((c) => c.slice(0, p.samplesDecoded))
    }
  }
  try {
    for await (const batch of packets) {
      for (const packet of batch) {
        if (headers === 0) {
          const head = parseOpusHead(packet)
          channels = head.channels
          const opus = new OpusDecoder({ ...head.mapping, channels: head.channels, preSkip: Math.round((head.preSkip / 48000) * rate), sampleRate: rate } as ConstructorParameters<typeof OpusDecoder>[0])
          d = opus
          await opus.ready
        } else if (headers > 1) queue.push(packet)
        headers = Math.min(headers + 1, 2)
      }
      yield* flush(false)
    }
    yield* flush(true)
  } finally { d?.free() }
}
