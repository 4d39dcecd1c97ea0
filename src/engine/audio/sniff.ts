/**
 * Audio sniffing: what an encoded audio file claims to be, read from its magic bytes and header only. This module
 * only dispatches on the magic bytes; each container's header is read by its own module (wav.ts, flac.ts, ogg.ts,
 * mp3.ts, pcm-containers.ts for AIFF, CAF, Wave64 and NIST SPHERE, au.ts for Sun/NeXT AU, rare-containers.ts, sds.ts and xi.ts for libsndfile's rarer ones).
 *
 * Never throws and never allocates from declared sizes; cost is O(header) (plus, for Ogg, a backward scan of at most
 * the last 64 KiB to find the last page's granule position). Everything odd goes into `problems`.
 */
import { ascii, hex } from './bytes.ts'
import { sniffFlac } from './flac.ts'
import { sniffMp3 } from './mp3.ts'
import { sniffOgg } from './ogg.ts'
import { pcmContainerOf, readPcmContainer } from './pcm-containers.ts'
import { blankSniff, checkSane, withProblem, type AudioSniff } from './sniff-result.ts'
import { sniffWavLayout } from './wav.ts'

export type { AudioCodec, AudioSniff } from './sniff-result.ts'

/**
 * Identifies an encoded audio file from its magic bytes and reads its header.
 *
 * @param bytes the whole encoded file (only the header and, for Ogg, the last page are read)
 * @returns what the header declares; never throws (garbage gives `container: 'unknown'`)
 */
export function sniffAudio(bytes: Uint8Array): AudioSniff {
  try {
    return sniffByMagic(bytes)
  } catch (e) {
    return withProblem(blankSniff('unknown'), `sniff failed: ${(e as Error).message}`)
  }
}

function sniffByMagic(b: Uint8Array): AudioSniff {
  if (b.length === 0) return withProblem(blankSniff('unknown'), 'empty input (0 bytes)')
  const magic = ascii(b, 0, 4)
  if (magic === 'RIFF' || magic === 'RIFX' || magic === 'RF64') return sniffWavLayout(b).sniff
  if (magic === 'fLaC') return checkSane(sniffFlac(b))
  if (magic === 'OggS') return checkSane(sniffOgg(b))
  if (ascii(b, 0, 3) === 'ID3') {
    if (b.length < 10) return withProblem(blankSniff('mp3', 'mp3'), 'truncated header: ID3 tag header needs 10 bytes')
    const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f)
    const skip = 10 + size + (b[5] & 0x10 ? 10 : 0)
    if (skip >= b.length) return withProblem(blankSniff('mp3', 'mp3'), `truncated header: ID3 tag of ${skip} bytes but file has ${b.length}`)
    // an ID3 tag may precede FLAC too (libsndfile accepts it)
    if (ascii(b, skip, 4) === 'fLaC') return checkSane(sniffFlac(b.subarray(skip)))
    return checkSane(sniffMp3(b, skip))
  }
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return checkSane(sniffMp3(b, 0))
  const pcm = pcmContainerOf(b)
  if (pcm) return readPcmContainer(b, pcm).sniff
  if (ascii(b, 4, 4) === 'ftyp') return withProblem(blankSniff('unknown'), 'an MP4/M4A file (AAC, ALAC): libsndfile, which the reference decodes with, does not read MP4')
  return withProblem(blankSniff('unknown'), `unknown magic bytes 0x${hex(b, 0, Math.min(4, b.length))}`)
}
