/**
 * The audio a `decode` or `fbank` argument names: a local audio file, or one example's `audio_bytes` given as an
 * example reference `<dataset>#<file>:<row>` (docs/conventions.md "example reference"); a local path that exists as
 * written wins over the reference reading.
 */
import { readFile, stat } from 'node:fs/promises'
import { MixscopeError, readExample } from '../../engine/node.ts'
import { openDatasetArg } from './dataset-arg.ts'

/** One example's encoded audio, read from a dataset. */
export interface ExampleAudio { bytes: Uint8Array; audioSize: number | null }

/** Reads `<file>:<row>`'s `audio_bytes` from the dataset at `dataset` (folder or URL). */
export type ExampleAudioLoader = (dataset: string, file: string, row: number) => Promise<ExampleAudio>

/** An example reference's parts. */
export interface ExampleReference { dataset: string; file: string; row: number }

/** Splits `<dataset>#<file>:<row>` on the last `#`, then the last `:`; `null` when `arg` is not one. */
export function parseExampleReference(arg: string): ExampleReference | null {
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
 * The encoded audio and stored length of one example, read from the dataset.
 * @throws MixscopeError `null-value` when the row's `audio_bytes` is null
 */
export const loadExampleAudio: ExampleAudioLoader = async (dataset, file, row) => {
  const example = await readExample(await openDatasetArg(dataset), file, row, { columns: ['audio_bytes', 'audio_size'] })
  if (!example.audio) throw new MixscopeError(`example: ${example.id} has a null audio_bytes`, 'null-value')
  return { bytes: example.audio, audioSize: example.audioSize }
}

/** The bytes an audio argument names, how to call them (`id`), and the dataset they come from (`null` for a file). */
export interface AudioArgument { bytes: Uint8Array; id: string; root: string | null }

/**
 * Reads the audio `arg` names for `command`: the file when it exists, else the example reference through `loadExample`.
 * @throws MixscopeError `not-found` (exit 2) naming `arg` when it is neither a readable file nor an example reference
 */
export async function readAudioArgument(command: string, arg: string, loadExample: ExampleAudioLoader): Promise<AudioArgument> {
  const exists = await stat(arg).then((s) => s.isFile(), () => false)
  if (exists) {
    try {
      return { bytes: new Uint8Array(await readFile(arg)), id: arg, root: null }
    } catch (error) {
      throw new MixscopeError(`${command}: cannot read ${arg} (${(error as Error).message})`, 'not-found', 'io')
    }
  }
  const ref = parseExampleReference(arg)
  if (!ref) throw new MixscopeError(`${command}: ${arg} is not a file (expected an audio file or <dataset>#<file>:<row>)`, 'not-found', 'io')
  const example = await loadExample(ref.dataset, ref.file, ref.row)
  return { bytes: example.bytes, id: `${ref.file}:${ref.row}`, root: ref.dataset }
}
