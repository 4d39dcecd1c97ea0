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
 * The buffer shuffle's output, one input index at a time: memory is the buffer (`bufferSize` numbers) and one batch
 * of 1,000 drawn indices, whatever `count` is (a stream of 10⁸ rows is never held as a list).
 */
export class BufferShuffle {
  private readonly rng: NumpyGenerator
  private readonly buffer: number[] = []
  private batch: number[] = []
  /** The next input index to take in. */
  private x = 0
  /** Where the final emptying of the buffer stands (−1: not begun). */
  private tail = -1
  /** Input indices emitted so far. */
  emitted = 0

  constructor(readonly count: number, seed = SHUFFLE_SEED, private readonly bufferSize = SHUFFLE_BUFFER) {
    this.rng = new NumpyGenerator(seed)
  }

  /** The next input index in output order, or −1 after all `count`. */
  next(): number {
    // indices come in batches of 1000 (`integers(0, bufferSize, size=1000)`), drawn when the first one is needed: the
    // final shuffle starts where the last batch ended, not after the indices used
    while (this.x < this.count) {
      const x = this.x++
      if (this.buffer.length === this.bufferSize) {
        if (this.batch.length === 0) this.batch = Array.from({ length: 1000 }, () => this.rng.integer(this.bufferSize)).reverse()
        const i = this.batch.pop()!
        const out = this.buffer[i]
        this.buffer[i] = x
        this.emitted++
        return out
      }
      this.buffer.push(x)
    }
    if (this.tail < 0) {
      this.rng.shuffle(this.buffer)
      this.tail = 0
    }
    if (this.tail >= this.buffer.length) return -1
    this.emitted++
    return this.buffer[this.tail++]
  }
}

/**
 * The order in which the buffer shuffle emits a stream of `count` examples (all of it: `BufferShuffle` gives it one
 * index at a time).
 * @returns indices into the input stream, in output order (a permutation of 0…count−1)
 */
export function bufferShuffleOrder(count: number, seed = SHUFFLE_SEED, bufferSize = SHUFFLE_BUFFER): number[] {
  const shuffle = new BufferShuffle(count, seed, bufferSize)
  const out: number[] = []
  for (let x = shuffle.next(); x >= 0; x = shuffle.next()) out.push(x)
  return out
}
