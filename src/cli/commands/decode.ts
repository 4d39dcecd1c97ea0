/**
 * `mixscope decode <audio-file | example reference> [--out out.npy|out.wav] [--mono] [--rate HZ] [--json]`:
 * decodes one audio file (or one row's `audio_bytes`) as the training reference's libsndfile would, at the native
 * rate, and writes it as float32 `.npy` (`[samples]` mono, `[samples, channels]` otherwise) or 32-bit float WAV.
 */
import { writeFile } from 'node:fs/promises'
import { decodeAudio, MixscopeError, npyEncode, resampleChannels, toMono, toWavFloat32 } from '../../engine/node.ts'
import { defineCommand, integerOption, matchOption, parseCommand } from '../lib/args.ts'
import { runCommand } from '../lib/errors.ts'
import { loadExampleAudio, readAudioArgument, type ExampleAudioLoader } from '../lib/example-audio.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const decodeHelp = `Usage: mixscope decode <audio-file | dataset#file:row> [--out out.npy|out.wav] [--mono] [--rate HZ] [--json]

Decodes one WAV, FLAC, Ogg Vorbis/Opus or MP3 file (or one example's audio_bytes) to float32 at its
native rate and channels, as the training reference (libsndfile) sees it: integer PCM / 2^(bits-1).
Opus decodes at its input rate (16 kHz for this data).

  --out FILE       write .npy (float32, [samples] or [samples, channels]) or .wav (32-bit float)
  --mono           mean of the channels (the reference's waveform path)
  --rate HZ        resample (Kaiser windowed sinc) for listening; training never resamples
  --json           print {"schema_version": 1, "root", "source", "sample_rate", "channels", "samples", "decoder", "warnings",
                   "trainable", "untrainable"}
  -h, --help       show this help

Exit status: 0 decoded, and training's decoder (libsndfile, as fairseq2 reads it) reads it too; 1 training cannot
read it (truncated or damaged, FLAC in Ogg, FLAC at a depth other than 8/16/24 bits, ...: the reason goes to stderr,
and --out still writes what decodes, for listening) or it does not decode at all; 2 usage or I/O error.
`

/**
 * Runs `mixscope decode`.
 *
 * @param deps `loadExample` reads an example reference's audio (default: from the dataset it names, src/cli/lib/example-audio.ts)
 * @returns 0 decoded and trainable; 1 training cannot read it (what decodes is still written) or it does not decode;
 * 2 usage or I/O error
 */
export async function runDecode(argv: string[], io: CliIo, deps: { loadExample?: ExampleAudioLoader } = {}): Promise<number> {
  return runCommand('decode', io, () => decodeCommand(argv, io, deps.loadExample ?? loadExampleAudio))
}

const args = defineCommand({
  name: 'decode', help: decodeHelp, positionals: { count: 1, what: 'one audio file or example reference' },
  options: { out: { type: 'string' }, mono: { type: 'boolean' }, rate: { type: 'string' }, json: { type: 'boolean' } },
})

async function decodeCommand(argv: string[], io: CliIo, loadExample: ExampleAudioLoader): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const rate = integerOption('decode', '--rate', values.rate, { min: 1, max: 768000, expected: 'an integer number of Hz from 1 to 768000' }) ?? null
  const out = matchOption('decode', '--out', values.out, /\.(npy|wav)$/i, 'a file name ending in .npy or .wav')

  const { bytes, id, root } = await readAudioArgument('decode', positionals[0], loadExample)
  const audio = await decodeAudio(bytes, { id, prefer: 'wasm' })
  let channels = audio.channels
  let sampleRate = audio.sampleRate
  if (values.mono) channels = [toMono(channels)]
  if (rate !== null && rate !== sampleRate) {
    channels = resampleChannels(channels, sampleRate, rate)
    sampleRate = rate
  }
  const samples = channels[0].length
  if (out) {
    await writeOutput(out, channels, sampleRate)
    if (!values.json) io.stderr(`wrote ${out}${audio.trainable ? '' : ` (the ${samples} samples that decode, for listening: not what training would read)`}\n`)
  }
  if (values.json) {
    io.stdout(formatJson({
      schema_version: 1, root, source: id, sample_rate: sampleRate, channels: channels.length, samples, decoder: audio.decoder, warnings: audio.warnings,
      trainable: audio.trainable, untrainable: audio.untrainable,
    }))
  } else {
    const what = audio.codec && audio.codec !== audio.container ? `${audio.container}/${audio.codec}` : audio.container
    io.stdout(`${id}: ${what}, ${sampleRate} Hz, ${channels.length} channel${channels.length === 1 ? '' : 's'}, ${samples} samples (${(samples / sampleRate).toFixed(3)} s), decoder ${audio.decoder}\n`)
    for (const w of audio.warnings) io.stderr(`warning: ${w}\n`)
  }
  if (!audio.trainable) {
    io.stderr(`mixscope decode: ${id}: training cannot read this row: ${audio.untrainable}\n`)
    return exitCodes.findings
  }
  return exitCodes.ok
}

async function writeOutput(out: string, channels: Float32Array[], rate: number): Promise<void> {
  let bytes: Uint8Array
  if (/\.wav$/i.test(out)) bytes = toWavFloat32(channels, rate)
  else {
    const frames = channels[0].length
    const count = channels.length
    const inter = new Float32Array(frames * count)
    for (let c = 0; c < count; c++) for (let i = 0; i < frames; i++) inter[i * count + c] = channels[c][i]
    bytes = npyEncode({ data: inter, shape: count === 1 ? [frames] : [frames, count] })
  }
  try {
    await writeFile(out, bytes)
  } catch (error) {
    throw new MixscopeError(`decode: cannot write ${out} (${(error as Error).message})`, 'io', 'io')
  }
}
