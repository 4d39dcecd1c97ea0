/** Spawns `npx mixscope audit` and checks outputs, files and exit codes (docs/conventions.md). */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditFixture } from './helpers.ts'
import { spawnMixscope, type CliRun } from '../helpers/spawn-cli.ts'

function mixscope(args: string[]): Promise<CliRun> {
  return spawnMixscope(['audit', ...args])
}

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-audit-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('mixscope audit', () => {
  it('prints help and rejects bad arguments with exit 2', async () => {
    const help = await mixscope(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--sample F')
    expect((await mixscope([auditFixture('meta'), '--sample', '2'])).code).toBe(2)
    expect((await mixscope([auditFixture('meta'), '--preset', 'no-such-preset'])).code).toBe(2)
    expect((await mixscope([join(dir, 'missing')])).code).toBe(2)
    expect((await mixscope([auditFixture('meta'), '--report', join(dir, 'r.pdf')])).code).toBe(2)
  })

  it('metadata audit: JSON shape, exit 0 without errors, Markdown report and flagged JSONL', async () => {
    const md = join(dir, 'report.md')
    const flagged = join(dir, 'flagged.jsonl')
    const r = await mixscope([auditFixture('meta'), '--preset', 'ctc-finetune', '--no-audio-check', '--json', '--report', md, '--flagged', flagged])
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ schema_version: 1, root: auditFixture('meta'), options: { min_audio_len: 32000, max_audio_len: 960000, deep: false } })
    expect(report.summary['empty-text']).toMatchObject({ count: 1, rows: 1 })
    expect(await readFile(md, 'utf8')).toContain('## Summary')
    const ids = (await readFile(flagged, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).id)
    expect(ids).toContain('corpus=a/split=train/language=rus_Cyrl/part-0.parquet:2')
    const again = await mixscope([auditFixture('meta'), '--preset', 'ctc-finetune', '--no-audio-check', '--json'])
    expect(again.stdout).toBe(r.stdout)
  })

  it('deep audit with the worker pool: exit 1 on an undecodable row, HTML report, resumable state file', async () => {
    const html = join(dir, 'report.html')
    const state = join(dir, 'state.json')
    const r = await mixscope([auditFixture('audio'), '--deep', '--workers', '2', '--report', html, '--state', state])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/undecodable-audio\s+error\s+1\s+1/)
    expect(await readFile(html, 'utf8')).toMatch(/^<!doctype html>/)
    const saved = JSON.parse(await readFile(state, 'utf8'))
    expect(saved).toMatchObject({ format: 'mixscope-audit-state', version: 1 })
    expect(Object.keys(saved.groups)).toHaveLength(2)
  })
})
