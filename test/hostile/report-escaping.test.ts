/**
 * No script from data in the reports: a folder named `corpus=<img src=x onerror=alert(1)>` and a transcript holding
 * `<script>` are text in the Markdown report as cmark (the CommonMark reference renderer) renders it, and in the HTML
 * report, which also carries a Content-Security-Policy that forbids scripts.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/run-cli.ts'
import { tempDir } from './helpers.ts'

const evilFolder = 'corpus=<img src=x onerror=alert(1)>`x`/split=train/language=eng_Latn'

function dataset(): string {
  const root = tempDir()
  mkdirSync(join(root, evilFolder), { recursive: true })
  writeFileSync(join(root, evilFolder, 'part-0.parquet'), new Uint8Array(parquetWriteBuffer({
    columnData: [
      { name: 'text', type: 'STRING', data: ['<script>alert(1)</script> *bold* [link](javascript:alert(1))', ''] },
      { name: 'audio_size', type: 'INT64', data: [16000n, 0n] },
    ],
  })))
  return root
}

describe('reports render data as text', () => {
  test('the Markdown report, rendered by cmark, has no element or link from the data', async () => {
    const root = dataset()
    const report = join(tempDir(), 'report.md')
    const run = await runCli(['audit', root, '--report', report])
    expect(run.stderr).not.toMatch(/\n\s+at /)
    const markdown = readFileSync(report, 'utf8')
    expect(markdown).toContain('onerror') // the data is in the report…
    const rendered = execFileSync('cmark', ['--unsafe'], { input: markdown }).toString()
    expect(rendered).not.toMatch(/<img|<script|<a /i) // …as text only
    expect(rendered).toMatch(/&lt;img src=x onerror=alert\(1\)&gt;/)
  })

  test('the HTML report escapes the data and forbids scripts with a Content-Security-Policy', async () => {
    const root = dataset()
    const report = join(tempDir(), 'report.html')
    await runCli(['audit', root, '--report', report])
    const html = readFileSync(report, 'utf8')
    expect(html).not.toMatch(/<img|<script/i)
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/)
  })
})
