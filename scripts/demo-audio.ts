/**
 * Speech for the demo dataset: espeak-ng → sox (16 kHz, mono, 16-bit, no dither) → FLAC / Ogg Vorbis / Ogg Opus,
 * as the dataprep stores it (container bytes; `audio_size` = 16 kHz samples before encoding).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Audio container written into `audio_bytes`. */
export type DemoCodec = 'flac' | 'vorbis' | 'opus'

/** One spoken sentence. */
export interface SpeechRequest {
  text: string
  /** espeak-ng voice, e.g. `en-us+f3`. */
  voice: string
  /** Words per minute (espeak-ng `-s`, 80–450). */
  speed: number
  /** Pitch 0–99 (espeak-ng `-p`). */
  pitch: number
  /** Amplitude 0–200 (espeak-ng `-a`, default 100). */
  amplitude: number
  /** sox `tempo` factor applied after synthesis (1 = none); > 1 makes speech faster without changing pitch. */
  tempo: number
  codec: DemoCodec
  /** Ogg stream serial number (Vorbis/Opus), fixed so output is reproducible. */
  serial: number
}

/** An encoded clip. */
export interface EncodedClip {
  /** Container bytes (FLAC, Ogg Vorbis or Ogg Opus). */
  bytes: Uint8Array
  /** Number of 16 kHz mono samples of the PCM before encoding. */
  samples: number
}

function run(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`demo-audio: ${cmd} ${args.join(' ')} failed: ${stderr.trim() || (error as Error).message}`)
  }
}

/** Number of samples in a 16-bit mono WAV written by sox (data chunk size / 2). */
export function wavSampleCount(wav: Uint8Array): number {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength)
  let offset = 12
  while (offset + 8 <= wav.byteLength) {
    const id = String.fromCharCode(...wav.subarray(offset, offset + 4))
    const size = view.getUint32(offset + 4, true)
    if (id === 'data') return size / 2
    offset += 8 + size + (size & 1)
  }
  throw new Error(`demo-audio: WAV of ${wav.byteLength} bytes has no data chunk`)
}

/**
 * Synthesizes and encodes one sentence in `workDir` (scratch files are overwritten).
 * Needs `espeak-ng`, `sox`, `flac`, `oggenc`, `opusenc` on PATH.
 */
export function synthesizeClip(request: SpeechRequest, workDir: string): EncodedClip {
  const raw = join(workDir, 'espeak.wav')
  const pcm = join(workDir, 'pcm16k.wav')
  run('espeak-ng', ['-v', request.voice, '-s', String(request.speed), '-p', String(request.pitch), '-a', String(request.amplitude), '-w', raw, request.text])
  const effects = request.tempo === 1 ? [] : ['tempo', '-s', String(request.tempo)]
  // -R: repeatable; -D: no dither, so the same input gives the same bytes
  run('sox', ['-R', '-D', raw, '-r', '16000', '-c', '1', '-b', '16', pcm, ...effects])
  const samples = wavSampleCount(readFileSync(pcm))
  const out = join(workDir, `clip.${request.codec === 'flac' ? 'flac' : request.codec === 'vorbis' ? 'ogg' : 'opus'}`)
  if (request.codec === 'flac') run('flac', ['-s', '-f', '-8', '--no-padding', pcm, '-o', out])
  else if (request.codec === 'vorbis') run('oggenc', ['-Q', '-q', '1', '--serial', String(request.serial), pcm, '-o', out])
  else run('opusenc', ['--quiet', '--bitrate', '20', '--serial', String(request.serial), pcm, out])
  return { bytes: new Uint8Array(readFileSync(out)), samples }
}

/**
 * A FLAC stream cut short: the `fLaC` marker and STREAMINFO survive, the first frame is cut after `keep` bytes.
 * Models a partial write; decoders find no complete frame.
 */
export function truncateFlac(flac: Uint8Array, keep = 24): Uint8Array {
  if (String.fromCharCode(...flac.subarray(0, 4)) !== 'fLaC') throw new Error('demo-audio: truncateFlac expects FLAC bytes')
  // metadata blocks: 4-byte header (last-flag, type, 24-bit length) then the body
  let offset = 4
  for (;;) {
    const last = (flac[offset] & 0x80) !== 0
    const length = (flac[offset + 1] << 16) | (flac[offset + 2] << 8) | flac[offset + 3]
    offset += 4 + length
    if (last) break
  }
  return flac.slice(0, offset + keep)
}
