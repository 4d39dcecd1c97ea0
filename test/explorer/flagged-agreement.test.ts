/**
 * One set of flagged rows and one finding vocabulary on the demo (src/engine/audit/flagged.ts,
 * docs/interpretations.md "Flagged rows and row findings"): `mixscope audit --json --flagged FILE --report x.html`
 * (the CLI's entry) and the worker's kinds the Audit view, the Examples list and the Inspector call (`audit`,
 * `examples-search` with "only flagged", `example-facts`) give the same flagged ids, and each row the same count and
 * kinds, with the app's default preset and with the reference defaults. DuckDB (an independent reader) gives the
 * rows the length filter and the empty-text filter drop, which must be among them with those kinds.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import type { FlaggedRow } from '../../src/engine/audit/flagged.ts'
import type { AuditReport } from '../../src/engine/audit/rows/types.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { resolveConfig, type ConfigSpec } from '../../src/engine/pipeline/config/resolve.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'

const root = 'public/demo'
const source = await createFsSource(root)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
function request<K extends RequestKind>(kind: K, params: Requests[K]['params']): Promise<Requests[K]['result']> {
  return handle({ kind, id: nextId++, ...params } as never, {}) as Promise<Requests[K]['result']>
}
const { dataset } = await request('open', { source: { type: 'url', url: 'unused' } })
const dir = await mkdtemp(join(tmpdir(), 'mixscope-flagged-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const db = await (await DuckDBInstance.create(':memory:')).connect()
/** Example ids (`<file>:<row>`, the file relative to the dataset's root) of the rows `where` selects, by DuckDB. */
async function duckIds(where: string): Promise<string[]> {
  const rows = (await db.runAndReadAll(`
    select regexp_replace(filename, '^.*public/demo/', '') || ':' || (file_row_number)::varchar as id
    from read_parquet('${root}/version=0/**/*.parquet', filename = true, file_row_number = true, hive_partitioning = false)
    where ${where} order by id`)).getRows()
  return rows.map((r) => String(r[0]))
}

/** The CLI's audit of the demo with `args`: its report, its `--flagged` rows, its HTML report. */
async function cliAudit(args: string[], name: string): Promise<{ report: AuditReport; flagged: FlaggedRow[]; html: string }> {
  let out = ''
  const flaggedFile = join(dir, `${name}.jsonl`)
  const htmlFile = join(dir, `${name}.html`)
  await main(['audit', root, '--json', '--flagged', flaggedFile, '--report', htmlFile, ...args], { stdout: (t) => { out += t }, stderr: () => undefined })
  const flagged = (await readFile(flaggedFile, 'utf8')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as FlaggedRow)
  return { report: JSON.parse(out) as AuditReport, flagged, html: await readFile(htmlFile, 'utf8') }
}

const presets: [string, string[], ConfigSpec][] = [
  ['ctc-finetune (the app\'s default)', ['--preset', 'ctc-finetune'], { preset: 'ctc-finetune', recipe: null, overrides: { split: 'train' } }],
  ['the reference defaults', [], { preset: null, recipe: null, overrides: {} }],
]

describe.each(presets)('flagged rows with %s', (name, args, spec) => {
  test('CLI (--json, --flagged, --report), Audit, Examples and Inspector agree', async () => {
    const cli = await cliAudit(args, name.replace(/\W+/g, '-'))
    const config = resolveConfig(spec).config
    expect(cli.report.options).toMatchObject({ split: config.split, min_audio_len: config.min_audio_len, max_audio_len: config.max_audio_len })
    const ids = cli.flagged.map((r) => r.id)
    // --json: its (uncapped here) row findings give the same rows, and its totals count them
    expect(cli.report.findings_omitted).toBe(0)
    const fromJson = new Map<string, Set<string>>()
    for (const f of cli.report.findings) if (f.row !== null) fromJson.set(`${f.path}:${f.row}`, (fromJson.get(`${f.path}:${f.row}`) ?? new Set()).add(f.kind))
    expect([...fromJson.keys()].sort()).toEqual([...ids].sort())
    expect(cli.report.totals.flagged_rows).toBe(ids.length)
    expect(cli.html).toContain(`Flagged: ${ids.length} of 203 rows`)

    // the Audit view's run (the worker's `audit`, with the cheap audio check as the view runs it)
    const audit = await request('audit', { dataset, spec, deep: false, state: null, quick: true })
    expect(audit.report.totals.flagged_rows).toBe(ids.length)
    expect(audit.flaggedJsonl.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as FlaggedRow)).toEqual(cli.flagged)

    // Examples: "only flagged" lists these rows, each with the audit's count and kinds
    const page = await request('examples-search', { dataset, filter: { flaggedOnly: true }, offset: 0, limit: 1000, spec })
    expect(page.audioChecked).toBe(true)
    expect(page.total).toBe(ids.length)
    const listed = new Map(page.rows.map((r) => [r.id, r]))
    expect([...listed.keys()].sort()).toEqual([...ids].sort())
    for (const r of cli.flagged) {
      expect(listed.get(r.id)!.findings).toBe(r.kinds.length)
      expect([...listed.get(r.id)!.kinds].sort()).toEqual(r.kinds)
    }
    const all = await request('examples-search', { dataset, filter: {}, offset: 0, limit: 1000, spec })
    expect(all.rows.filter((r) => r.findings > 0).map((r) => r.id).sort()).toEqual([...ids].sort())

    // the Inspector: each flagged row counts the same kinds, and an unflagged row none
    const inspectConfig = { ...config }
    for (const r of cli.flagged) {
      const facts = await request('example-facts', { dataset, exampleId: r.id, config: inspectConfig })
      expect(facts.rowFindings.count, r.id).toBe(r.kinds.length)
      expect([...facts.rowFindings.kinds].sort(), r.id).toEqual(r.kinds)
    }
    const clean = all.rows.find((r) => r.findings === 0)!
    expect((await request('example-facts', { dataset, exampleId: clean.id, config: inspectConfig })).rowFindings).toEqual({ count: 0, kinds: [], severity: null })

    // an independent reader: the rows the length filter and the empty-text filter drop carry those kinds
    const byId = new Map(cli.flagged.map((r) => [r.id, r.kinds]))
    const below = await duckIds(`audio_size < ${config.min_audio_len}`)
    const above = await duckIds(`audio_size > ${config.max_audio_len}`)
    const empty = await duckIds(`length(text) = 0`)
    expect(below.length + empty.length).toBeGreaterThan(0)
    for (const id of below) expect(byId.get(id), id).toContain('below-min-audio-len')
    for (const id of above) expect(byId.get(id), id).toContain('above-max-audio-len')
    for (const id of empty) expect(byId.get(id), id).toContain('empty-text')
    expect(ids.filter((id) => byId.get(id)!.includes('below-min-audio-len')).sort()).toEqual(below)
  }, 60_000)
})
