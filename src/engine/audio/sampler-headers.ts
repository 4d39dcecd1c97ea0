/**
 * The headers of libsndfile's two sampler formats whose samples are coded: MIDI Sample Dump Standard (`sds.c`; the
 * packets and their reader's quirks: sds.ts) and FastTracker 2 Extended Instrument (`xi.c`; the delta PCM: xi.ts).
 * Each gives the sniff and the coded layout coded.ts decodes, or the reason libsndfile refuses the file.
 */
import { ascii, u16le } from './bytes.ts'
import type { CodedLayout } from './coded.ts'
import { SDS_BLOCK_BYTES, SDS_HEADER_BYTES, sdsRead, sevenBits3 } from './sds.ts'
import { blankSniff, checkSane, withProblem, type AudioSniff } from './sniff-result.ts'

/** An SDS file's sniff and coded layout (coded.ts `sds`), or the reason libsndfile refuses it in `sniff.problems`. */
export function sniffSds(b: Uint8Array, fileSize = b.length): { sniff: AudioSniff; layout: null; coded?: CodedLayout } {
  const s = blankSniff('sds')
  if (b.length < SDS_HEADER_BYTES) return { sniff: withProblem(s, `truncated header: ${b.length} bytes, the SDS dump header needs ${SDS_HEADER_BYTES}`), layout: null }
  const bits = b[6]
  const period = sevenBits3(b, 7)
  const frames = sevenBits3(b, 10)
  s.codec = 'pcm'
  s.channels = 1
  s.sampleRate = period > 0 ? Math.trunc(1_000_000_000 / period) : 16000
  s.declaredFramesRate = s.sampleRate
  s.bitsPerSample = Math.ceil(bits / 8) * 8
  s.declaredFrames = frames
  checkSane(s)
  if (bits < 8 || bits > 28) return { sniff: withProblem(s, `SDS of ${bits} bits (libsndfile reads 8–28)`), layout: null }
  const read = sdsRead(frames, bits)
  const dataBytes = Math.max(0, fileSize - SDS_HEADER_BYTES)
  // libsndfile reads a packet cut short over the previous one's bytes, and says nothing
  if (read.packets * SDS_BLOCK_BYTES > dataBytes) s.problems.push(`truncated data: the ${read.packets} packets libsndfile reads need ${read.packets * SDS_BLOCK_BYTES} bytes, file has ${dataBytes}`)
  if (read.frames < frames) s.untrainable = `libsndfile's SDS reader returns ${read.frames} of the ${frames} frames its header declares (it stops a packet early), so training's read comes up short`
  return { sniff: s, layout: null, coded: { kind: 'sds', bits, channels: 1, dataOffset: SDS_HEADER_BYTES, dataBytes, frames: read.frames, declared: frames } }
}

/** Bytes of the instrument header before the sample headers. */
const XI_HEADER_BYTES = 298
/** Bytes of each sample header. */
const XI_SAMPLE_HEADER_BYTES = 40
/** Most samples an instrument lists (`MAX_XI_SAMPLES`). */
const XI_MAX_SAMPLES = 16

/** An XI file's sniff and coded layout (coded.ts `xi`), or the reason libsndfile refuses it in `sniff.problems`. */
export function sniffXi(b: Uint8Array, fileSize = b.length): { sniff: AudioSniff; layout: null; coded?: CodedLayout } {
  const s = blankSniff('xi')
  s.channels = 1
  s.sampleRate = 44100
  s.declaredFramesRate = 44100
  if (b.length < XI_HEADER_BYTES) return { sniff: withProblem(checkSane(s), `truncated header: ${b.length} bytes, the XI header needs ${XI_HEADER_BYTES}`), layout: null }
  if (ascii(b, 0, 20) !== 'Extended Instrument:' || b[43] !== 0x1a) return { sniff: withProblem(checkSane(s), 'no "Extended Instrument:" header ending in 0x1A at byte 43'), layout: null }
  const count = (u16le(b, 296) << 16) >> 16
  if (count > XI_MAX_SAMPLES) return { sniff: withProblem(checkSane(s), `XI of ${count} samples (libsndfile reads up to ${XI_MAX_SAMPLES})`), layout: null }
  if (count < 1) return { sniff: withProblem(checkSane(s), `XI of ${count} samples: no sample to read (libsndfile reads none either)`), layout: null }
  const dataOffset = XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * count
  if (b.length < dataOffset) return { sniff: withProblem(checkSane(s), `truncated header: ${b.length} bytes, the ${count} sample headers end at ${dataOffset}`), layout: null }
  const sizes = Array.from({ length: count }, (_, k) => u16le(b, XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * k) + u16le(b, XI_HEADER_BYTES + XI_SAMPLE_HEADER_BYTES * k + 2) * 65536)
  let kept = count
  while (kept > 1 && sizes[kept - 1] === 0) kept--
  if (kept > 2) return { sniff: withProblem(checkSane(s), `XI of ${kept} samples (libsndfile reads one, or two)`), layout: null }
  const bits = b[XI_HEADER_BYTES + 14] & 16 ? 16 : 8
  s.codec = 'dpcm'
  s.bitsPerSample = bits
  const dataBytes = Math.max(0, fileSize - dataOffset)
  s.declaredFrames = Math.floor(dataBytes / (bits / 8))
  if (sizes[0] > dataBytes) s.problems.push(`truncated data: the sample header declares ${sizes[0]} bytes, file has ${dataBytes}`)
  checkSane(s)
  return { sniff: s, layout: null, coded: { kind: 'xi', bits, channels: 1, dataOffset, dataBytes, frames: s.declaredFrames } }
}
