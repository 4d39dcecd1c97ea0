/**
 * `mixscope decode <audio-file | example reference> [--out out.npy|out.wav] [--mono] [--rate HZ] [--json]`:
 * decodes one audio file (or one row's `audio_bytes`) as the training reference's libsndfile would, at the native
 * rate, and writes it as float32 `.npy` (`[samples]` mono, `[samples, channels]` otherwise) or 32-bit float WAV.
 */
import { parseArgs } from 'node:util'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { decodeAudio, MixscopeError, npyEncode, resampleChannels, toMono, toWavFloat32 } from '../../engine/node.ts'
import { exitCodes, formatJson, UsageError, type CliIo } from '../lib/io.ts'

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

/** One example's encoded audio, read from a dataset. */
export interface ExampleAudio { bytes: Uint8Array; audioSize: number | null }

/** Reads `<file>:<row>`'s `audio_bytes` from the dataset at `dataset` (folder or URL). */
export type ExampleAudioLoader = (dataset: string, file: string, row: number) => Promise<ExampleAudio>

/**
 * INTEGRATION POINT (engine/parquet owner): replace this default with a loader that opens `dataset` (see
 * src/cli/lib/dataset-arg.ts `openDatasetArg`), finds `file` and reads row `row`'s `audio_bytes` (and `audio_size`).
 * Until then, example references fail with exit code 2 and this message.
 */
export const loadExampleAudioNotWired: ExampleAudioLoader = async (dataset, file, row) => {
  throw new MixscopeError(`decode: reading example ${dataset}#${file}:${row} from a dataset is not wired yet; pass an audio file`, 'not-implemented', 'usage')
}

/** Splits `<dataset>#<file>:<row>` on the last `#`, then the last `:` (docs/conventions.md "example reference"). */
export function parseExampleReference(arg: string): { dataset: string; file: string; row: number } | null {
  const hash = arg.lastIndexOf('#')
  if (hash <= 0) return null
  const rest = arg.slice(hash + 1)
  const colon = rest.lastIndexOf(':')
  if (colon <= 0) return null
  const rowText = rest.slice(colon + 1)
  if (!/^\d+$/.test(rowText)) return null
  return { dataset: arg.slice(0, hash), file: rest.slice(0, colon), row: Number(rowText) }
}

/**
 * Runs `mixscope decode`.
 *
 * @param deps `loadExample` reads an example reference's audio (see `loadExampleAudioNotWired`)
 * @returns 0 decoded and trainable; 1 training cannot read it (what decodes is still written) or it does not decode;
 * 2 usage or I/O error
 */
export async function runDecode(argv: string[], io: CliIo, deps: { loadExample?: ExampleAudioLoader } = {}): Promise<number> {
  try {
    return await decodeCommand(argv, io, deps.loadExample ?? loadExampleAudioNotWired)
  } catch (error) {
    const e = error as Error & { code?: string }
    if (error instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`mixscope decode: ${e.message}\nRun "mixscope decode --help" for usage.\n`)
      return exitCodes.usage
    }
    if (error instanceof MixscopeError) {
      io.stderr(`mixscope decode: ${e.message}\n`)
      return error.exitClass === 'data' ? exitCodes.findings : exitCodes.usage
    }
    throw error
  }
}

async function decodeCommand(argv: string[], io: CliIo, loadExample: ExampleAudioLoader): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    out: { type: 'string' }, mono: { type: 'boolean' }, rate: { type: 'string' }, json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } })
  if (values.help) {
    io.stdout(decodeHelp)
    return exitCodes.ok
  }
  if (positionals.length !== 1) throw new UsageError(`expected one audio file or example reference, got ${positionals.length}`)
  let rate: number | null = null
  if (values.rate !== undefined) {
    rate = Number(values.rate)
    if (!Number.isInteger(rate) || rate < 1 || rate > 768000) throw new UsageError(`--rate must be an integer number of Hz from 1 to 768000 (got ${JSON.stringify(values.rate)})`)
  }
  const out = values.out
  if (out !== undefined && !/\.(npy|wav)$/i.test(out)) throw new UsageError(`--out must end in .npy or .wav (got ${JSON.stringify(out)})`)

  const arg = positionals[0]
  const { bytes, id, root } = await readInput(arg, loadExample)
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

async function readInput(arg: string, loadExample: ExampleAudioLoader): Promise<{ bytes: Uint8Array; id: string; root: string | null }> {
  // a local path that exists as written wins over the example-reference reading (docs/conventions.md)
  const exists = await stat(arg).then((s) => s.isFile(), () => false)
  if (exists) {
    try {
      return { bytes: new Uint8Array(await readFile(arg)), id: arg, root: null }
    } catch (error) {
      throw new MixscopeError(`decode: cannot read ${arg} (${(error as Error).message})`, 'not-found', 'io')
    }
  }
  const ref = parseExampleReference(arg)
  if (!ref) throw new MixscopeError(`decode: ${arg} is not a file (expected an audio file or <dataset>#<file>:<row>)`, 'not-found', 'io')
  const example = await loadExample(ref.dataset, ref.file, ref.row)
  return { bytes: example.bytes, id: `${ref.file}:${ref.row}`, root: ref.dataset }
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
