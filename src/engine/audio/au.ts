/**
 * Sun/NeXT AU (`.snd`, big-endian; `dns.`, its little-endian variant) as libsndfile's `au.c` reads it: a 24-byte
 * header of six unsigned 32-bit words in the file's byte order (magic, data offset, data size — 0xFFFFFFFF for
 * "unknown", then to the end of the file —, encoding, sample rate, channels), the samples from the data offset.
 * Encodings read (libsndfile reads these and no others): 1 µ-law, 2/3/4/5 signed PCM of 8/16/24/32 bits, 6 float,
 * 7 double, 27 A-law (raw samples, pcm.ts), and 23 G.721 (4-bit), 25 G.723 24 kbit/s (3-bit), 26 G.723 40 kbit/s
 * (5-bit) ADPCM, mono only (g72x.ts, through coded.ts).
 *
 * The length as libsndfile computes it: a declared size that ends before the file's end cuts the data there; one of
 * 0xFFFFFFFF or one past the file's end reads to the end of the file (the latter reported as `truncated data`). For
 * the G.72x encodings libsndfile's `g72x_init` re-reads the file's length and ignores the declared size: every byte
 * after the data offset is coded data.
 */
import { ascii, u32be, u32le } from './bytes.ts'
import type { CodedLayout } from './coded.ts'
import { g72xFrames, type G72xKind } from './g72x.ts'
import type { PcmEncoding, PcmLayout } from './pcm.ts'
import { blankSniff, checkSane, withProblem, type AudioCodec, type AudioSniff } from './sniff-result.ts'

/** The AU header's size in bytes (six 32-bit words). */
export const AU_HEADER_BYTES = 24

/** Raw-sample encodings: code → [encoding, bits, codec]. */
const RAW: Record<number, [PcmEncoding, number, AudioCodec]> = {
  1: ['ulaw', 8, 'ulaw'], 2: ['int', 8, 'pcm'], 3: ['int', 16, 'pcm'], 4: ['int', 24, 'pcm'], 5: ['int', 32, 'pcm'],
  6: ['float', 32, 'float'], 7: ['float', 64, 'float'], 27: ['alaw', 8, 'alaw'],
}

/** G.72x encodings: code → [g72x.ts kind, bits per code, codec]. */
const G72X: Record<number, [G72xKind, number, AudioCodec]> = {
  23: ['g721_32', 4, 'g721'], 25: ['g723_24', 3, 'g723'], 26: ['g723_40', 5, 'g723'],
}

/** Encodings AU defines that libsndfile does not read, by code (names from `au.c`'s list). */
const UNREAD: Record<number, string> = {
  8: 'fragmented sample data', 9: 'nested', 10: 'DSP program', 11: '8-bit fixed-point', 12: '16-bit fixed-point',
  13: '24-bit fixed-point', 14: '32-bit fixed-point', 16: 'display data', 17: 'µ-law squelch', 18: '16-bit linear with emphasis',
  19: 'NeXT compressed', 20: 'compressed with emphasis', 21: 'DSP commands', 22: 'DSP commands samples', 24: 'G.722 ADPCM',
}

/** Whether `b` starts as a Sun/NeXT AU file (either byte order). */
export function isAu(b: Uint8Array): boolean {
  const magic = ascii(b, 0, 4)
  return magic === '.snd' || magic === 'dns.'
}

/**
 * An AU file's sniff and where its samples are: `layout` for raw samples (pcm.ts reads them), `coded` for G.72x
 * (coded.ts), neither when libsndfile would not open it (the reason in `sniff.problems`).
 * @param b the file, or its first bytes (a head of at least 24 bytes gives the layout; `dataBytes` then says where
 * the data ends, for `pcmFramesIn` with the whole file's size)
 * @param fileSize the whole file's bytes when `b` is only its head (G.72x data is counted to the file's end)
 */
export function sniffAu(b: Uint8Array, fileSize = b.length): { sniff: AudioSniff; layout: PcmLayout | null; coded?: CodedLayout } {
  const s = blankSniff('au')
  if (b.length < AU_HEADER_BYTES) return { sniff: withProblem(s, `truncated header: ${b.length} bytes, the AU header needs ${AU_HEADER_BYTES}`), layout: null }
  const littleEndian = ascii(b, 0, 4) === 'dns.'
  const u32 = littleEndian ? u32le : u32be
  const dataOffset = u32(b, 4)
  const size = u32(b, 8)
  const encoding = u32(b, 12)
  s.sampleRate = u32(b, 16)
  s.declaredFramesRate = s.sampleRate
  s.channels = u32(b, 20)
  if (dataOffset < AU_HEADER_BYTES) return { sniff: withProblem(checkSane(s), `data offset ${dataOffset} inside the ${AU_HEADER_BYTES}-byte AU header`), layout: null }
  const available = Math.max(0, b.length - dataOffset)
  const raw = RAW[encoding]
  const g72x = G72X[encoding]
  if (!raw && !g72x) {
    const name = UNREAD[encoding]
    return { sniff: withProblem(checkSane(s), `AU encoding ${encoding}${name ? ` (${name})` : ''}, which libsndfile does not read either`), layout: null }
  }
  if (g72x) {
    const [kind, bits, codec] = g72x
    s.codec = codec
    s.bitsPerSample = bits
    // g72x_init: the data runs to the file's end, whatever the header's size says
    const dataBytes = Math.max(0, fileSize - dataOffset)
    const frames = g72xFrames(kind, dataBytes)
    s.declaredFrames = frames
    checkSane(s)
    if (s.channels !== 1) return { sniff: withProblem(s, `${codec === 'g721' ? 'G.721' : 'G.723'} ADPCM with ${s.channels} channels (libsndfile reads mono only)`), layout: null }
    return { sniff: s, layout: null, coded: { kind: 'g72x', variant: kind, channels: 1, dataOffset, dataBytes, frames } }
  }
  const [enc, bits, codec] = raw
  s.codec = codec
  s.bitsPerSample = bits
  const blockAlign = s.channels * (bits / 8)
  const unknown = size === 0xffffffff
  if (!unknown && size > available) s.problems.push(`truncated data: header declares ${size} bytes, file has ${available}`)
  s.declaredFrames = blockAlign > 0 ? Math.floor((unknown ? available : Math.min(size, available)) / blockAlign) : 0
  checkSane(s)
  if (s.channels < 1) return { sniff: s, layout: null }
  return {
    sniff: s,
    layout: { encoding: enc, bits, littleEndian, channels: s.channels, dataOffset, blockAlign, frames: s.declaredFrames, dataBytes: unknown ? Infinity : size },
  }
}
