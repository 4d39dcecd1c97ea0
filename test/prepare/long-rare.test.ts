/**
 * Long files of libsndfile's rarer coded formats and of HTK (coded-stream.ts, pcm-stream.ts): G.721 and G.723 (24
 * and 40 kbit/s) ADPCM in Sun/NeXT AU, Ensoniq PAF 24-bit, FastTracker 2 XI delta PCM and HTK, written here by
 * python3-soundfile (libsndfile's own writers) over a small whole-file sample limit (`createClipProcessor`'s
 * `maxSamples`, 2^18), the path of files over 2^26 samples: refused whole, then converted a stretch at a time by the
 * dataprep, whole and as a segment, to the bytes of the whole-file path at the default limit, and within 1 LSB of
 * libsndfile's decode (`sf.read`) mixed, resampled by torchaudio and written as PCM_16. The files over 1 MiB (the
 * head the streamed path reads first) need the file's size to be read: HTK is recognised by it, and the coded data
 * of AU, PAF and XI runs to the file's end.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PCM_HEAD_BYTES } from '../../src/engine/audio/pcm-stream.ts'
import { expectLibsndfileTorchaudio, expectStreamedOverLimit, writeLongFiles, type LongFile } from './long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-long-rare-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('rare coded files and HTK over the sample limit', () => {
  const cap = 2 ** 18
  const files: LongFile[] = [
    ['long-g721.au', 'AU', 'G721_32', 48000, 1, 45],
    ['long-g723-24.au', 'AU', 'G723_24', 8000, 1, 40],
    ['long-g723-40.au', 'AU', 'G723_40', 8000, 1, 40],
    ['long-paf24.paf', 'PAF', 'PCM_24', 48000, 2, 12],
    ['long-dpcm16.xi', 'XI', 'DPCM_16', 44100, 1, 12],
    ['long.htk', 'HTK', 'PCM_16', 16000, 1, 40],
  ]
  const longDir = join(dir, 'long')
  mkdirSync(longDir)

  it('is refused whole, then converted whole and as a segment by the dataprep, as libsndfile reads it', async () => {
    const declared = writeLongFiles(longDir, files, 5) // libsndfile's frame counts
    for (const [name, , , , ch] of files) expect(declared[name] * ch, name).toBeGreaterThan(cap)
    // the head the streamed path reads first is not the whole file for these
    for (const name of ['long-g721.au', 'long-paf24.paf', 'long-dpcm16.xi', 'long.htk']) expect(statSync(join(longDir, name)).size, name).toBeGreaterThan(PCM_HEAD_BYTES)
    const segment = { offset: 3.37, duration: 5.5 }
    await expectStreamedOverLimit(longDir, dir, files.map(([n]) => n), declared, cap, segment)
    expectLibsndfileTorchaudio(dir, Object.fromEntries(files.map(([n]) => [n, join(longDir, n)])), declared, segment)
  }, 120_000)
})
