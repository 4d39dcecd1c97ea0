/** The Examples view's kinds: `examples-search` and `examples-neighbour`. Types only (a leaf of protocol.ts). */
import type { ExampleFilter, ExampleNeighbour, ExamplePage, ExampleSample, ExampleSort } from '../../examples/search.ts'
import type { TextScanStatus } from '../../examples/text-scan.ts'
import type { ConfigSpec } from '../../pipeline/config/resolve.ts'

export interface ExamplesSearchParams {
  dataset: number
  filter: ExampleFilter
  /** First match to return (0-based, in dataset order: file path order, then row). */
  offset: number
  /** Most matches to return (capped at 1000). */
  limit: number
  sample?: ExampleSample | null
  /** Order of the matches (default: dataset order). */
  sort?: ExampleSort | null
  /**
   * Rows above which a transcript search or a length range streams (`ExamplePage.scan`) instead of building the
   * example index (default `defaultExampleIndexRowLimit`, src/engine/examples/text-scan.ts).
   */
  indexRowLimit?: number
  /**
   * The config the row findings use (flags, "only flagged", the findings sort), as the Audit's (`audit`'s `spec`):
   * its split, length filter and `min_samples_per_char`. Absent, or one that does not resolve: the default config.
   */
  spec?: ConfigSpec
}

/** Parameters of `examples-scan`: stop the dataset's streamed search, or continue it from where it stopped. */
export interface ExamplesScanParams {
  dataset: number
  action: 'stop' | 'continue'
}

/** Parameters of `examples-neighbour`: the match `step` places after (or before) `exampleId`, under the same filter. */
export interface ExamplesNeighbourParams {
  dataset: number
  filter: ExampleFilter
  sample?: ExampleSample | null
  /** `<file>:<row>` (not `id`: that name is the request's own id on the wire). */
  exampleId: string
  /** +1 next, −1 previous. */
  step: number
  sort?: ExampleSort | null
  /** As `ExamplesSearchParams.indexRowLimit`. */
  indexRowLimit?: number
  /** As `ExamplesSearchParams.spec`. */
  spec?: ConfigSpec
}

/** Request kinds of the examples group. */
export interface ExamplesRequests {
  'examples-search': { params: ExamplesSearchParams; result: ExamplePage }
  'examples-neighbour': { params: ExamplesNeighbourParams; result: ExampleNeighbour }
  /** The streamed search's state after the action (`null` when the dataset has none). */
  'examples-scan': { params: ExamplesScanParams; result: TextScanStatus | null }
}
