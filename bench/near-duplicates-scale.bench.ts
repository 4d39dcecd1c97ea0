/**
 * `npm run bench -- near-duplicates-scale`: the deep audit's near-duplicate search at 10⁶ and 10⁷ rows
 * (`MIXSCOPE_BENCH_NEAR_ROWS=1e6,1e7` by default), on synthetic fingerprints (test/audit/near-duplicates/synthetic.ts:
 * 6 s clips, random words and band hashes, 40 planted groups of 2–3 variants at a bit error rate ≈ 0.08), each run a
 * child under GNU time (`/usr/bin/time -v`: wall seconds, peak RSS) — bench/near-duplicates-scale-run.ts:
 * - `spilled`, as `audit --deep` and `merge` run it: the records written to a file spill a row group at a time, then
 *   the search holding one slice and one batch of fingerprints (src/engine/audit/fingerprint-spill.ts);
 * - `memory`: every fingerprint in memory and `findNearDuplicates`, as the audit held them before, at the sizes in
 *   `MIXSCOPE_BENCH_NEAR_MEMORY_ROWS` (default 10⁶; 10⁷ needs ≈ 12 GB).
 * Checks: every planted group found as one cluster of its size (column `planted`), no other cluster. Target: peak RSS
 * ≤ 1 GB for the spilled search at every size. The spill goes under `$MIXSCOPE_BENCH_DATA`, else the OS temp folder
 * (≈ 1.3 kB a row: 13 GB at 10⁷).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchRow } from './table.ts'

const loaders = join(import.meta.dirname, '..', 'src', 'cli', 'lib', 'loaders.mjs')
const runner = join(import.meta.dirname, 'near-duplicates-scale-run.ts')

/** One run under GNU time: its JSON line, wall seconds and peak RSS (MB). */
function timedRun(rows: number, mode: 'spilled' | 'memory', dir: string): { result: Record<string, number | string> | null; seconds: number; rssMB: number; error: string } {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, '--max-old-space-size=16000', '--import', loaders, runner, String(rows), mode, dir], { encoding: 'utf8', maxBuffer: 1 << 26 })
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)
  const line = r.stdout.trim().split('\n').at(-1) ?? ''
  return {
    result: line.startsWith('{') ? JSON.parse(line) as Record<string, number | string> : null,
    seconds: wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN,
    rssMB: kb ? Number(kb[1]) / 1024 : NaN,
    error: r.stderr.split('\n').filter((l) => !/^\t/.test(l)).join('\n').slice(-600),
  }
}

export async function runNearDuplicatesScaleBench(): Promise<BenchRow[]> {
  const sizes = (process.env.MIXSCOPE_BENCH_NEAR_ROWS ?? '1e6,1e7').split(',').map(Number)
  const inMemory = new Set((process.env.MIXSCOPE_BENCH_NEAR_MEMORY_ROWS ?? '1e6').split(',').map(Number))
  const out: BenchRow[] = []
  for (const rows of sizes) {
    if (!Number.isInteger(rows) || rows <= 0) throw new Error(`bench near-duplicates-scale: ${rows} is not a row count`)
    for (const mode of ['spilled', 'memory'] as const) {
      if (mode === 'memory' && !inMemory.has(rows)) continue
      const dir = mkdtempSync(join(process.env.MIXSCOPE_BENCH_DATA ?? tmpdir(), 'mixscope-near-bench-'))
      try {
        process.stderr.write(`bench near-duplicates-scale: ${rows} rows, ${mode}...\n`)
        const t = timedRun(rows, mode, dir)
        const r = t.result
        if (!r) { out.push({ benchmark: `${mode} search`, rows, error: t.error }); continue }
        out.push({
          benchmark: `${mode} search`, rows, 'wall s': t.seconds, 'write s': Number(r.write_s), 'search s': Number(r.search_s), 'peak RSS MB': t.rssMB,
          'RSS B/row': (t.rssMB * 1024 * 1024) / rows, slices: Number(r.partitions), 'pairs compared': Number(r.compared),
          'spill GB': mode === 'spilled' ? Number(r.spill_gb) : '–',
          planted: `${r.planted_found}/${r.planted}${Number(r.clusters) === Number(r.planted) ? '' : ` (${r.clusters} clusters)`}`,
          target: mode === 'spilled' ? (t.rssMB <= 1024 && r.planted_found === r.planted && r.clusters === r.planted ? 'ok (≤ 1 GB, all found)' : 'MISSED') : '',
        })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
  return out
}
