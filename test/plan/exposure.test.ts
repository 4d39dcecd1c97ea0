/**
 * The exposure model (src/engine/mixture/exposure.ts) against simulations of what training does:
 * - the planner itself (`planDataset`: the reference's sampler, warm-up drop, length filter, length buckets) run for
 *   N steps on the demo: the hours each partition and each language contributes to rank 0's batches, and the draws
 *   per step, agree with the model within statistical tolerance;
 * - the reference sampler (`firstDraws`, torch's MT19937 seeded like `sampling_seed`) over many seeds: the share of
 *   runs in which a rare partition is never drawn agrees with `p_not_drawn`;
 * - the findings fire at the thresholds `--set` gives, and `mixscope weights --steps` prints the same numbers.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { computeStats } from '../../src/engine/dataset/stats.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { resolveConfig } from '../../src/engine/pipeline/config/resolve.ts'
import { planDataset } from '../../src/engine/batches/plan-dataset.ts'
import { weightsReport } from '../../src/engine/mixture/weights-report.ts'
import { exposureReport } from '../../src/engine/mixture/exposure-report.ts'
import { exposureAt, exposureModel, type ExposurePartition } from '../../src/engine/mixture/exposure.ts'
import { firstDraws } from '../../src/engine/pipeline/sampler.ts'
import { samplingDistribution } from '../../src/engine/pipeline/weights.ts'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'
import { runCli } from '../helpers/run-cli.ts'

const demoRoot = join(import.meta.dirname, '..', '..', 'public', 'demo', 'version=0')

async function demo(overrides: Record<string, unknown> = {}) {
  const dataset = await openDataset(await createFsSource(demoRoot))
  await computeStats(dataset)
  const { config } = resolveConfig({ preset: 'ctc-finetune', recipe: null, overrides })
  const weights = await weightsReport(dataset, config)
  return { dataset, config, weights }
}

describe('exposure over training', () => {
  it('matches the planner run for N steps on rank 0: hours per partition and language, draws per step', async () => {
    const steps = 120
    const { dataset, config, weights } = await demo()
    const exposure = exposureReport(dataset, config, weights.weights, steps)!
    expect(exposure.draws).toBe('sampler')
    // simulate: the real planner, rank 0, steps × num_accumulate batches
    const run = structuredClone(config)
    run.max_num_batches = steps * config.num_accumulate
    const plan = planDataset(dataset, run)
    const seconds = new Map<string, number>()
    const count = new Map<string, number>()
    for await (const batch of plan.batches) {
      for (const e of batch.examples) {
        const key = `${e.corpus}/${e.language}`
        seconds.set(key, (seconds.get(key) ?? 0) + e.length / 16_000)
        count.set(key, (count.get(key) ?? 0) + 1)
      }
    }
    const kept = [...count.values()].reduce((s, n) => s + n, 0)
    const dropList = plan.drops.list()
    const warmup = dropList.filter((d) => d.reason === 'warm-up').reduce((s, d) => s + d.count, 0)
    const drops = dropList.reduce((s, d) => s + d.count, 0) - warmup
    // draws the sampler made for these batches: kept examples plus those the task dropped (the warm-up rows are read
    // before the sampler, and some drawn examples still wait in the length buckets): the model's draws per step within 5 %
    const simulatedDraws = kept + drops
    expect(Math.abs(simulatedDraws / (exposure.draws_per_step! * steps) - 1)).toBeLessThan(0.05)
    for (const r of exposure.partitions) {
      const key = `${r.corpus}/${r.language}`
      const model = r.hours_drawn! / config.world_size // rank 0's share: every rank draws as many
      const simulated = (seconds.get(key) ?? 0) / 3600
      const n = count.get(key) ?? 0
      // binomial spread of the draw count, times the partition's mean length, plus 5 % for the row-group lengths
      const sigma = Math.sqrt(Math.max(n, 1)) * (simulated / Math.max(n, 1))
      expect(Math.abs(simulated - model), `${key}: simulated ${simulated} h, model ${model} h`).toBeLessThan(4 * sigma + 0.05 * model)
    }
    const byLanguage = new Map<string, number>()
    for (const [key, s] of seconds) byLanguage.set(key.split('/')[1]!, (byLanguage.get(key.split('/')[1]!) ?? 0) + s / 3600)
    for (const l of exposure.languages) {
      const simulated = byLanguage.get(l.language) ?? 0
      expect(Math.abs(simulated - l.hours_drawn! / config.world_size) / simulated, l.language).toBeLessThan(0.2)
    }
    // epochs = hours drawn / hours available; the curve ends at `steps`
    for (const r of exposure.partitions) {
      expect(r.expected_epochs).toBeCloseTo(r.hours_drawn! / r.hours_available, 9)
      expect(r.curve[r.curve.length - 1]).toBe(r.hours_drawn)
    }
    expect(exposure.curve_steps).toEqual([1, 2, 5, 10, 20, 50, 100, 120])
  }, 120_000)

  it('p_not_drawn matches how often the reference sampler never draws a rare partition, over 400 seeds', () => {
    // three partitions, one rare: with M draws, P(never) = (1 − p)^M ≈ 0.37 when M·p ≈ 1
    const dist = samplingDistribution([0.6, 0.3997, 0.0003])
    const p = dist.probabilities[2]!
    const draws = Math.round(1 / p)
    const config = defaultPipelineConfig()
    config.batching_strategy = 'STATIC'
    config.batch_size = 1
    const partitions: ExposurePartition[] = dist.probabilities.map((probability, i) => ({
      corpus: 'c', language: `l${i}`, path: '', probability, bins: { lengths: [48_000], rows: [10] },
    }))
    // STATIC batch of one example, one batch per step: one draw per step
    const rows = exposureAt(exposureModel(partitions, config), draws, 1)
    const model = rows[2]!.p_not_drawn!
    expect(model).toBeCloseTo((1 - p) ** draws, 12)
    let never = 0
    const seeds = 400
    for (let seed = 0; seed < seeds; seed++) if (firstDraws(dist.cumsums, dist.probabilities, seed, draws).sampled[2] === 0) never++
    const sigma = Math.sqrt(model * (1 - model) / seeds)
    expect(Math.abs(never / seeds - model)).toBeLessThan(4 * sigma)
  }, 60_000)

  it('flags over-repeated and unseen partitions at the thresholds --set gives', async () => {
    const few = await demo({ 'exposure.max_epochs': 1e9, 'exposure.max_p_not_drawn': 0.5 })
    expect(exposureReport(few.dataset, few.config, few.weights.weights, 10)!.findings).toEqual([])
    const tight = await demo({ 'exposure.max_epochs': 10 })
    const over = exposureReport(tight.dataset, tight.config, tight.weights.weights, 100)!
    const expected = over.partitions.filter((r) => r.expected_epochs! > 10).map((r) => `${r.corpus}/${r.language}`)
    expect(expected.length).toBeGreaterThan(0)
    expect(over.findings.filter((f) => f.kind === 'over-repeated-partition').map((f) => f.message.split(':')[0])).toEqual(expected)
    // one step of a 17-partition mixture: most partitions are likely not drawn at all
    const one = await demo({ 'exposure.max_p_not_drawn': 0.5 })
    const first = exposureReport(one.dataset, one.config, one.weights.weights, 1)!
    const unseen = first.partitions.filter((r) => r.p_not_drawn! > 0.5).map((r) => `${r.corpus}/${r.language}`)
    expect(first.findings.filter((f) => f.kind === 'unseen-partition').map((f) => f.message.split(':')[0])).toEqual(unseen)
  }, 60_000)

  it('is absent for a split read once', async () => {
    const { dataset, config, weights } = await demo({ split: 'dev', sync_mode: 'UNTIL_LAST' })
    expect(exposureReport(dataset, config, weights.weights, 100)).toBeNull()
  })

  it('`mixscope weights --steps N --json` prints the engine\'s exposure', async () => {
    const { dataset, config, weights } = await demo()
    const engine = exposureReport(dataset, config, weights.weights, 500)!
    const cli = await runCli(['weights', demoRoot, '--preset', 'ctc-finetune', '--steps', '500', '--json'])
    const printed = JSON.parse(cli.stdout) as { exposure: typeof engine; findings: { kind: string }[] }
    expect(printed.exposure).toEqual(JSON.parse(JSON.stringify(engine)))
    expect(printed.findings.filter((f) => f.kind === 'over-repeated-partition')).toHaveLength(engine.findings.length)
    const bad = await runCli(['weights', demoRoot, '--steps', '0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--steps must be a whole number of optimizer steps from 1 to 10^12 (got "0")')
  }, 60_000)
})
