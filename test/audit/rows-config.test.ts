/**
 * What a config change recomputes in the audit (src/engine/audit/rows-config.ts): the row checks read only the keys
 * of `auditRowsConfigKeys`, so on the demo a change of the betas (or of a key the rows do not read, batch_size) gives
 * the same report less its `config_findings`, with the same `rowsKey`, while max_audio_len, world_size or the split
 * change both; the config's findings (`audit-config`, no row read) follow the betas: their sampling range is checked
 * against the reference's formula (docs/reference-pipeline.md §4: p_c ∝ (H_c/H)^β_c, p_l|c ∝ (h/H_c)^β_l, renormalized
 * over the partitions kept by the sampler, §5) computed here from the TSV's text and the folder names.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { AuditReport } from '../../src/engine/audit/rows/types.ts'
import { auditRowsKey } from '../../src/engine/audit/rows-config.ts'
import { resolveConfig, type ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, RequestMessage, Requests } from '../../src/engine/worker/protocol.ts'

const demo = resolve(import.meta.dirname, '../../public/demo/version=0')
const source = await createFsSource(demo)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
const call = <K extends RequestKind>(kind: K, params: Requests[K]['params']) =>
  handle({ kind, id: nextId++, ...params } as unknown as RequestMessage<K>, {}) as Promise<Requests[K]['result']>
const { dataset } = await call('open', { source: { type: 'url', url: 'unused' } })

const spec = (overrides: Record<string, unknown>): ConfigSpec => ({ preset: 'ctc-finetune', recipe: null, overrides: { split: 'train', ...overrides } })
const audit = (overrides: Record<string, unknown>) => call('audit', { dataset, spec: spec(overrides), deep: false, state: null })
const withoutConfig = ({ config_findings: _, ...rest }: AuditReport) => rest

/** The sampler's least and most likely train partition of the demo under the betas, from the TSV's text (§4, §5). */
function referenceRange(betaCorpus: number, betaLanguage: number): { lo: string; hi: string; pLo: number; pHi: number } {
  const rows = readFileSync(resolve(demo, '../language_distribution_0.tsv'), 'utf8').trim().split('\n').slice(1)
    .map((l) => l.split('\t')).map(([corpus, language, hours]) => ({ corpus, language, hours: Number(hours) }))
  const total = rows.reduce((s, r) => s + r.hours, 0)
  const corpusHours = new Map<string, number>()
  for (const r of rows) corpusHours.set(r.corpus, (corpusHours.get(r.corpus) ?? 0) + r.hours)
  const corpusNorm = [...corpusHours.values()].reduce((s, h) => s + (h / total) ** betaCorpus, 0)
  const languageNorm = new Map<string, number>()
  for (const r of rows) languageNorm.set(r.corpus, (languageNorm.get(r.corpus) ?? 0) + (r.hours / corpusHours.get(r.corpus)!) ** betaLanguage)
  const weight = (r: { corpus: string; hours: number }) => ((corpusHours.get(r.corpus)! / total) ** betaCorpus / corpusNorm)
    * ((r.hours / corpusHours.get(r.corpus)!) ** betaLanguage / languageNorm.get(r.corpus)!)
  // the train partitions, from the folder names
  const train = new Set(readdirSync(demo).filter((d) => d.startsWith('corpus=')).flatMap((c) =>
    readdirSync(resolve(demo, c, 'split=train')).map((l) => `${c.slice('corpus='.length)}/${l.slice('language='.length)}`)))
  const kept = rows.filter((r) => train.has(`${r.corpus}/${r.language}`)).map((r) => ({ name: `${r.corpus}/${r.language}`, w: weight(r) }))
  const sum = kept.reduce((s, k) => s + k.w, 0)
  const sorted = [...kept].sort((a, b) => a.w - b.w)
  return { lo: sorted[0].name, hi: sorted[sorted.length - 1].name, pLo: sorted[0].w / sum, pHi: sorted[sorted.length - 1].w / sum }
}

describe('audit: what a config change recomputes', () => {
  test('the betas and batch_size leave the report and its rowsKey; max_audio_len, world_size and the split change both', async () => {
    const base = await audit({ beta_corpus: 0.5, beta_language: 0.5 })
    const betas = await audit({ beta_corpus: 0.2, beta_language: 0.9 })
    const batch = await audit({ beta_corpus: 0.5, beta_language: 0.5, batching_strategy: 'STATIC', batch_size: 3 })
    expect(betas.rowsKey).toBe(base.rowsKey)
    expect(withoutConfig(betas.report)).toEqual(withoutConfig(base.report))
    expect(betas.configFindings).not.toEqual(base.configFindings)
    // STATIC batching: the bucket occupancy is not drawn, so the rows' key changes; batch_size alone does not
    const staticOnly = await audit({ beta_corpus: 0.5, beta_language: 0.5, batching_strategy: 'STATIC' })
    expect(batch.rowsKey).toBe(staticOnly.rowsKey)
    expect(withoutConfig(batch.report)).toEqual(withoutConfig(staticOnly.report))
    for (const change of [{ max_audio_len: 200_000, max_num_elements: 200_000 }, { world_size: 3 }, { split: 'dev' }]) {
      const other = await audit({ beta_corpus: 0.5, beta_language: 0.5, ...change })
      expect(other.rowsKey, JSON.stringify(change)).not.toBe(base.rowsKey)
      expect(withoutConfig(other.report), JSON.stringify(change)).not.toEqual(withoutConfig(base.report))
    }
  })

  test('audit-config: the findings an audit would carry, and the key from the resolved config', async () => {
    const s = spec({ beta_corpus: 0.3, beta_language: 0.7 })
    const full = await call('audit', { dataset, spec: s, deep: false, state: null, footers: true })
    const only = await call('audit-config', { dataset, spec: s })
    expect(only.configFindings).toEqual(full.configFindings)
    expect(only.rowsKey).toBe(full.rowsKey)
    expect(only.rowsKey).toBe(auditRowsKey(resolveConfig(s).config))
    // a key the rows read, set through a dotted name, changes it
    expect((await call('audit-config', { dataset, spec: spec({ 'max_audio_len': 100_000 }) })).rowsKey).not.toBe(only.rowsKey)
  })

  test.each([[0.5, 0.5], [0.2, 0.9], [1, 0.3]])('mixture-sampling-range follows the betas (%s, %s)', async (bc, bl) => {
    const { configFindings } = await call('audit-config', { dataset, spec: spec({ beta_corpus: bc, beta_language: bl }) })
    const range = configFindings.find((f) => f.kind === 'mixture-sampling-range')
    expect(range?.severity).toBe('info')
    const m = /^beta_corpus = ([\d.]+), beta_language = ([\d.]+): .* from ([\d.e-]+) \(([^:]+):.* to ([\d.e-]+) \(([^)]+)\)/.exec(range!.message)
    expect(m, range!.message).not.toBeNull()
    const ref = referenceRange(bc, bl)
    expect([Number(m![1]), Number(m![2])]).toEqual([bc, bl])
    expect(m![4]).toBe(ref.lo)
    expect(m![6]).toBe(ref.hi)
    // three significant digits
    expect(Math.abs(Number(m![3]) - ref.pLo)).toBeLessThanOrEqual(0.005 * ref.pLo)
    expect(Math.abs(Number(m![5]) - ref.pHi)).toBeLessThanOrEqual(0.005 * ref.pHi)
  })
})
