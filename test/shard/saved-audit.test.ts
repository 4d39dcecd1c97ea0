/** Saved audit results (`_mixscope_audit.json`): a merged document reads back as the report; what is not one is named. */
import { describe, expect, it } from 'vitest'
import { formatJson } from '../../src/cli/lib/io.ts'
import { auditDataset } from '../../src/engine/audit/audit.ts'
import { mergeAuditParts } from '../../src/engine/audit/partial/merge.ts'
import { auditShard } from '../../src/engine/audit/partial/shard.ts'
import { parseSavedAudit, savedAuditMismatch } from '../../src/engine/audit/saved.ts'
import { stringifyPart } from '../../src/engine/shard/part.ts'
import { auditFixture, openFixture } from '../audit/helpers.ts'

describe('saved audit results', () => {
  it('a merged document (with "timing") reads back as the unsharded report; counts compared with the open dataset', async () => {
    const root = auditFixture('meta')
    const whole = await auditDataset(await openFixture(root), { quick: true })
    const parts = await Promise.all([0, 1].map(async (i) => ({ name: `p${i}`, header: await auditShard(await openFixture(root), { index: i, count: 2 }, { quick: true }) })))
    const text = formatJson({ ...(await mergeAuditParts(parts)), timing: { shards: 2, shard_seconds: [1, 2] } })
    const saved = parseSavedAudit(text, 'audit.json')
    expect(saved.shards).toBe(2)
    expect(formatJson(saved.report)).toBe(formatJson(whole))
    expect(savedAuditMismatch(saved.report, await openFixture(root))).toBeNull()
    const other = savedAuditMismatch(saved.report, await openFixture(auditFixture('clean')))
    expect(other).toMatch(/^The result describes .*\(this dataset has \d+\).*: it may be of another dataset/)
    expect(parseSavedAudit(formatJson(whole), 'plain.json').shards).toBeNull()
  })

  it('names what is not an audit result', async () => {
    const part = stringifyPart(await auditShard(await openFixture(auditFixture('meta')), { index: 0, count: 2 }))
    expect(() => parseSavedAudit(part, 'p.json')).toThrow(/p\.json is one shard's part \(audit\), not a merged result: run "mixscope merge/)
    expect(() => parseSavedAudit('<html>', 'x')).toThrow(/audit result: x is not JSON/)
    expect(() => parseSavedAudit('{"schema_version": 2}', 'x')).toThrow(/schema_version 2/)
    expect(() => parseSavedAudit('{"schema_version": 1, "root": "r"}', 'x')).toThrow(/lacks "options", "totals", "summary", "findings", "tables"/)
  })
})
