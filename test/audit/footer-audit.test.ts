/**
 * The footer-level audit (src/engine/audit/footer-audit.ts) reads nothing, and what it says is what the full audit
 * says about the same things: the config's findings, the dataset's own findings, the splits, mixture and ranks
 * checks' findings and tables, and the rows and hours.
 */
import { describe, expect, test } from 'vitest'
import { auditFromFooters } from '../../src/engine/audit/footer-audit.ts'
import { auditWithConfig } from '../../src/engine/audit/configured.ts'
import { resolveConfig } from '../../src/engine/pipeline/config/resolve.ts'
import { openDataset } from '../../src/engine/dataset/open.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { auditFixture, demoRoot } from './helpers.ts'

/** Finding kinds only a read of the rows gives (text, length, script, leakage checks). */
const rowKinds = /^(transcript-leakage|empty-text|fast-speech|speaking-rate-outlier|foreign-script|above-max-audio-len|below-min-audio-len|unreadable-row-group)$/

describe('the audit from footers', () => {
  for (const [name, root, preset] of [['the demo', demoRoot, 'ctc-finetune'], ['the meta fixture', auditFixture('meta'), null]] as const) {
    test(`${name}: what it says agrees with the full audit, and it reads nothing`, async () => {
      // the explorer's open reads every file's `audio_size` facts (or takes them from the index)
      const dataset = await openDataset(await createFsSource(root), { facts: true })
      const resolved = resolveConfig({ preset, recipe: null, overrides: [] })
      const before = dataset.source.counters.requests
      const quick = await auditFromFooters(dataset, resolved)
      expect(dataset.source.counters.requests).toBe(before)
      const full = await auditWithConfig(dataset, resolved)
      expect(quick.config_findings).toEqual(full.config_findings)
      expect(quick.totals.rows).toBe(full.totals.rows)
      expect(quick.totals.hours).toBeCloseTo(full.totals.hours, 9)
      expect(quick.totals.files).toBe(full.totals.files)
      // the same findings of each kind it has; every kind it lacks is one only the rows can give
      const kinds = new Set(quick.findings.map((f) => f.kind))
      expect(kinds.size).toBeGreaterThanOrEqual(3)
      expect(quick.findings).toEqual(full.findings.filter((f) => kinds.has(f.kind)))
      for (const f of full.findings) if (!kinds.has(f.kind)) expect(f.kind).toMatch(rowKinds)
      for (const table of ['splits', 'rank_fragments', 'row_groups', 'mixture'] as const) {
        if (full.tables[table] !== undefined) expect(quick.tables[table], table).toEqual(full.tables[table])
      }
    })
  }
})
