import { describe, expect, it } from 'vitest'
import fixture from '../fixtures/rng/plan.json' with { type: 'json' }
import { planBatches, rankDiagnostics, type PlanConfig, type PlanInput, type PlannedBatch } from '../../src/engine/pipeline/plan-batches.ts'
import type { FragmentRef } from '../../src/engine/pipeline/fragments.ts'
import { firstDraws } from '../../src/engine/pipeline/sampler.ts'
import { samplingDistribution } from '../../src/engine/pipeline/weights.ts'
import { collect } from '../../src/engine/pipeline/iterables.ts'
import { defaultPipelineConfig } from '../../src/engine/pipeline/config/defaults.ts'

type Scenario = (typeof fixture.scenarios)[number]

const metaByKey = new Map<string, { lengths: number[]; texts: string[] }>()
for (const p of fixture.partitions) for (const f of p.fragments) metaByKey.set(`${f.path}#${f.rowGroup}`, f)

const partitions = fixture.partitions.map((p) => ({
  corpus: p.corpus, language: p.language,
  fragments: p.fragments.map(({ path, rowGroup, rows, firstRow }) => ({ path, rowGroup, rows, firstRow })),
}))

const pieces = [...fixture.tokenizer.pieces]
const tokenizer = {
  unkIdx: fixture.tokenizer.unk_idx,
  encode: (t: string) => [...t].map((ch) => (pieces.includes(ch) ? pieces.indexOf(ch) + fixture.tokenizer.first_id : fixture.tokenizer.unk_idx)),
}

function inputFor(s: Scenario, extra: Partial<PlanInput> = {}): PlanInput {
  return {
    partitions,
    weights: s.weights,
    trainStreaming: s.mode !== 'eval',
    split: 'train',
    config: s.config as PlanConfig,
    tokenizer: s.tokenizer ? tokenizer : undefined,
    readFragmentMeta: async (f: FragmentRef) => {
      const m = metaByKey.get(`${f.path}#${f.rowGroup}`)
      if (!m) throw new Error(`no fragment ${f.path}#${f.rowGroup}`)
      return { lengths: m.lengths, texts: m.texts }
    },
    ...extra,
  }
}

const idsOf = (batches: PlannedBatch[]) => batches.map((b) => b.examples.map((e) => `${e.file}:${e.row}`))

describe('planBatches against the independent Python planner (numpy ' + fixture.numpy + ', torch ' + fixture.torch + ')', () => {
  for (const s of fixture.scenarios) {
    it(s.name, async () => {
      const plan = planBatches(inputFor(s))
      const got = await collect(plan.batches, s.expected.length)
      expect(idsOf(got)).toEqual(s.expected)
      if (s.mode === 'eval') expect(await plan.batches.next()).toEqual({ done: true, value: undefined })
    })
  }
})

describe('planBatches behaviour', () => {
  const mixture = fixture.scenarios.find((s) => s.mode === 'mixture')!
  const evalRanks = fixture.scenarios.filter((s) => s.name.startsWith('eval rank') && s.name.endsWith('/3 STATIC'))

  it('is deterministic', async () => {
    const a = idsOf(await collect(planBatches(inputFor(mixture)).batches, 15))
    const b = idsOf(await collect(planBatches(inputFor(mixture)).batches, 15))
    expect(a).toEqual(b)
  })

  it('eval: every row that passes the filters appears exactly once across ranks', async () => {
    const perRank = await Promise.all(evalRanks.map(async (s) => idsOf(await collect(planBatches(inputFor(s)).batches)).flat()))
    const all = perRank.flat()
    expect(new Set(all).size).toBe(all.length)
    const single = evalRanks[0]
    const one = idsOf(await collect(planBatches(inputFor(single, { config: { ...single.config, world_size: 1, rank: 0 } as PlanConfig })).batches)).flat()
    expect(new Set(all)).toEqual(new Set(one))
  })

  it('mixture: drops the first row of every weighted partition stream (warm-up) and counts draws', async () => {
    const plan = planBatches(inputFor(mixture))
    await collect(plan.batches, 10)
    expect(plan.drops.total('warm-up')).toBe(3)
    expect(plan.drops.list().filter((d) => d.reason === 'warm-up').map((d) => `${d.corpus}/${d.language}`))
      .toEqual(['fleurs/eng_Latn', 'mls/deu_Latn', 'mls/fra_Latn']) // (listed by corpus, then language)
    const m = plan.mixture!
    expect(m.map((x) => x.seed)).toEqual([2 + 2 + 1, 2 + 2 + 2, 2 + 2 + 3])
    const draws = m.reduce((a, x) => a + x.sampled, 0)
    const dist = samplingDistribution(m.map((x) => x.weight))
    expect(m.map((x) => x.sampled)).toEqual(firstDraws(dist.cumsums, dist.probabilities, 261, draws).sampled)
    expect(plan.unweighted).toEqual([])
  })

  it('partitions without a TSV weight leave the mixture', () => {
    const weights = mixture.weights!.filter((w) => w.language !== 'fra_Latn')
    const plan = planBatches(inputFor(mixture, { weights }))
    expect(plan.mixture!.map((x) => x.language)).toEqual(['deu_Latn', 'eng_Latn'])
    expect(plan.unweighted).toEqual([{ corpus: 'mls', language: 'fra_Latn' }])
  })

  it('max_num_batches and num_accumulate number the batches', async () => {
    const s = fixture.scenarios.find((x) => x.mode === 'train-single')!
    const plan = planBatches(inputFor(s, { config: { ...s.config, max_num_batches: 5, num_accumulate: 2 } as PlanConfig }))
    const got = await collect(plan.batches)
    expect(got.map((b) => [b.index, b.step, b.indexInStep])).toEqual([[0, 0, 0], [1, 0, 1], [2, 1, 0], [3, 1, 1], [4, 2, 0]])
    expect(idsOf(got)).toEqual(s.expected.slice(0, 5))
  })

  it('reads a bounded number of row groups ahead', async () => {
    const s = evalRanks[0]
    let started = 0
    const base = inputFor(s, { config: { ...s.config, world_size: 1, rank: 0 } as PlanConfig, prefetchFragments: 2 })
    const plan = planBatches({ ...base, readFragmentMeta: (f, sig) => { started++; return base.readFragmentMeta(f, sig) } })
    await plan.batches.next()
    expect(started).toBeLessThanOrEqual(plan.io.fragments + 2 + 1)
    expect(started).toBeLessThan(partitions.reduce((a, p) => a + p.fragments.length, 0))
  })

  it('stops with the abort reason when cancelled', async () => {
    const controller = new AbortController()
    const plan = planBatches(inputFor(mixture, { signal: controller.signal }))
    await plan.batches.next()
    controller.abort(new Error('stop please'))
    await expect(collect(plan.batches)).rejects.toThrow('stop please')
  })

  it('raises build-time errors synchronously', () => {
    expect(() => planBatches(inputFor(mixture, { config: { ...mixture.config, example_shuffle_window: 0 } as PlanConfig }))).toThrow(/AssertionError/)
    expect(() => planBatches(inputFor(mixture, { weights: [{ corpus: 'x', language: 'y', weight: 1 }] }))).toThrow(/not enough values to unpack/)
    const emptied = partitions.map((p, i) => (i === 1 ? { ...p, fragments: p.fragments.map((f) => ({ ...f, rows: 0 })) } : p))
    expect(() => planBatches(inputFor(mixture, { partitions: emptied }))).toThrow(/StopIteration: partition mls\/fra_Latn has no rows/)
  })
})

describe('rankDiagnostics', () => {
  it('counts this rank\'s row groups of the flattened eval stream exactly and flags starved ranks', () => {
    const parts = [{ corpus: 'a', language: 'x', fragments: new Array(5) }, { corpus: 'b', language: 'y', fragments: new Array(1) }]
    // flattened indices: a = 0..4, b = 5; W = 4 → rank 1 gets 1, 5
    const d = rankDiagnostics(parts, false, 1, 4)
    expect(d.map((x) => x.fragmentsThisRank)).toEqual([1, 1])
    expect(rankDiagnostics(parts, false, 2, 4).map((x) => x.fragmentsThisRank)).toEqual([1, 0])
    expect(rankDiagnostics(parts, false, 2, 4)[1].note).toMatch(/rank 2 reads none of it/)
    expect(rankDiagnostics(parts, true, 0, 4)[1].note).toMatch(/1 row group\(s\) for 4 ranks/)
  })
})

describe('a train stream whose every row is dropped', () => {
  it('stops with the drop counts instead of waiting forever', async () => {
    const partitions = [0, 1].map((p) => ({
      corpus: 'c', language: `l${p}`,
      fragments: [0, 1].map((g) => ({ path: `p${p}.parquet`, rowGroup: g, rows: 10, firstRow: g * 10 })),
    }))
    const config = { ...defaultPipelineConfig(), min_audio_len: 32_000, max_audio_len: 960_000, max_num_elements: 960_000, example_shuffle_window: 1, batch_shuffle_window: 1 }
    const plan = planBatches({
      partitions, weights: [{ corpus: 'c', language: 'l0', weight: 0.5 }, { corpus: 'c', language: 'l1', weight: 0.5 }],
      trainStreaming: true, split: 'train', config,
      readFragmentMeta: async (f) => ({ lengths: Array(f.rows).fill(8000), texts: Array(f.rows).fill('short') }),
    })
    await expect(plan.batches.next()).rejects.toMatchObject({ kind: 'everything-dropped' })
    await expect(planBatches({
      partitions, weights: null, trainStreaming: true, split: 'train', config,
      readFragmentMeta: async (f) => ({ lengths: Array(f.rows).fill(8000), texts: Array(f.rows).fill('short') }),
    }).batches.next()).rejects.toThrow(/no example passed the filters in \d+ rows .*length-below/)
  })
})
