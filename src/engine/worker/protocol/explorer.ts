/** The explorer's own kinds beyond the groups: `example-facts`. Types only (a leaf of protocol.ts). */
import type { ExampleFacts } from '../../examples/example-facts.ts'

/** Request kinds of the explorer group. */
export interface ExplorerRequests {
  /** What is known about one example without decoding it (the Inspector's view of an undecodable row). */
  'example-facts': { params: { dataset: number; exampleId: string }; result: ExampleFacts }
}
