/** Audio-level checks, the demo's planted defects, determinism, sampling, resume and the worker pool. */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { measureAudioTask } from '../../src/engine/audit/measure.ts'
import { selectAudioRows } from '../../src/engine/audit/sample.ts'
import { createAuditState } from '../../src/engine/audit/state.ts'
import type { AudioMeasurer, AuditReport } from '../../src/engine/audit/rows/types.ts'
import { createHelperPool, measureWith } from '../../src/cli/lib/helper-pool.ts'
import { auditFixture, demoRoot, openFixture, where } from './helpers.ts'

const train = 'corpus=a/split=train/language=eng_Latn/part-0.parquet'
const dev = 'corpus=a/split=dev/language=eng_Latn/part-0.parquet'
let audio: AuditReport

beforeAll(async () => {
  audio = await auditDataset(await openFixture(auditFixture('audio')), { deep: true })
})

describe('audit audio checks', () => {
  it('finds each planted audio problem on its row', () => {
    expect(where(audio.findings, 'undecodable-audio')).toEqual([`${train}:3`])
    expect(audio.summary['undecodable-audio'].severity).toBe('error')
    expect(where(audio.findings, 'audio-length-mismatch')).toEqual([`${train}:1`])
    expect(where(audio.findings, 'non-16k-audio')).toEqual([`${train}:2`])
    expect(where(audio.findings, 'silent-audio')).toEqual([`${train}:4`])
    expect(where(audio.findings, 'mostly-silent-audio')).toEqual([`${train}:7`])
    expect(where(audio.findings, 'clipped-audio')).toEqual([`${train}:5`])
    expect(where(audio.findings, 'dc-offset')).toEqual([`${train}:6`])
  })

  it('finds duplicates by encoded bytes and by decoded samples, within and across splits', () => {
    expect(where(audio.findings, 'duplicate-audio')).toEqual([`${dev}:2`])
    expect(where(audio.findings, 'duplicate-audio-across-splits')).toEqual([`${train}:0`, `${train}:8`])
    const bySamples = audio.findings.find((f) => f.kind === 'duplicate-audio-across-splits' && f.row === 8)!
    expect(bySamples.message).toContain('identical decoded samples')
  })

  it('census and per-language tables add up', () => {
    const census = audio.tables.audio_census
    expect(census.reduce((n, r) => n + (r.rows as number), 0)).toBe(audio.totals.rows_decoded)
    expect(census).toContainEqual(expect.objectContaining({ container: 'ogg', codec: 'vorbis', sample_rate: 44100, channels: 2, rows: 1 }))
    expect(audio.tables.loudness.reduce((n, r) => n + (r.rows as number), 0)).toBe(audio.totals.rows_decoded - 1)
  })

  it('the clean fixture has no audio finding', async () => {
    const clean = await auditDataset(await openFixture(auditFixture('clean')), { deep: true })
    expect(clean.totals.rows_decoded).toBe(clean.totals.rows)
    expect(clean.findings.filter((f) => f.severity !== 'info')).toEqual([])
  })

  it('finds every defect documented in public/demo/defects.json', async () => {
    const defects = JSON.parse(await readFile(fileURLToPath(new URL('../../public/demo/defects.json', import.meta.url)), 'utf8')) as { id: string; kind: string }[]
    const report = await auditDataset(await openFixture(demoRoot), { deep: true })
    for (const d of defects) expect(where(report.findings, d.kind), d.kind).toContain(d.id)
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.path}:${f.row}`)).toEqual(defects.filter((d) => d.kind === 'undecodable-audio').map((d) => d.id))
  })

  it('is deterministic: same dataset and options, same bytes', async () => {
    const again = await auditDataset(await openFixture(auditFixture('audio')), { deep: true, concurrency: 1 })
    expect(JSON.stringify(again)).toBe(JSON.stringify(audio))
  })
})

describe('audit sampling, resume and pool', () => {
  it('samples a seeded fraction per language, deterministically', async () => {
    const dataset = await openFixture(demoRoot)
    const a = await auditDataset(dataset, { sample: 0.3, seed: 7 })
    const b = await auditDataset(await openFixture(demoRoot), { sample: 0.3, seed: 7 })
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    const perLanguage = a.tables.audio_per_language
    const rowsPerLanguage = new Map<string, number>()
    for (const r of a.tables.length_cutoffs) rowsPerLanguage.set(r.language as string, r.rows as number)
    for (const r of perLanguage) expect(r.rows_decoded).toBe(Math.ceil(0.3 * rowsPerLanguage.get(r.language as string)!))
    const rows = Array.from({ length: 50 }, (_, i) => ({ file: 0, path: 'p', row: i, rowGroup: 0, corpus: 'c', language: i % 2 ? 'x' : 'y', split: 'train', audioSize: 1, text: 't' }))
    expect(selectAudioRows(rows, 0.2, 1)).not.toEqual(selectAudioRows(rows, 0.2, 2))
    expect(selectAudioRows(rows, 0.2, 1)).toEqual(selectAudioRows(rows, 0.2, 1))
  })

  it('resumes after a cancel from the saved state, decoding only what was left', async () => {
    const dataset = await openFixture(auditFixture('audio'))
    const state = createAuditState()
    const controller = new AbortController()
    let calls = 0
    const stopAfterOne: AudioMeasurer = async (task, signal) => {
      const out = await measureAudioTask(task, {}, signal)
      if (++calls === 1) controller.abort(new Error('cancelled by test'))
      return out
    }
    await expect(auditDataset(dataset, { deep: true, state, measure: stopAfterOne, concurrency: 1, signal: controller.signal })).rejects.toThrow('cancelled by test')
    expect(Object.keys(state.groups)).toHaveLength(1)
    const saved = JSON.parse(JSON.stringify(state))
    let resumedCalls = 0
    const counting: AudioMeasurer = (task, signal) => { resumedCalls++; return measureAudioTask(task, {}, signal) }
    const resumed = await auditDataset(await openFixture(auditFixture('audio')), { deep: true, state: saved, measure: counting })
    expect(resumedCalls).toBe(1)
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(audio))
    // a state from another selection is not reused
    const other = await auditDataset(dataset, { sample: 0.5, state: saved, measure: counting })
    expect(resumedCalls).toBe(1 + Object.keys(saved.groups).length)
    expect(other.options.sample).toBe(0.5)
  })

  it('a worker pool gives the same report as decoding in this thread', async () => {
    const pool = createHelperPool(2)
    try {
      const pooled = await auditDataset(await openFixture(auditFixture('audio')), { deep: true, measure: measureWith(pool), concurrency: 4 })
      expect(JSON.stringify(pooled)).toBe(JSON.stringify(audio))
    } finally {
      await pool.close()
    }
  })
})
