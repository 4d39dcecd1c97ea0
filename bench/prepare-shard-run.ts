/**
 * One shard of a sharded dataprep with a stand-in converter, run as a child of `bench/prepare-plan.bench.ts` under GNU
 * time: plans shard `<i>/<n>` of `<input>` (`planShard`, the CLI's plan budget) and writes its part to `<part>`
 * (`prepareShard`), each clip's "encoded" bytes 16 bytes of its row's place, so the part holds every row's clips
 * entry and plan line as a real one does without the decoding that costs a real shard its time. Prints
 * `{ rows, clips, bytes }` as JSON. `mixscope merge` then merges the parts as it merges real ones.
 * Usage: tsx bench/prepare-shard-run.ts <input> <i> <n> <part> [prepare options as JSON]
 */
import { statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { createFsSink, createFsSource, nodePlanBudget, planShard, prepareShard, scanInput, type ClipProcessor } from '../src/engine/node.ts'

const [input, i, n, part, options] = process.argv.slice(2)
if (!input || !i || !n || !part) throw new Error('bench prepare-shard-run: usage: prepare-shard-run.ts <input> <i> <n> <part> [options JSON]')
const shard = { index: Number(i), count: Number(n) }
const processClip: ClipProcessor = async (task) => {
  const audio = new TextEncoder().encode(task.id.slice(-16).padStart(16, '.'))
  return { ok: true, audio, audioSize: 16000, sourceRate: 16000, sourceChannels: 1, sourceFrames: 16000 }
}
// a file names the one input file of its folder, as `mixscope prepare <file>` takes it
const file = statSync(input).isFile()
const root = resolve(file ? dirname(input) : input)
const { input: files, scan } = await scanInput(await createFsSource(root), { entry: file ? basename(input) : undefined, paths: { root, workingDir: process.cwd() }, budget: nodePlanBudget() })
const planned = await planShard(scan, files, options ? JSON.parse(options) : {}, shard, nodePlanBudget())
await scan.close()
const written = await prepareShard(shard, {
  planned, input: files, root: input, processClip, out: await createFsSink(dirname(part)).create(basename(part)), concurrency: 16, budget: nodePlanBudget(64 * 1024 * 1024),
})
process.stdout.write(`${JSON.stringify({ rows: written.range.end - written.range.first, clips: written.sections.clips.count, bytes: written.sections.plan.offset + written.sections.plan.length })}\n`)
