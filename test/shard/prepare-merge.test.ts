/**
 * A sharded dataprep merged is the unsharded one (docs/conventions.md "Sharded jobs"): for 1 to 5 shards, over
 * generated NeMo and Hugging Face parquet corpora (test/prepare/make-inputs.ts, with their missing, broken and
 * unconvertible rows), every file of the merged folder (parquet, stats TSV, skipped rows, report, state) has the
 * bytes `prepare --out` writes, and `merge --json` prints what `prepare --json` prints, apart from "timing".
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.ts'
import { makeHfParquet, makeNemo } from '../prepare/make-inputs.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-shard-prepare-'))
const inputs = { nemo: join(base, 'in', 'nemo'), hf: join(base, 'in', 'hf', 'corpus') }

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(argv, { stdout: (t) => { out += t }, stderr: (t) => { err += t } })
  return { code, out, err }
}

function tree(dir: string): Map<string, Buffer> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
  return new Map(files.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name))]))
}

const withoutTiming = (json: string) => {
  const out = json.replace(/,\n {2}"timing": \{[\s\S]*\}\n\}\n$/, '\n}\n')
  expect(out).not.toBe(json)
  return out
}

beforeAll(async () => {
  for (const d of Object.values(inputs)) mkdirSync(d, { recursive: true })
  makeNemo(inputs.nemo)
  await makeHfParquet(inputs.hf)
}, 120_000)
afterAll(() => rmSync(base, { recursive: true, force: true }))

describe.each(Object.entries(inputs))('sharded prepare of %s', (name, input) => {
  it('merges into the unsharded folder, byte for byte, for 1 to 5 shards', async () => {
    const out = join(base, `out-${name}`)
    const whole = await cli('prepare', input, '--out', out, '--corpus', 'c', '--json', '--jobs', '0')
    expect(whole.code, whole.err).toBe(0)
    const expected = tree(out)
    expect([...expected.keys()].some((p) => p.endsWith('.parquet'))).toBe(true)
    expect(JSON.parse(whole.out).skipped['unreadable-audio'] + JSON.parse(whole.out).skipped['empty-text']).toBeGreaterThan(0)
    rmSync(out, { recursive: true })
    for (let n = 1; n <= 5; n++) {
      const parts = join(base, `parts-${name}-${n}`)
      for (let i = n - 1; i >= 0; i--) {
        const r = await cli('prepare', input, '--corpus', 'c', '--shard', `${i}/${n}`, '--out', join(parts, `prepare-${i}.part`), '--jobs', '0')
        expect(r.code, r.err).toBe(0)
        expect(r.err).toContain(`shard ${i}/${n} (from --shard)`)
      }
      const merged = await cli('merge', parts, '--out', out, '--json')
      expect(merged.code, merged.err).toBe(0)
      expect(withoutTiming(merged.out), `${n} shards`).toBe(withoutTiming(whole.out))
      const got = tree(out)
      expect([...got.keys()].sort(), `${n} shards`).toEqual([...expected.keys()].sort())
      for (const [path, bytes] of expected) expect(got.get(path)!.equals(bytes), `${path} in ${n} shards`).toBe(true)
      rmSync(out, { recursive: true })
    }
  }, 240_000)
})

describe('sharded prepare: refused parts', () => {
  it('names a missing part and a part of another input', async () => {
    const parts = join(base, 'parts-refused')
    for (const i of [0, 2]) expect((await cli('prepare', inputs.nemo, '--corpus', 'c', '--shard', `${i}/3`, '--out', join(parts, `p-${i}.part`), '--jobs', '0')).code).toBe(0)
    let r = await cli('merge', parts, '--out', join(base, 'refused'))
    expect(r.code).toBe(2)
    expect(r.err).toContain('missing part: shard 1 of 3')
    expect((await cli('prepare', inputs.hf, '--corpus', 'c', '--shard', '1/3', '--out', join(base, 'other.part'), '--jobs', '0')).code).toBe(0)
    r = await cli('merge', parts, join(base, 'other.part'), '--out', join(base, 'refused'))
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/other\.part \(root .*hf.*\) is from another dataset/)
    r = await cli('prepare', inputs.nemo, '--corpus', 'c', '--shard', '0/2', '--out', base, '--jobs', '0')
    expect(r.code).toBe(2)
    expect(r.err).toContain('is a folder')
  }, 120_000)
})
