// Batch planning in the browser for e2e/plan.spec.ts: the demo over HTTP from the page's own origin, planned by the
// same engine code the CLI runs, printed as the same JSONL as `mixscope batches --jsonl`.
import {
  applyBatchLimit,
  batchJsonLine,
  createHttpSource,
  openDataset,
  planDataset,
  resolutionErrors,
  resolveConfig,
} from '../../src/engine/index.ts'

/**
 * Plans the demo (`/demo/version=0/`, its TSV found beside it by URL) with a flat JSON config (config keys,
 * `split`, `rank`, `world_size` included) and returns the JSONL, as `mixscope batches <demo> --config <that JSON>
 * --split <split>` prints it.
 */
async function planDemoJsonl(configJson: string): Promise<string> {
  const resolved = resolveConfig({ preset: null, recipe: { name: 'config.json', text: configJson }, overrides: [] })
  const errors = resolutionErrors(resolved)
  if (errors) throw new Error(errors)
  const config = resolved.config
  applyBatchLimit(config, null)
  const source = createHttpSource(new URL('/demo/version=0/', location.href).href)
  const dataset = await openDataset(source)
  const plan = planDataset(dataset, config)
  let out = ''
  for await (const batch of plan.batches) out += batchJsonLine(batch)
  return out
}

export function register(h: Record<string, unknown>): void {
  h.planDemoJsonl = planDemoJsonl
}
