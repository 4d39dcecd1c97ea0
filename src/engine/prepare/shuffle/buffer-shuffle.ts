/**
 * The shuffle the reference dataprep puts in front of every (language, split) stream:
 * `IterableDataset.shuffle(seed=123, buffer_size=10000)` of Hugging Face `datasets`
 * (`BufferShuffledExamplesIterable.__iter__`, docs/reference-pipeline.md §17): fill a buffer of `bufferSize`
 * examples; once full, each new example takes the place of a randomly drawn one, which is emitted (indices drawn by
 * `rng.integers(0, bufferSize, size=1000)`); at the end the rest of the buffer is `rng.shuffle`d and emitted. The
 * generator is `np.random.default_rng(seed)` (epoch 0). What mixscope cannot reproduce is written in
 * docs/interpretations.md "Dataprep".
 */
import { NumpyGenerator } from '../../random/numpy-generator.ts'

/** The reference's shuffle seed and buffer (OA:hf_dataset_ingestion_example.py:192, :251). */
export const SHUFFLE_SEED = 123
export const SHUFFLE_BUFFER = 10_000

/**
 * The order in which the buffer shuffle emits a stream of `count` examples.
 * @returns indices into the input stream, in output order (a permutation of 0…count−1)
 */
export function bufferShuffleOrder(count: number, seed = SHUFFLE_SEED, bufferSize = SHUFFLE_BUFFER): number[] {
  const rng = new NumpyGenerator(seed)
  const buffer: number[] = []
  const out: number[] = []
  // indices come in batches of 1000 (`integers(0, bufferSize, size=1000)`), drawn when the first one is needed: the
  // final shuffle starts where the last batch ended, not after the indices used
  let batch: number[] = []
  for (let x = 0; x < count; x++) {
    if (buffer.length === bufferSize) {
      if (batch.length === 0) batch = Array.from({ length: 1000 }, () => rng.integer(bufferSize)).reverse()
      const i = batch.pop()!
      out.push(buffer[i])
      buffer[i] = x
    } else {
      buffer.push(x)
    }
  }
  rng.shuffle(buffer)
  for (const x of buffer) out.push(x)
  return out
}
