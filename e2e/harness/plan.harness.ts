// Batch planning in the browser for e2e/plan.spec.ts: the demo over HTTP from the page's own origin, planned by the
// same engine code the CLI runs, printed as the same JSONL as `mixscope batches --jsonl`.
import { loadRecipe } from '../../src/engine/config/recipe.ts'
import { isTrainStreaming } from '../../src/engine/config/split.ts'
import { openDataset } from '../../src/engine/discovery/open.ts'
import { batchJsonLine } from '../../src/engine/plan/jsonl.ts'
import { planDataset } from '../../src/engine/plan/plan-dataset.ts'
import { createHttpSource } from '../../src/engine/source/http-source.ts'

/** Batches shown for an infinite train stream, as the CLI's default `--max-batches`. */
const TRAIN_MAX_BATCHES = 20

/**
 * Plans the demo (`/demo/version=0/`, its TSV found beside it by URL) with a flat JSON config (config keys,
 * `split`, `rank`, `world_size` included) and returns the JSONL, as `mixscope batches <demo> --config <that JSON>
 * --split <split>` prints it.
 */
async function planDemoJsonl(configJson: string): Promise<string> {
  const loaded = loadRecipe(configJson, { name: 'config.json' })
  const errors = loaded.findings.filter((f) => f.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((f) => f.message).join('\n'))
  const config = loaded.config
  const limit = Math.min(isTrainStreaming(config.split, config.sync_mode) ? TRAIN_MAX_BATCHES : Infinity, config.max_num_batches ?? Infinity)
  config.max_num_batches = Number.isFinite(limit) ? limit : null
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
