/**
 * The whole plan of an input with its rows (what `prepare` and `mixscope merge` hold), every partition's rows then
 * read in the reference's shuffle order a stretch at a time, as a run converts them: run under GNU time for its peak
 * RSS. Prints `{ rows, kept, partitions, seconds }` as JSON.
 * Usage: tsx bench/prepare-plan-walk.ts <manifest or folder> [prepare options as JSON]
 */
import { statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { createFsSource, nodePlanBudget, planPrepare, scanInput } from '../src/engine/node.ts'

const [input, options] = process.argv.slice(2)
if (!input) throw new Error('bench prepare-plan-walk: usage: prepare-plan-walk.ts <input> [options JSON]')
const t0 = performance.now()
const file = statSync(input).isFile()
const root = resolve(file ? dirname(input) : input)
const { input: files, scan } = await scanInput(await createFsSource(root), { entry: file ? basename(input) : undefined, paths: { root, workingDir: process.cwd() }, budget: nodePlanBudget() })
const plan = await planPrepare(scan, files, options ? JSON.parse(options) : {}, { budget: nodePlanBudget() })
let kept = 0
for (const p of plan.partitions) {
  for (let at = 0; at < p.rows.length; at += 4096) kept += (await p.rows.read(at, at + 4096)).length
}
await plan.close()
await scan.close()
process.stdout.write(`${JSON.stringify({ rows: plan.inputRows, kept, partitions: plan.partitions.length, seconds: (performance.now() - t0) / 1000 })}\n`)
