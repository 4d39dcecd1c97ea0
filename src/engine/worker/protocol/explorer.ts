/** The explorer's own kinds beyond the groups: `example-facts`, `near-duplicate-members`. Types only (a leaf of protocol.ts). */
import type { ExampleFacts } from '../../examples/example-facts.ts'
import type { RowFindingConfig } from '../../audit/flagged.ts'
import type { NearDuplicateMember } from '../../audit/near-duplicate-members.ts'

/** Request kinds of the explorer group. */
export interface ExplorerRequests {
  /** What is known about one example without decoding it (the Inspector's view of an undecodable row). */
  'example-facts': { params: { dataset: number; exampleId: string; /** The row findings' config (default: the default config). */ config?: RowFindingConfig | null }; result: ExampleFacts }
  /** The members of a near-duplicate cluster, decoded, with their fingerprints aligned (the Audit view). */
  'near-duplicate-members': { params: { dataset: number; ids: string[] }; result: NearDuplicateMember[] }
}
