/** The explorer's planning kinds on the demo (fs source): batch streaming equals `mixscope batches --jsonl`. */
import { describe, expect, test } from 'vitest'
import { resolve } from 'node:path'
import { runBatches } from '../../src/cli/commands/batches.ts'
import { getPreset } from '../../src/engine/pipeline/config/presets.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import type { DatasetSource } from '../../src/engine/source/source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, RequestMessage, Requests } from '../../src/engine/worker/protocol.ts'
import type { ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'
import { tableFromTransfer, batchFromTransfer } from '../../src/engine/batches/arrow.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')

async function demoHandler() {
  const source: DatasetSource = await createFsSource(demo)
  const handle = createRequestHandler({ makeSource: () => source })
  let id = 1
  const call = <K extends RequestKind>(kind: K, params: Requests[K]['params'], signal?: AbortSignal) =>
    handle({ kind, id: id++, ...params } as unknown as RequestMessage<K>, { signal }) as Promise<Requests[K]['result']>
  const opened = await call('open', { source: { type: 'url', url: 'unused' } })
  return { call, dataset: opened.dataset }
}

async function cliJsonl(args: string[]): Promise<string> {
  let out = ''
  const code = await runBatches([demo, ...args, '--jsonl'], { stdout: (t: string) => { out += t }, stderr: () => undefined } as never)
  expect(code).toBe(0)
  return out
}

const finetune: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }

describe('plan handlers', () => {
  test('streamed chunks, exported JSONL and Arrow equal the CLI for the same config', async () => {
    const { call, dataset } = await demoHandler()
    const start = await call('plan-start', { dataset, spec: finetune, maxBatches: 5 })
    expect(start.trainStreaming).toBe(true)
    expect(start.limit).toBe(5)
    expect(start.mixture?.length).toBeGreaterThan(1)
    expect(start.buckets?.sizes.length).toBeGreaterThan(0)
    // a chunk with maxMs 0 comes back as soon as it holds one batch
    const first = await call('plan-next', { session: start.session, count: 4, maxMs: 0 })
    expect(first.batches.map((b) => b.index)).toEqual([0])
    const seen: number[] = [0]
    for (;;) {
      const chunk = await call('plan-next', { session: start.session, count: 2 })
      expect(chunk.batches.length).toBeLessThanOrEqual(2)
      seen.push(...chunk.batches.map((b) => b.index))
      if (chunk.done) break
    }
    expect(seen).toEqual([0, 1, 2, 3, 4])
    // the sampler's first fill, behind the first batch, reads every partition stream's first row group
    expect(start.warmUpStreams).toBe(start.mixture!.length)
    const warm = await call('plan-warm-up', { session: start.session })
    expect(warm).toEqual({ filled: start.mixture!.length, total: start.mixture!.length, settled: true })
    const expected = await cliJsonl(['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '5'])
    const jsonl = new TextDecoder().decode(await call('plan-export', { session: start.session, format: 'jsonl' }))
    expect(jsonl).toBe(expected)
    // summaries agree with the examples behind them
    const lines = expected.trim().split('\n').map((l) => JSON.parse(l) as { examples: { length: number }[] })
    const batch = batchFromTransfer(await call('plan-batch', { session: start.session, index: 3 }))
    expect(batch.examples.map((e) => e.length)).toEqual(lines[3].examples.map((e) => e.length))
    const arrow = tableFromTransfer(await call('plan-export', { session: start.session, format: 'arrow' }))
    expect(arrow.numRows).toBe(lines.reduce((n, l) => n + l.examples.length, 0))
    await call('plan-close', { session: start.session })
    await expect(call('plan-next', { session: start.session, count: 1 })).rejects.toMatchObject({ kind: 'unknown-plan-session' })
  })

  test('weighted: the betas decide a train plan over the stats TSV, and leave an eval plan as it is (the CLI\'s batches say so)', async () => {
    const { call, dataset } = await demoHandler()
    for (const [split, weighted] of [['train', true], ['dev', false]] as const) {
      const start = await call('plan-start', { dataset, spec: { preset: 'ctc-finetune', recipe: null, overrides: { split } }, maxBatches: 8 })
      expect(start.weighted, split).toBe(weighted)
      await call('plan-close', { session: start.session })
      const at = (beta: number) => cliJsonl(['--split', split, '--preset', 'ctc-finetune', '--max-batches', '8', '--set', `beta_corpus=${beta}`, '--set', `beta_language=${beta}`])
      const [low, high] = [await at(0.05), await at(1)]
      if (weighted) expect(low).not.toBe(high)
      else expect(low).toBe(high)
    }
  })

  test('batch summaries: size, longest, padded, waste', async () => {
    const { call, dataset } = await demoHandler()
    const spec: ConfigSpec = { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train', seed: 9, rank: 1, world_size: 2 } }
    const start = await call('plan-start', { dataset, spec, maxBatches: 4 })
    expect(start.config).toMatchObject({ seed: 9, rank: 1, world_size: 2 })
    const chunk = await call('plan-next', { session: start.session, count: 10 })
    expect(chunk.done).toBe(true)
    const expected = (await cliJsonl(['--split', 'train', '--preset', 'ctc-finetune', '--max-batches', '4', '--set', 'seed=9', '--rank', '1', '--world-size', '2']))
      .trim().split('\n').map((l) => JSON.parse(l) as { examples: { length: number; language: string }[] })
    expect(chunk.batches.length).toBe(expected.length)
    chunk.batches.forEach((b, i) => {
      const lengths = expected[i].examples.map((e) => e.length)
      const longest = Math.max(...lengths)
      expect(b.size).toBe(lengths.length)
      expect(b.longest).toBe(longest)
      expect(b.padded).toBe(longest * lengths.length)
      expect(b.waste).toBeCloseTo(1 - lengths.reduce((a, c) => a + c, 0) / (longest * lengths.length), 12)
      expect(b.partitions.reduce((n, p) => n + p.count, 0)).toBe(lengths.length)
    })
  })

  test('a cancelled chunk closes the session; config errors are findings, not crashes', async () => {
    const { call, dataset } = await demoHandler()
    const start = await call('plan-start', { dataset, spec: finetune, maxBatches: 50 })
    await expect(call('plan-next', { session: start.session, count: 50 }, AbortSignal.abort())).rejects.toBeTruthy()
    await expect(call('plan-next', { session: start.session, count: 1 })).rejects.toMatchObject({ kind: 'unknown-plan-session' })
    const bad = await call('config-resolve', { spec: { preset: 'nope', recipe: null, overrides: { beta_corpus: 'x' } } })
    expect(bad.findings.filter((f) => f.severity === 'error').length).toBe(2)
    expect(bad.presets.map((p) => p.name)).toContain('ctc-finetune')
    await expect(call('plan-start', { dataset, spec: { preset: 'nope', recipe: null, overrides: {} }, maxBatches: 1 })).rejects.toMatchObject({ kind: 'plan-refused' })
    const recipe = await call('config-resolve', { spec: { preset: null, recipe: { name: 'r.yaml', text: 'dataset:\n  asr_task_config:\n    max_audio_len: 320_000\ncommon:\n  seed: 5\n' }, overrides: {} } })
    expect(recipe.config).toMatchObject({ max_audio_len: 320000, seed: 5 })
  })

  test('mixture: probabilities sum to 1, sampled counts the real draws, betas change the weights', async () => {
    const { call, dataset } = await demoHandler()
    const spec = (b: number): ConfigSpec => ({ preset: 'ctc-finetune', recipe: null, overrides: { split: 'train', beta_corpus: b, beta_language: b } })
    const half = await call('mixture', { dataset, spec: spec(0.5), draws: 1000, steps: 100 })
    expect(half.source).toBe('tsv')
    const inSplit = half.rows.filter((r) => r.in_split)
    expect(inSplit.reduce((s, r) => s + (r.sampling_probability ?? 0), 0)).toBeCloseTo(1, 6)
    expect(inSplit.reduce((s, r) => s + (r.natural_share ?? 0), 0)).toBeCloseTo(1, 9)
    expect(inSplit.reduce((s, r) => s + (r.sampled ?? 0), 0)).toBe(1000)
    expect(inSplit.reduce((s, r) => s + (r.audio_share ?? 0), 0)).toBeCloseTo(1, 9)
    const preset = getPreset('ctc-finetune').config
    expect(half.batches_per_step).toBe(preset.num_accumulate * preset.world_size)
    // a step's audio is the exposure model's (length buckets of ctc-finetune: below the max_num_elements bound)
    expect(half.step_seconds).toBeCloseTo(half.exposure!.step_seconds!, 9)
    expect(half.step_seconds).toBeLessThan(half.batches_per_step * preset.max_num_elements / 16000)
    expect(half.step_seconds).toBeGreaterThan(0.5 * half.batches_per_step * preset.max_num_elements / 16000)
    const totalHours = inSplit.reduce((s, r) => s + (r.hours_per_steps ?? 0), 0)
    expect(totalHours).toBeCloseTo(half.step_seconds * 100 / 3600, 9)
    // the view's report leaves out the per-partition exposure rows (each is its row's hours_per_steps), keeps the languages'
    expect(half.exposure).not.toHaveProperty('partitions')
    expect(half.exposure!.languages.length).toBeGreaterThan(1)
    expect(half.exposure!.languages.reduce((s, l) => s + (l.hours_drawn ?? 0), 0)).toBeCloseTo(totalHours, 9)
    // beta 1 = natural shares at the weight level
    const one = await call('mixture', { dataset, spec: spec(1), draws: 10, steps: 1 })
    const total = one.rows.reduce((s, r) => s + r.hours, 0)
    one.rows.forEach((r) => expect(r.weight).toBeCloseTo(r.hours / total, 12))
    expect(one.rows.map((r) => r.weight)).not.toEqual(half.rows.map((r) => r.weight))
  })
})

describe('plan-featurize', () => {
  test('decodes and featurizes streamed batches: padded shapes from the decoded audio, failures by id, decode ahead of features', async () => {
    const { call, dataset } = await demoHandler()
    const { decodeAudio } = await import('../../src/engine/audio/decode.ts')
    const { readExample } = await import('../../src/engine/dataset/read-example.ts')
    const { createFsSource: fs } = await import('../../src/engine/node/fs-source.ts')
    const { openDataset } = await import('../../src/engine/dataset/open.ts')
    const direct = await openDataset(await fs(demo))
    const defect = 'corpus=fleurs/split=train/language=swh_Latn/part-0.parquet:3' // public/demo/defects.json: undecodable
    for (const spec of [finetune, { ...finetune, overrides: { ...finetune.overrides, use_fbank: true } }] as ConfigSpec[]) {
      const start = await call('plan-start', { dataset, spec, maxBatches: 60 })
      for (;;) if ((await call('plan-next', { session: start.session, count: 60 })).done) break
      // three batches from the first one that draws the planted undecodable row
      let first = -1
      for (let i = 0; i < 60 && first < 0; i++) {
        const b = batchFromTransfer(await call('plan-batch', { session: start.session, index: i }))
        if (b.examples.some((e) => `${e.file}:${e.row}` === defect)) first = i
      }
      expect(first).toBeGreaterThanOrEqual(0)
      const result = await call('plan-featurize', { session: start.session, index: first, count: 3, device: 'cpu' })
      expect(result.device).toBe('cpu')
      expect(result.decodeWorkers).toBe(0) // Node: no helper Workers, the in-thread decoder
      expect(result.batches.map((b) => b.index)).toEqual([first, first + 1, first + 2])
      expect(result.batches[0].failed.map((f) => f.id)).toContain(defect)
      for (const b of result.batches) {
        const batch = batchFromTransfer(await call('plan-batch', { session: start.session, index: b.index }))
        expect(b.examples).toBe(batch.examples.length)
        const frames: number[] = []
        const failed: string[] = []
        for (const e of batch.examples) {
          const row = await readExample(direct, e.file, e.row)
          try { frames.push((await decodeAudio(row.audio!, { id: row.id })).frames) } catch { failed.push(row.id) }
        }
        expect(b.failed.map((f) => f.id)).toEqual(failed)
        for (const f of b.failed) expect(f.error).toMatch(new RegExp(`^audio: ${f.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(flac\\): `))
        const longest = Math.max(...frames)
        // waveform: [B, samples]; fbank: [B, frames, 80] with Kaldi's 25 ms / 10 ms framing (snip edges)
        expect(b.shape).toEqual(start.config.use_fbank ? [frames.length, 1 + Math.floor((longest - 400) / 160), 80] : [frames.length, longest])
        expect(b.decoders.every((d) => d.startsWith('wasm:'))).toBe(true)
        expect(b.audioSeconds).toBeCloseTo(frames.reduce((s, n) => s + n, 0) / 16000, 6)
      }
      expect(['decode', 'features']).toContain(result.bottleneck)
      await call('plan-close', { session: start.session })
    }
    await expect(call('plan-featurize', { session: 999, index: 0, count: 1, device: 'cpu' })).rejects.toMatchObject({ kind: 'unknown-plan-session' })
  }, 30_000)
})
