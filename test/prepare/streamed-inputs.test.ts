/**
 * Inputs read a piece at a time, never as one string: audiofolder's `metadata.csv` (RFC 4180 records that may span
 * lines) and Lhotse's older `.json` manifests (a JSON array, element by element). Large generated inputs are read
 * through `scanInput` with small pieces and compared with Python's own parsers (csv, json); the reads stay at the
 * piece size, and a record or document over its limit is refused with a message that says what to do.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { CsvRecords, MAX_CSV_RECORD_CHARS, parseCsv, readCsv } from '../../src/engine/prepare/inputs/delimited.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { MAX_JSON_DOCUMENT_BYTES, readJsonArray } from '../../src/engine/prepare/inputs/json-array.ts'
import { scanInput } from '../../src/engine/prepare/inputs/scan.ts'
import type { InputRow } from '../../src/engine/prepare/inputs/types.ts'
import { mulberry32 } from '../../src/engine/random/mulberry32.ts'
import { runPython } from './python.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-streamed-inputs-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

async function allRows(scan: { rows(): AsyncIterable<InputRow> }): Promise<InputRow[]> {
  const rows: InputRow[] = []
  for await (const r of scan.rows()) rows.push(r)
  return rows
}

/** Wraps a folder's source so that the largest single read is recorded. */
async function recordingSource(dir: string) {
  const source = await createFsSource(dir)
  const stats = { largest: 0 }
  const read = source.read.bind(source)
  source.read = (path, start, end, options) => {
    stats.largest = Math.max(stats.largest, end - start)
    return read(path, start, end, options)
  }
  return { source, stats }
}

describe('audiofolder metadata.csv, streamed', () => {
  it('reads 100,000 records (quoted commas, quotes, LF and CRLF inside fields, a BOM) as Python\'s csv does', async () => {
    const dir = join(base, 'csv')
    mkdirSync(dir)
    // Python writes the file (csv.writer, CRLF line ends, quoting where needed) and reads it back with DictReader
    const expected = JSON.parse(runPython(`
import sys, csv, json, random
path, n = sys.argv[1], int(sys.argv[2])
r = random.Random(4)
words = ['alpha', 'beta, gamma', 'say "hi"', 'two\\nlines', 'crlf\\r\\ninside', 'ünïcödé', 'comma,', '"', '']
with open(path, 'w', newline='', encoding='utf-8-sig') as f:
    w = csv.writer(f)
    w.writerow(['file_name', 'transcription', 'language'])
    for i in range(n):
        w.writerow([f'clips/{i}.wav', ' '.join(r.choice(words) for _ in range(r.randint(1, 4))), r.choice(['en', 'de'])])
with open(path, newline='', encoding='utf-8-sig') as f:
    rows = list(csv.DictReader(f))
print(json.dumps({'count': len(rows), 'texts': [row['transcription'] for row in rows], 'languages': ''.join(row['language'][0] for row in rows)}))
`, [join(dir, 'metadata.csv'), '100000'])) as { count: number; texts: string[]; languages: string }
    const { source, stats } = await recordingSource(dir)
    const { scan } = await scanInput(source, { inputFormat: 'audiofolder' })
    const rows = await allRows(scan)
    expect(rows.length).toBe(expected.count)
    expect(expected.count).toBe(100_000)
    expect(rows.map((r) => r.text)).toEqual(expected.texts)
    expect(rows.map((r) => r.language![0]).join('')).toBe(expected.languages)
    expect(rows[123].audio).toEqual({ kind: 'file', path: 'clips/123.wav' })
    // the file (~10 MB) was read in pieces, never whole
    expect(stats.largest).toBeLessThanOrEqual(4 << 20)
  }, 60_000)

  it('cuts records the same however the text is split into pieces', () => {
    const random = mulberry32(11)
    const cells = ['a', '"q,"', '"x""y"', '"l1\nl2"', '"c\r\nd"', '', ' s ', '"\r"']
    for (let t = 0; t < 200; t++) {
      let text = 'h1,h2\r\n'
      const n = 1 + Math.floor(random() * 6)
      for (let i = 0; i < n; i++) text += [0, 1].map(() => cells[Math.floor(random() * cells.length)]).join(',') + (random() < 0.5 ? '\n' : random() < 0.5 ? '\r\n' : '\r')
      if (random() < 0.3) text += '\n'
      const whole = parseCsv(text)
      const parser = new CsvRecords()
      const records: { line: number; fields: string[] }[] = []
      for (let at = 0; at < text.length;) {
        const step = 1 + Math.floor(random() * 4)
        records.push(...parser.push(text.slice(at, at + step)))
        at += step
      }
      records.push(...parser.end())
      expect(records.slice(1).map((r) => r.fields), JSON.stringify(text)).toEqual(whole.rows.map((r) => whole.columns.map((c) => r.cells[c])))
      expect(records.slice(1).map((r) => r.line)).toEqual(whole.rows.map((r) => r.line))
    }
  })

  it('refuses a record over the limit (an unclosed quote) instead of holding the rest of the file', async () => {
    const dir = join(base, 'csv-unclosed')
    mkdirSync(dir)
    writeFileSync(join(dir, 'metadata.csv'), 'file_name,text\na.wav,"never closed\n' + 'x,y\n'.repeat(Math.ceil(MAX_CSV_RECORD_CHARS / 4) + 10))
    const input = await listInput(await createFsSource(dir))
    const read = async () => { for await (const r of readCsv(input, 'metadata.csv', undefined, 1 << 16)) void r }
    await expect(read()).rejects.toThrow(/metadata\.csv:2: a record of more than 16777216 characters \(an unclosed quote\?\)/)
  })
})

describe('Lhotse .json manifests, streamed', () => {
  it('reads a 100,000-cut JSON array element by element, as Python\'s json reads it', async () => {
    const dir = join(base, 'lhotse')
    mkdirSync(dir)
    const expected = JSON.parse(runPython(`
import sys, json, random
path, n = sys.argv[1], int(sys.argv[2])
r = random.Random(9)
texts = ['plain', 'with [brackets] and {braces}', 'a "quoted" word', 'back\\\\slash', 'ünïcödé 😀', 'comma, ]', '']
cuts = [{'id': f'c{i}', 'start': 0, 'duration': 1.5, 'channel': 0, 'type': 'MonoCut',
         'recording': {'id': f'r{i}', 'sources': [{'type': 'file', 'channels': [0], 'source': f'audio/{i}.wav'}], 'sampling_rate': 16000, 'num_samples': 24000, 'duration': 1.5},
         'supervisions': [{'id': f's{i}', 'recording_id': f'r{i}', 'start': 0, 'duration': 1.5, 'text': r.choice(texts) + f' {i}', 'language': 'English'}]}
        for i in range(n)]
with open(path, 'w', encoding='utf-8') as f:
    json.dump(cuts, f, indent=1, ensure_ascii=bool(r.random() < 0.5))
with open(path, encoding='utf-8') as f:
    back = json.load(f)
print(json.dumps({'count': len(back), 'texts': [c['supervisions'][0]['text'] for c in back]}))
`, [join(dir, 'cuts_train.json'), '100000'])) as { count: number; texts: string[] }
    const { source, stats } = await recordingSource(dir)
    const { scan } = await scanInput(source, { inputFormat: 'lhotse' })
    const rows = await allRows(scan)
    expect(expected.count).toBe(100_000)
    expect(rows.length).toBe(expected.count)
    expect(rows.map((r) => r.text)).toEqual(expected.texts)
    expect(rows.every((r) => r.problem === null)).toBe(true)
    expect(rows[5].where).toBe('cuts_train.json[5]')
    expect(stats.largest).toBeLessThanOrEqual(4 << 20)
  }, 60_000)

  it('gives JSON.parse\'s elements however the bytes are split, and says where an array is broken', async () => {
    const dir = join(base, 'json-small')
    mkdirSync(dir)
    const docs: [string, string][] = [
      ['ok.json', ' \n[ {"a": "]}\\"[{", "b": [1, {"c": null}]}, 12.5e3 , "s\\\\", true,null , [], {} ]\n'],
      ['empty.json', '[]'],
      ['one.json', '{"id": "x", "v": [1,2]}'],
      ['bom.json', '\uFEFF[1,2]'],
      ['truncated.json', '[{"a": 1}, {"b": '],
      ['trailing.json', '[1, 2] 3'],
      ['bad-element.json', '[{"a": 1}, {"b" 2}, {"c": 3}]'],
      ['double-comma.json', '[1,,2]'],
    ]
    for (const [name, text] of docs) writeFileSync(join(dir, name), text)
    const input = await listInput(await createFsSource(dir))
    const read = async (name: string, piece: number) => {
      const out: unknown[] = []
      for await (const item of readJsonArray(input, name, undefined, piece)) out.push(item.error ?? item.value)
      return out
    }
    for (const piece of [1, 3, 1 << 20]) {
      expect(await read('ok.json', piece)).toEqual(JSON.parse(docs[0][1]))
      expect(await read('empty.json', piece)).toEqual([])
      expect(await read('one.json', piece)).toEqual([{ id: 'x', v: [1, 2] }])
      expect(await read('bom.json', piece)).toEqual([1, 2])
      expect(await read('truncated.json', piece)).toEqual([{ a: 1 }, 'not JSON (the array has no closing "]")'])
      expect(await read('trailing.json', piece)).toEqual([1, 2, 'not JSON (text after the closing "]")'])
      const bad = await read('bad-element.json', piece)
      expect(bad[0]).toEqual({ a: 1 })
      expect(bad[1]).toMatch(/^not JSON \(/)
      expect(bad[2]).toEqual({ c: 3 })
      expect(await read('double-comma.json', piece)).toEqual([1, 'not JSON (an empty element: ",")'])
    }
  })

  it('refuses a JSON document that is not an array over the limit, telling to convert to .jsonl', async () => {
    const dir = join(base, 'json-big')
    mkdirSync(dir)
    writeFileSync(join(dir, 'cuts.json'), '{"pad": "' + 'x'.repeat(MAX_JSON_DOCUMENT_BYTES) + '"}')
    const input = await listInput(await createFsSource(dir))
    const read = async () => { for await (const r of readJsonArray(input, 'cuts.json')) void r }
    await expect(read()).rejects.toThrow(/cuts\.json: a JSON document that is not an array is over 67108864 bytes; convert the manifest to JSON Lines \(\.jsonl/)
  })
})
