/** Spawns `npx mixscope weights|batches` on the demo and checks outputs, determinism and exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { spawnMixscope, type CliRun } from './helpers/spawn-cli.ts'

const repo = join(import.meta.dirname, '..')
const demo = 'public/demo/version=0'

function mixscope(args: string[]): Promise<CliRun> {
  return spawnMixscope(args, { cwd: repo })
}

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-cli-plan-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('npx mixscope weights', () => {
  it('prints help', async () => {
    const r = await mixscope(['weights', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: mixscope weights')
  })

  it('--json: one row per TSV row, in TSV order, with the documented keys', async () => {
    const r = await mixscope(['weights', demo, '--json'])
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(Object.keys(report)).toEqual(['schema_version', 'root', 'source', 'summary_path', 'weights', 'findings'])
    expect(report).toMatchObject({ schema_version: 1, root: demo, source: 'tsv', summary_path: '../language_distribution_0.tsv' })
    const tsv = (await readFile(join(repo, 'public/demo/language_distribution_0.tsv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split('\t'))
    expect(report.weights.map((w: { corpus: string; language: string }) => [w.corpus, w.language])).toEqual(tsv.map(([c, l]) => [c, l]))
    expect(report.weights.map((w: { hours: number }) => w.hours)).toEqual(tsv.map(([, , h]) => Number(h)))
    expect(Object.keys(report.weights[0])).toEqual(['corpus', 'language', 'hours', 'corpus_weight', 'language_weight', 'weight', 'in_split', 'sampling_probability'])
    expect(report.weights.reduce((s: number, w: { weight: number }) => s + w.weight, 0)).toBeCloseTo(1, 12)
    expect(report.weights.reduce((s: number, w: { sampling_probability: number }) => s + w.sampling_probability, 0)).toBe(1)
  })

  it('--beta-corpus 1 --beta-language 1 makes weights proportional to hours; --split dev has no sampler', async () => {
    const r = JSON.parse((await mixscope(['weights', demo, '--json', '--beta-corpus', '1', '--beta-language', '1', '--split', 'dev'])).stdout)
    const total = r.weights.reduce((s: number, w: { hours: number }) => s + w.hours, 0)
    for (const w of r.weights) expect(w.weight).toBeCloseTo(w.hours / total, 12)
    expect(r.weights.every((w: { sampling_probability: null }) => w.sampling_probability === null)).toBe(true)
    // fleurs and commonvoice have dev folders for every language; mls spa_Latn has dev too
    expect(r.weights.filter((w: { in_split: boolean }) => w.in_split).length).toBeGreaterThan(10)
  })

  it('names the TSV on stderr in table mode and rejects a bad beta with exit 2', async () => {
    const r = await mixscope(['weights', demo])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('summary TSV: ../language_distribution_0.tsv')
    expect(r.stdout).toContain('p_sample')
    expect((await mixscope(['weights', demo, '--beta-corpus', 'x'])).code).toBe(2)
  })
})

describe('npx mixscope batches', () => {
  it('trains with dataloader_example.py\'s settings on the small demo split (example window 1000 > three passes)', async () => {
    const r = await mixscope(['batches', demo, '--split', 'train', '--preset', 'dataloader-example', '--max-batches', '3', '--jsonl'])
    expect(r.stderr).not.toMatch(/no example passed/)
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(3)
  })

  it('prints help', async () => {
    const r = await mixscope(['batches', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: mixscope batches')
  })

  it('--jsonl: one line per batch with the documented keys, 20 batches by default for train, identical across runs', async () => {
    const args = ['batches', demo, '--split', 'train', '--preset', 'ctc-finetune', '--rank', '1', '--world-size', '2', '--jsonl']
    const [a, b] = await Promise.all([mixscope(args), mixscope(args)])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    const lines = a.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.batch)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(Object.keys(lines[0])).toEqual(['batch', 'examples'])
    expect(Object.keys(lines[0].examples[0])).toEqual(['file', 'row', 'row_group', 'corpus', 'language', 'split', 'length', 'text_chars'])
    expect(a.stderr).toContain('summary TSV: ../language_distribution_0.tsv')
  })

  it('an eval split runs to its end without --max-batches; --max-batches cuts it', async () => {
    const all = (await mixscope(['batches', demo, '--split', 'dev', '--preset', 'llm-finetune', '--jsonl'])).stdout.trimEnd().split('\n')
    const rows = all.flatMap((l) => JSON.parse(l).examples)
    expect(rows.every((e: { split: string }) => e.split === 'dev')).toBe(true)
    expect(new Set(rows.map((e: { file: string; row: number }) => `${e.file}:${e.row}`)).size).toBe(rows.length)
    const cut = (await mixscope(['batches', demo, '--split', 'dev', '--preset', 'llm-finetune', '--jsonl', '--max-batches', '2'])).stdout.trimEnd().split('\n')
    expect(cut).toEqual(all.slice(0, 2))
  })

  it('table mode with --buckets prints the bucket table and the batches; --arrow writes an IPC file', async () => {
    const out = join(dir, 'plan.arrow')
    const r = await mixscope(['batches', demo, '--split', 'train_mls', '--preset', 'ctc-finetune', '--max-batches', '3', '--buckets', '--arrow', out])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('LENGTH buckets: 30')
    expect(r.stdout).toMatch(/batch 2 \(step 0, 3 in step\)/)
    const table = tableFromIPC(await readFile(out))
    expect(table.schema.fields.map((f) => f.name)).toEqual(['batch', 'file', 'row', 'row_group', 'corpus', 'language', 'split', 'length', 'text_chars'])
    expect(new Set(table.getChild('batch')!.toArray())).toEqual(new Set([0, 1, 2]))
  })

  it('config errors exit 1 with the findings printed; usage errors exit 2', async () => {
    const r = await mixscope(['batches', demo, '--split', 'train'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('example-shuffle-window-zero')
    const none = await mixscope(['batches', demo, '--split', 'dev_clean', '--preset', 'ctc-finetune'])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('No parquet files found for the current split dev_clean.')
    expect((await mixscope(['batches', demo, '--preset', 'ctc-finetune'])).code).toBe(2)
    expect((await mixscope(['batches', demo, '--split', 'dev', '--preset', 'nope'])).code).toBe(2)
    expect((await mixscope(['batches', demo, '--split', 'dev', '--rank', '2', '--world-size', '2'])).code).toBe(2)
  })

  it('a recipe whose summary path does not exist falls back to the lookup and says so', async () => {
    const recipe = join(dir, 'recipe.yaml')
    await writeFile(recipe, `dataset:
  mixture_parquet_storage_config:
    dataset_summary_path: /nowhere/language_distribution_0.tsv
    beta_corpus: 0.5
    beta_language: 0.5
  asr_task_config:
    min_audio_len: 32_000
    max_audio_len: 960_000
    max_num_elements: 960_000
    example_shuffle_window: 1
    batch_shuffle_window: 1
`)
    const r = await mixscope(['batches', demo, '--split', 'train', '--config', recipe, '--max-batches', '2', '--jsonl'])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('"/nowhere/language_distribution_0.tsv"')
    expect(r.stderr).toContain('does not exist here')
    expect(r.stderr).toContain('summary TSV: ../language_distribution_0.tsv')
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2)
    const withTsv = await mixscope(['batches', demo, '--split', 'train', '--config', recipe, '--max-batches', '2', '--jsonl', '--set', `dataset_summary_path=${join(repo, 'public/demo/language_distribution_0.tsv')}`])
    expect(withTsv.stderr).not.toContain('does not exist here')
    expect(withTsv.stdout).toBe(r.stdout)
  })
})
