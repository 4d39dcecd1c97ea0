/**
 * Long compressed input files (clip.ts → audio/streamed-decode.ts, audio/coded-stream.ts): FLAC, Ogg Vorbis, MP3,
 * IMA / Microsoft ADPCM, G.721 and GSM 6.10 WAV, GSM 6.10 Wave64 and AIFC, AIFC ima4 and DWVW, ALAC in CAF, written
 * here by python3-soundfile (libsndfile's own writers), read a stretch at a time. Short files give the bytes of the
 * whole-file path whatever the stretch size, segments included; files over a small whole-file sample limit are
 * refused whole and streamed by the dataprep, as libsndfile's decode (`sf.read`) mixed, resampled by torchaudio and
 * written as PCM_16, within 1 LSB. The 2^26 limit itself, with a file over it: long-audio.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadLibFlacNode } from '../../src/engine/node/libflac-node.ts'
import { processClipNode } from '../../src/engine/node/prepare-clip-node.ts'
import { createStreamedClipConverter } from '../../src/engine/prepare/clip.ts'
import type { AudioFormat } from '../../src/engine/prepare/encode/types.ts'
import { runPython } from './python.ts'
import { expectLibsndfileTorchaudio, expectStreamedOverLimit, fileReader, ok, writeLongFiles, type LongFile } from './long-files.ts'

const dir = mkdtempSync(join(tmpdir(), 'mixscope-long-compressed-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('streamed clips of compressed files', () => {
  // container, subtype, rate, channels, seconds
  const files: [string, string, string, number, number, number][] = [
    ['s16-48k-stereo.flac', 'FLAC', 'PCM_16', 48000, 2, 6.3],
    ['s24-44k-mono.flac', 'FLAC', 'PCM_24', 44100, 1, 3.1],
    ['s8-16k-3ch.flac', 'FLAC', 'PCM_S8', 16000, 3, 2.2],
    ['vorbis-44k-stereo.ogg', 'OGG', 'VORBIS', 44100, 2, 4.2],
    ['vorbis-16k-mono.ogg', 'OGG', 'VORBIS', 16000, 1, 3.0],
    ['mp3-48k-stereo.mp3', 'MP3', 'MPEG_LAYER_III', 48000, 2, 4.1],
    ['mp3-22k-mono.mp3', 'MP3', 'MPEG_LAYER_III', 22050, 1, 3.3],
    ['ima-22k-stereo.wav', 'WAV', 'IMA_ADPCM', 22050, 2, 3.01],
    ['ima-8k-mono.wav', 'WAV', 'IMA_ADPCM', 8000, 1, 2.3],
    ['ms-44k-stereo.wav', 'WAV', 'MS_ADPCM', 44100, 2, 2.7],
    ['ms-16k-mono.wav', 'WAV', 'MS_ADPCM', 16000, 1, 1.9],
    ['g721-8k-mono.wav', 'WAV', 'G721_32', 8000, 1, 2.3], // libsndfile writes G.721 mono only
    ['g721-16k-mono.wav', 'WAV', 'G721_32', 16000, 1, 1.7],
  ]
  runPython(`
import sys, json, numpy as np, soundfile as sf
d, files = sys.argv[1], json.loads(sys.argv[2])
rng = np.random.default_rng(9)
for name, fmt, sub, rate, ch, sec in files:
    n = int(rate * sec)
    t = np.arange(n)[:, None] / rate
    x = 0.5 * np.sin(2 * np.pi * (220 + 110 * np.arange(ch)) * t) + 0.1 * rng.standard_normal((n, ch))
    sf.write(f'{d}/{name}', np.clip(x, -1, 1).astype(np.float32), rate, format=fmt, subtype=sub)
`, [dir, JSON.stringify(files)])

  const segments = [undefined, { offset: 0.25, duration: 0.5 }, { offset: 1.0, duration: null }, { offset: 0.1, duration: 100 }, { offset: 0.5, duration: 0.00001 }]

  it('writes the bytes of the whole-file path (FLAC and Vorbis out, segments too), read a stretch at a time', async () => {
    for (const [name] of files) {
      const path = join(dir, name)
      const bytes = new Uint8Array(readFileSync(path))
      for (const chunkBytes of [4093, 1 << 22]) {
        const convert = createStreamedClipConverter(loadLibFlacNode, { chunkBytes })
        for (const format of ['flac', 'ogg'] as AudioFormat[]) {
          for (const segment of format === 'ogg' ? segments.slice(0, 2) : segments) {
            const what = `${name} ${format} ${JSON.stringify(segment)} stretches of ${chunkBytes} B`
            const whole = await processClipNode({ bytes, id: name, format, ...(segment ? { segment } : {}) })
            const file = fileReader(path)
            const streamed = await convert({ read: file.read, size: file.size, id: name, format, ...(segment ? { segment } : {}) })
            if (!whole.ok) {
              expect(streamed, what).toEqual(whole)
              continue
            }
            const got = ok(streamed)
            expect(got.audioSize, what).toBe(whole.audioSize)
            expect(got.sourceFrames, what).toBe(whole.sourceFrames)
            expect(got.sourceRate, what).toBe(whole.sourceRate)
            expect(got.sourceChannels, what).toBe(whole.sourceChannels)
            expect(Buffer.from(got.audio).equals(Buffer.from(whole.audio)), what).toBe(true)
            expect(file.stats.largest, what).toBeLessThanOrEqual(Math.max(chunkBytes + 65536, 1 << 20))
          }
        }
      }
    }
  }, 240_000)
})

describe('compressed files over the sample limit', () => {
  // files over a small whole-file limit (`createClipProcessor`'s maxSamples, 2^18 samples) take the path of files
  // over 2^26 (the limit itself: long-audio.test.ts): refused whole, then converted a stretch at a time by the
  // dataprep, giving the bytes of the whole-file path at the default limit and libsndfile's decode (sf.read) mixed,
  // resampled by torchaudio and written as PCM_16, within 1 LSB. DWVW, which python-soundfile cannot seek in, is
  // compared with the whole-file path only (its samples are libsndfile's: test/audio/coded-formats.test.ts).
  const cap = 2 ** 18
  // name, format, subtype, rate, channels, seconds
  const files: LongFile[] = [
    ['long.flac', 'FLAC', 'PCM_16', 48000, 2, 12],
    ['long.mp3', 'MP3', 'MPEG_LAYER_III', 48000, 2, 12],
    ['long-8ch.ogg', 'OGG', 'VORBIS', 48000, 8, 9],
    ['long-ima.wav', 'WAV', 'IMA_ADPCM', 48000, 2, 12],
    ['long-gsm.wav', 'WAV', 'GSM610', 8000, 1, 40],
    ['long-gsm.w64', 'W64', 'GSM610', 8000, 1, 40],
    ['long-gsm.aiff', 'AIFF', 'GSM610', 8000, 1, 40],
    ['long-g721.wav', 'WAV', 'G721_32', 8000, 1, 40],
    ['long-ima4.aiff', 'AIFF', 'IMA_ADPCM', 44100, 2, 12],
    ['long-dwvw.aiff', 'AIFF', 'DWVW_16', 48000, 1, 12],
    ['long-alac.caf', 'CAF', 'ALAC_16', 48000, 2, 12],
  ]
  const longDir = join(dir, 'long')
  mkdirSync(longDir)

  it('is refused whole, then converted whole and as a segment by the dataprep, as libsndfile reads it', async () => {
    const declared = writeLongFiles(longDir, files, 3) // libsndfile's frame counts
    for (const [name, , , , ch] of files) expect(declared[name] * ch, name).toBeGreaterThan(cap)
    const segment = { offset: 3.37, duration: 5.5 }
    await expectStreamedOverLimit(longDir, dir, files.map(([n]) => n), declared, cap, segment)
    const compared = files.map((f) => f[0]).filter((n) => !n.includes('dwvw'))
    expectLibsndfileTorchaudio(dir, Object.fromEntries(compared.map((n) => [n, join(longDir, n)])), declared, segment)
  }, 300_000)
})
