/**
 * One streamed transcript search (the Examples view's above 2·10⁶ rows, src/engine/examples/text-scan.ts) over a local
 * dataset, run as a child of `bench/rows.bench.ts` under GNU time: opens `<root>`, searches `<needle>` to the end,
 * reads the first page, and prints `{ matches, listed, rows, open_s, scan_s }` as JSON.
 * Usage: tsx bench/text-scan-run.ts <root> <needle>
 */
import { createFsSource, openDataset, TextScan } from '../src/engine/node.ts'

const [root, needle] = process.argv.slice(2)
if (!root || !needle) throw new Error('bench text-scan-run: usage: text-scan-run.ts <root> <needle>')
const started = performance.now()
const dataset = await openDataset(await createFsSource(root))
const opened = performance.now()
const scan = new TextScan(dataset, { text: needle })
scan.start()
await scan.waitFor(Infinity, 24 * 3600_000)
const page = await scan.page(0, 100)
const done = performance.now()
const status = scan.status()
if (status.state !== 'done') throw new Error(`bench text-scan-run: the search ended ${status.state}: ${status.error ?? ''}`)
process.stdout.write(`${JSON.stringify({ matches: status.matches, listed: page.total, rows: status.rowsRead, open_s: (opened - started) / 1000, scan_s: (done - opened) / 1000 })}\n`)
