/** Reads an example reference's audio for `decode` and `fbank` (`<dataset>#<file>:<row>`, docs/conventions.md). */
import { MixscopeError, readExample } from '../../engine/node.ts'
import { openDatasetArg } from './dataset-arg.ts'

/** The encoded audio and stored length of one example. */
export async function loadExampleAudio(dataset: string, file: string, row: number): Promise<{ bytes: Uint8Array; audioSize: number | null }> {
  const example = await readExample(await openDatasetArg(dataset), file, row, { columns: ['audio_bytes', 'audio_size'] })
  if (!example.audio) throw new MixscopeError(`example: ${example.id} has a null audio_bytes`, 'null-value')
  return { bytes: example.audio, audioSize: example.audioSize }
}
