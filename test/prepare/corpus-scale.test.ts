/**
 * prepare at corpus scale: a manifest is read line by line over a byte stream (lines split across pieces, CRLF, a
 * BOM, gzip), a shard plans only its cut of the input rows and shards 0…N−1 together plan every row exactly once,
 * their states merged are the unsharded plan row for row (the shuffles taken over whole streams), and a plan whose
 * records are spilled past a tiny budget is the plan held in memory.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { ExactSum } from '../../src/engine/core/exact-sum.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createPlanSpill } from '../../src/engine/node/plan-spill.ts'
import { parseTsv, readTsv } from '../../src/engine/prepare/inputs/delimited.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { readLines } from '../../src/engine/prepare/inputs/lines.ts'
import { scanInput } from '../../src/engine/prepare/inputs/scan.ts'
import { planPrepare, shardRows } from '../../src/engine/prepare/plan.ts'
import { createFsSink } from '../../src/engine/node/fs-sink.ts'
import type { ClipProcessor } from '../../src/engine/prepare/clip.ts'
import { mergePrepareParts, type PartBytes, planShard, prepareShard, type PreparePart, sectionLines } from '../../src/engine/prepare/partial/part.ts'
import { runPrepare } from '../../src/engine/prepare/run.ts'
import { PlanBuilder, type PlanState } from '../../src/engine/prepare/plan-builder.ts'
import type { PlanSpill } from '../../src/engine/prepare/plan-store.ts'
import { preparePlanSummary } from '../../src/engine/prepare/summary.ts'
import type { PlannedRow, PreparePlan } from '../../src/engine/prepare/types.ts'
import { RowLog, type ScannedRow } from '../../src/engine/prepare/inputs/row-log.ts'
import type { InputRow } from '../../src/engine/prepare/inputs/types.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-corpus-scale-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A generator of small pseudo-random integers (the same manifest every run). */
function lcg(seed: number): (n: number) => number {
  let s = seed >>> 0
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    return s % n
  }
}

/**
 * A NeMo manifest of `rows` rows over 3 real files and a missing one: 6 languages (one unknown), 4 split names (one
 * unknown), 2 corpora, some with no duration, empty transcripts, broken lines, blank lines, CRLF line ends.
 */
function makeManifest(dir: string, rows: number, seed = 7): void {
  mkdirSync(join(dir, 'audio'), { recursive: true })
  for (const f of ['a', 'b', 'c']) writeFileSync(join(dir, 'audio', `${f}.wav`), 'RIFF not decoded by the plan')
  const r = lcg(seed)
  const langs = ['en', 'de', 'fr', 'hi', 'sw', 'zz-unknown']
  const splits = ['train', 'train', 'train', 'dev', 'validation', 'test', '9_hours']
  const lines: string[] = []
  for (let i = 0; i < rows; i++) {
    if (r(40) === 0) { lines.push(''); continue }
    if (r(60) === 0) { lines.push('{"audio_filepath": broken'); continue }
    const text = r(30) === 0 ? '!!! 123' : `row ${i} says ${['hello', 'grüß gott', 'नमस्ते', 'ça va'][r(4)]}, again.`
    lines.push(JSON.stringify({
      audio_filepath: `audio/${['a', 'b', 'c', 'missing'][r(25) === 0 ? 3 : r(3)]}.wav`, text,
      ...(r(10) === 0 ? {} : { duration: 0.1 + r(1000) / 97 }),
      lang: langs[r(langs.length)], split: splits[r(splits.length)], corpus: r(2) ? 'mls' : 'fleurs',
    }))
  }
  writeFileSync(join(dir, 'manifest.jsonl'), lines.map((l, i) => l + (i % 3 === 0 ? '\r\n' : '\n')).join(''))
}

/** Every planned row of every partition, in the plan's order. */
async function planRows(plan: PreparePlan): Promise<[string, PlannedRow[]][]> {
  return Promise.all(plan.partitions.map(async (p) => [p.folder, await p.rows.read(0, p.rows.length)] as [string, PlannedRow[]]))
}

/** Everything the plan says, rows included. */
async function planView(plan: PreparePlan) {
  return {
    rows: await planRows(plan),
    declared: plan.partitions.map((p) => p.declaredSeconds),
    skipped: await plan.skipped.read(0, plan.skipped.length),
    counts: plan.skipped.counts,
    languages: plan.languages, notes: plan.notes, inputRows: plan.inputRows,
  }
}

describe('manifests read line by line over a byte stream', () => {
  it('gives the lines of a file many pieces long: lines split across pieces, CRLF, a BOM, multi-byte UTF-8, gzip', async () => {
    const dir = join(base, 'lines')
    mkdirSync(dir, { recursive: true })
    const lines = ['{"a": 1}', '', 'grüß gott — नमस्ते 你好', '   ', '\uFEFFa BOM inside the file is text', 'x'.repeat(300), 'last']
    const text = lines.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join('').replace(/\n$/, '')
    const bytes = new TextEncoder().encode('\uFEFF' + text)
    writeFileSync(join(dir, 'm.jsonl'), bytes)
    writeFileSync(join(dir, 'm.jsonl.gz'), gzipSync(bytes))
    const input = await listInput(await createFsSource(dir))
    for (const file of ['m.jsonl', 'm.jsonl.gz']) {
      for (const pieceSize of [1, 2, 3, 5, 64, 1 << 20]) {
        const got: string[] = []
        const numbers: number[] = []
        for await (const { line, number } of readLines(input, file, undefined, pieceSize)) { got.push(line); numbers.push(number) }
        expect(got, `${file}, pieces of ${pieceSize}`).toEqual(lines)
        expect(numbers).toEqual(lines.map((_, i) => i + 1))
      }
    }
  })

  it('reads a TSV line by line into the table parseTsv makes of its whole text', async () => {
    const dir = join(base, 'tsv')
    mkdirSync(dir, { recursive: true })
    const text = '\uFEFFpath\tsentence\tlocale\r\na.mp3\tEin "Zitat" hier\tde\n\nb.mp3\tgrüß\r\nc.mp3\t\tde\n'
    writeFileSync(join(dir, 'train.tsv'), text)
    const input = await listInput(await createFsSource(dir))
    const got: { columns: string[]; rows: { line: number; cells: Record<string, string> }[] } = { columns: [], rows: [] }
    for await (const r of readTsv(input, 'train.tsv')) { if ('columns' in r) got.columns = r.columns; else got.rows.push(r) }
    expect(got).toEqual(parseTsv(text.slice(1)))
    expect(got.rows.map((r) => r.line)).toEqual([2, 4, 5])
  })

  it('plans a manifest read in pieces of a few bytes as it plans it read in 4 MiB pieces', async () => {
    const dir = join(base, 'pieces')
    makeManifest(dir, 300)
    const whole = await scanInput(await createFsSource(dir))
    const expected = await planView(await planPrepare(whole.scan, whole.input, { split: undefined }))
    expect(expected.inputRows).toBeGreaterThan(250)
    for (const pieceSize of [7, 333]) {
      const small = await scanInput(await createFsSource(dir), { pieceSize })
      expect(await planView(await planPrepare(small.scan, small.input)), `pieces of ${pieceSize}`).toEqual(expected)
    }
  })
})

describe('a shard plans only its cut of the input rows', () => {
  const dir = join(base, 'shards')
  makeManifest(dir, 500, 11)

  it('shards 0…N−1 together plan every row of the unsharded plan exactly once, and merged are that plan', async () => {
    const { input, scan } = await scanInput(await createFsSource(dir))
    const total = await scan.count()
    const whole = await planPrepare(scan, input)
    expect(whole.inputRows).toBe(total)
    const expected = await planView(whole)
    const indices = (rows: [string, PlannedRow[]][]) => rows.flatMap(([, r]) => r.map((x) => x.index))
    const wholeKept = indices(expected.rows).sort((a, b) => a - b)
    const wholeSkipped = expected.skipped.map((s) => s.index)
    for (let n = 1; n <= 5; n++) {
      const kept: number[] = []
      const skipped: number[] = []
      const states: { header: PlanState; file: PartBytes }[] = []
      let at = 0
      for (let i = 0; i < n; i++) {
        const range = shardRows(total, i, n)
        expect(range.first).toBe(at)
        at = range.end
        const builder = new PlanBuilder(scan.format, input)
        let read = 0
        for await (const row of scan.rows(range)) { builder.add(row); read++ }
        // the shard parsed only its own rows
        expect(read).toBe(range.end - range.first)
        const plan = builder.finish(scan.notes, range)
        expect(plan.inputRows).toBe(range.end - range.first)
        for (const [, rows] of await planRows(plan)) for (const r of rows) { expect(r.index).toBeGreaterThanOrEqual(range.first); expect(r.index).toBeLessThan(range.end); kept.push(r.index) }
        for (const s of await plan.skipped.read(0, plan.skipped.length)) skipped.push(s.index)
        // the state as a part carries it: its header through JSON, its rows as lines, read back in 7-byte pieces
        const pieces: Uint8Array[] = []
        const header = JSON.parse(JSON.stringify(await builder.writeState(async (b) => { pieces.push(b) }))) as PlanState
        const bytes = Buffer.concat(pieces)
        states.push({ header, file: { name: `shard-${i}`, size: bytes.length, read: async (o: number, l: number) => bytes.subarray(o, o + l) } })
      }
      expect(at).toBe(total)
      expect(kept.sort((a, b) => a - b), `${n} shards`).toEqual(wholeKept)
      expect(skipped, `${n} shards`).toEqual(wholeSkipped)
      const merger = PlanBuilder.merger(states[0].header)
      for (const { header, file } of states) await merger.add(header, sectionLines(file, 0, file.size, 7))
      const merged = merger.builder.finish(states[0].header.notes)
      expect(await planView(merged), `${n} shards merged`).toEqual(expected)
    }
  })

  it('prepare --dry-run --shard i/N prints the summary of its rows; the partitions of N shards add up to the whole', async () => {
    const { main } = await import('../../src/cli/main.ts')
    const run = async (...argv: string[]) => {
      let out = ''
      const code = await main(['prepare', dir, '--dry-run', '--json', ...argv], { stdout: (t) => { out += t }, stderr: () => {} })
      expect(code).toBe(0)
      return JSON.parse(out) as { shard?: { first: number; end: number; of: number }; plan: { input_rows: number; partitions: { corpus: string; split: string; language: string; rows: number }[] } }
    }
    const whole = await run()
    const sums = new Map<string, number>()
    let rows = 0
    for (let i = 0; i < 3; i++) {
      const part = await run('--shard', `${i}/3`)
      expect(part.shard).toEqual({ index: i, count: 3, ...shardRows(whole.plan.input_rows, i, 3) })
      rows += part.plan.input_rows
      for (const p of part.plan.partitions) sums.set(`${p.corpus}/${p.split}/${p.language}`, (sums.get(`${p.corpus}/${p.split}/${p.language}`) ?? 0) + p.rows)
    }
    expect(rows).toBe(whole.plan.input_rows)
    expect(sums).toEqual(new Map(whole.plan.partitions.map((p) => [`${p.corpus}/${p.split}/${p.language}`, p.rows])))
  })
})

describe('the plan under a memory budget', () => {
  it('is the same plan when its records are spilled to a file past a tiny budget', async () => {
    const dir = join(base, 'budget')
    makeManifest(dir, 400, 3)
    const { input, scan } = await scanInput(await createFsSource(dir))
    const expected = await planView(await planPrepare(scan, input))
    let spilled = 0
    let opened = 0
    let closed = 0
    const spill = async (): Promise<PlanSpill> => {
      opened++
      const file = await createPlanSpill()
      return { ...file, append: (bytes) => { spilled += bytes.length; return file.append(bytes) }, close: () => { closed++; return file.close() } }
    }
    const plan = await planPrepare(scan, input, {}, { budget: { bytes: 300, slabBytes: 100, spill } })
    expect(await planView(plan)).toEqual(expected)
    expect(await preparePlanSummary(plan)).toEqual(await preparePlanSummary(await planPrepare(scan, input)))
    expect(spilled).toBeGreaterThan(10_000)
    expect(closed).toBe(0)
    await plan.close()
    expect(opened).toBeGreaterThan(0)
    expect(closed).toBe(opened)
  })

  it('a dry run keeps no rows, only what its summary shows', async () => {
    const dir = join(base, 'summary-only')
    makeManifest(dir, 200, 5)
    const { input, scan } = await scanInput(await createFsSource(dir))
    const full = await planPrepare(scan, input)
    const summaryOnly = await planPrepare(scan, input, {}, { keepRows: false })
    expect(await preparePlanSummary(summaryOnly)).toEqual(await preparePlanSummary(full))
    await expect(summaryOnly.partitions[0].rows.read(0, 1)).rejects.toThrow('holds no rows')
  })
})

describe('a sharded dataprep\'s parts are written and read a stretch at a time', () => {
  /** A stand-in converter: bytes from the row's place, one row in 9 unreadable (the merge never converts again). */
  const processClip: ClipProcessor = async (task) => {
    const id = new TextEncoder().encode(task.id)
    if (id.reduce((a, b) => a + b, 0) % 9 === 0) return { ok: false, error: `${task.id}: cannot decode "it" (made up)`, reason: 'unreadable-audio' }
    return { ok: true, audio: id, audioSize: 160 * id.length, sourceRate: 44100, sourceChannels: 2, sourceFrames: 441 * id.length }
  }
  const tree = (dir: string) => new Map(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name))]))

  it('merges parts of hundreds of clips each, under a tiny plan budget, into the unsharded folder byte for byte', async () => {
    const dir = join(base, 'parts')
    makeManifest(dir, 900, 13)
    const { input, scan } = await scanInput(await createFsSource(dir))
    const options = { corpus: 'c' }
    const wholeOut = join(base, 'parts-whole')
    await runPrepare({ plan: await planPrepare(scan, input, options), input, sink: createFsSink(wholeOut), processClip, createdBy: 'test' })
    const expected = tree(wholeOut)
    expect(expected.size).toBeGreaterThan(5)
    for (const n of [1, 3]) {
      const parts: { bytes: PartBytes; part: PreparePart }[] = []
      let failed = 0
      for (let i = n - 1; i >= 0; i--) {
        const name = join(base, `parts-${n}`, `p-${i}.part`)
        const planned = await planShard(scan, input, options, { index: i, count: n }, { bytes: 200, slabBytes: 64, spill: () => createPlanSpill() })
        const part = await prepareShard({ index: i, count: n }, { planned, input, root: dir, processClip, out: await createFsSink(join(base, `parts-${n}`)).create(`p-${i}.part`), createdBy: 'test', budget: { bytes: 1000, slabBytes: 300, spill: () => createPlanSpill() } })
        // the header holds no row: a few kB whatever the shard's size
        expect(JSON.stringify(part).length).toBeLessThan(5000)
        expect(part.sections.clips.count).toBeGreaterThan(n === 1 ? 500 : 150)
        failed += part.sections.clips.failed
        const bytes = readFileSync(name)
        parts.push({ bytes: { name, size: bytes.length, read: async (o, l) => bytes.subarray(o, o + l) }, part })
      }
      expect(failed).toBeGreaterThan(20)
      const out = join(base, `parts-merged-${n}`)
      await mergePrepareParts(parts, { sink: createFsSink(out), budget: { bytes: 200, slabBytes: 64, spill: () => createPlanSpill() } })
      const got = tree(out)
      expect([...got.keys()].sort()).toEqual([...expected.keys()].sort())
      for (const [path, bytes] of expected) expect(got.get(path)!.equals(bytes), `${path}, ${n} shards`).toBe(true)
    }
  })

  it('reads a section\'s lines whatever the pieces: lines across pieces, multi-byte UTF-8 cut in two', async () => {
    const lines = ['["a", "grüß"]', 'null', '"नमस्ते"', '', '{"x": 1}']
    const bytes = new TextEncoder().encode('xx' + lines.join('\n') + '\nyy')
    const file: PartBytes = { name: 't', size: bytes.length, read: async (o, l) => bytes.subarray(o, o + l) }
    for (const piece of [1, 2, 3, 5, 1000]) {
      const got: string[] = []
      for await (const l of sectionLines(file, 2, bytes.length - 4, piece)) got.push(l)
      expect(got, `pieces of ${piece}`).toEqual(lines)
    }
  })
})

describe('rows of other layouts wait in a log of bytes, spilled past a budget', () => {
  /** An audiofolder of `rows` rows (quoted commas and newlines in transcripts, 3 languages, 2 split folders). */
  function makeAudiofolderCsv(dir: string, rows: number): void {
    const r = lcg(5)
    for (const split of ['train', 'test']) {
      mkdirSync(join(dir, split), { recursive: true })
      writeFileSync(join(dir, split, 'a.wav'), 'RIFF')
      const lines = ['file_name,transcription,language']
      for (let i = 0; i < rows / 2; i++) {
        const text = r(7) === 0 ? `"line ${i}, with a comma\nand a ""quote"""` : `plain ${i} ${['ça', 'नमस्ते', 'x'][r(3)]}`
        lines.push(`${r(5) ? 'a.wav' : `gone-${i}.wav`},${text},${['en', 'fr', 'hi'][r(3)]}`)
      }
      writeFileSync(join(dir, split, 'metadata.csv'), lines.join(r(2) ? '\r\n' : '\n') + '\n')
    }
  }

  it('gives the rows it was given, numbered, from any row on', async () => {
    const rows: ScannedRow[] = [
      { where: 'a.tsv:2', audio: { kind: 'file', path: 'clips/a.mp3' }, text: 'ça va\n"quoted"', language: 'fr', split: 'train', corpus: null, duration: null, problem: null },
      { where: 'b.tar:k', audio: { kind: 'member', file: 'b.tar', member: 'k.flac', start: 512, end: 2048, segment: { offset: 1.5, duration: null } }, text: null, language: null, split: null, corpus: 'c', duration: 2.25, problem: null },
      { where: 'd.parquet:3', audio: { kind: 'parquet', file: 'd.parquet', row: 3, rowGroup: 1 }, text: 'नमस्ते', language: 'hi', split: 'dev', corpus: null, duration: null, problem: null },
      { where: 'e.csv:9', audio: null, text: '', language: null, split: 'test', corpus: null, duration: null, problem: { reason: 'bad-input-row', message: 'e.csv:9: empty "file_name"' } },
    ]
    const many = Array.from({ length: 300 }, (_, i) => ({ ...rows[i % rows.length], where: `${rows[i % rows.length].where}#${i}` }))
    let spilled = 0
    const log = new RowLog({ bytes: 256, slabBytes: 64, spill: async () => { const f = await createPlanSpill(); return { ...f, append: (b) => { spilled += b.length; return f.append(b) } } } })
    for (const row of many) await log.add(row)
    expect(spilled).toBeGreaterThan(10_000)
    const read = async (range?: { first: number; end: number }) => { const out: InputRow[] = []; for await (const x of log.read(range)) out.push(x); return out }
    const expected = many.map((row, index) => ({ ...row, index }))
    expect(await read()).toEqual(expected)
    for (const [first, end] of [[0, 1], [17, 18], [99, 250], [290, 400], [300, 300]]) expect(await read({ first, end }), `${first}–${end}`).toEqual(expected.slice(first, end))
    await log.close()
  })

  it('plans a 3,000-row audiofolder spilled past a tiny budget as it plans it held in memory, whole and in shards', async () => {
    const dir = join(base, 'audiofolder-log')
    makeAudiofolderCsv(dir, 3000)
    const inMemory = await scanInput(await createFsSource(dir))
    const spilledScan = await scanInput(await createFsSource(dir), { budget: { bytes: 1000, slabBytes: 512, spill: () => createPlanSpill() } })
    const options = { corpus: 'c' }
    expect(await spilledScan.scan.count()).toBe(3000)
    expect(await planView(await planPrepare(spilledScan.scan, spilledScan.input, options))).toEqual(await planView(await planPrepare(inMemory.scan, inMemory.input, options)))
    for (const range of [shardRows(3000, 1, 3), shardRows(3000, 6, 7)]) {
      const a = await planPrepare(spilledScan.scan, spilledScan.input, options, { range })
      const b = await planPrepare(inMemory.scan, inMemory.input, options, { range })
      expect(await planView(a)).toEqual(await planView(b))
      expect(a.inputRows).toBe(range.end - range.first)
    }
    await spilledScan.scan.close()
  })
})

describe('ExactSum', () => {
  it('rounds once, whatever the order and grouping of the values (math.fsum)', () => {
    const sum = (xs: number[]) => { const s = new ExactSum(); for (const x of xs) s.add(x); return s.value() }
    expect(sum(Array<number>(10).fill(0.1))).toBe(1)
    expect(sum([1e100, 1, -1e100, 1e-100, 1e50, -1, -1e50])).toBe(1e-100)
    expect(sum([])).toBe(0)
    const r = lcg(1)
    const xs = Array.from({ length: 2000 }, () => (r(100000) / 7) * (r(2) ? 1 : -1) * 10 ** (r(6) - 3))
    const reversed = sum([...xs].reverse())
    expect(sum(xs)).toBe(reversed)
    const a = new ExactSum()
    const b = new ExactSum()
    xs.forEach((x, i) => (i < 700 ? a : b).add(x))
    a.addSum(JSON.parse(JSON.stringify(b)) as number[])
    expect(a.value()).toBe(reversed)
  })
})
