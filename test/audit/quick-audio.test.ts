/**
 * The audit's cheap audio check (no decoding) against the full decode's training verdict, which test/audio holds to
 * libsndfile and `flac -d`: the cheap check never calls a row undecodable that the full decode lets through, and it
 * catches the structural defects (a cut stream, a depth libsndfile refuses, a format that contradicts STREAMINFO).
 */
import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decodeAudio } from '../../src/engine/audio/decode.ts'
import { quickAudioVerdict } from '../../src/engine/audit/quick-audio.ts'

const audioDir = join(import.meta.dirname, '../fixtures/audio')
const files = [
  ...readdirSync(audioDir).filter((f) => /\.(flac|ogg|opus|mp3|wav)$/.test(f)).map((f) => join(audioDir, f)),
  ...readdirSync(join(audioDir, 'flac')).map((f) => join(audioDir, 'flac', f)),
]

async function fullVerdict(bytes: Uint8Array, id: string): Promise<boolean> {
  return decodeAudio(bytes, { id, prefer: 'wasm' }).then((a) => a.trainable, () => false)
}

describe('quickAudioVerdict', () => {
  it('never flags a row the full decode says training reads, on every fixture whole and cut', async () => {
    let checked = 0
    for (const path of files) {
      const whole = new Uint8Array(readFileSync(path))
      for (const [what, bytes] of [['whole', whole], ['cut 30%', whole.subarray(0, Math.floor(whole.length * 0.3))], ['cut 60%', whole.subarray(0, Math.floor(whole.length * 0.6))]] as const) {
        const id = `${path.split('/').slice(-2).join('/')} ${what}`
        const quick = quickAudioVerdict(bytes)
        if (!quick.decodable) expect(await fullVerdict(bytes, id), `${id}: the cheap check says "${quick.problem}"`).toBe(false)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('catches cut FLAC, depths libsndfile refuses, contradicting STREAMINFO and a format change mid-stream', () => {
    const flac = (name: string) => new Uint8Array(readFileSync(join(audioDir, 'flac', name)))
    for (const name of ['depth-12.flac', 'depth-20.flac', 'change-channels.flac', 'change-bps.flac', 'change-rate.flac', 'streaminfo-bps24.flac', 'streaminfo-ch2.flac', 'total-unknown.flac']) {
      expect(quickAudioVerdict(flac(name)), name).toMatchObject({ decodable: false })
    }
    const whole = flac('depth-16.flac')
    expect(quickAudioVerdict(whole)).toMatchObject({ decodable: true, problem: null })
    expect(quickAudioVerdict(whole.subarray(0, Math.floor(whole.length * 0.6))).problem).toMatch(/^truncated stream/)
  })
})
