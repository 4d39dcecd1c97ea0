/**
 * `mixscope fbank <audio-file>`: the reference's fbank features of one audio file (Kaldi log-mel, 80 bins, channel 0,
 * at the file's own rate), optionally standardized and cast to the training dtype, on the CPU or the GPU. The
 * features are `fbankFeatures` (src/engine/features/model-input.ts), the function the explorer's model input uses.
 */
import { existsSync } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { basename } from 'node:path'
import {
  channelZeroFinding,
  createFeaturePipeline,
  decodeAudio,
  describeAdapter,
  fbankFeatures,
  finding,
  type Finding,
  getGpu,
  type Gpu,
  inspectExample,
  npyEncode,
  standardizeFinding,
} from '../../engine/node.ts'
import type { DecodedAudio } from '../../engine/audio/types.ts'
import type { TrainingDtype } from '../../engine/features/dsp/bf16.ts'
import type { Features } from '../../engine/features/dsp/fbank.ts'
import { choiceOption, defineCommand, matchOption, parseCommand } from '../lib/args.ts'
import { openDatasetArg } from '../lib/dataset-arg.ts'
import { parseExampleReference } from '../lib/example-audio.ts'
import { exitCodes, formatJson, type CliIo } from '../lib/io.ts'

export const fbankHelp = `Usage: mixscope fbank <audio-file | dataset#file:row> [--out out.npy|out.json] [--standardize]
                     [--dtype float32|bfloat16] [--device cpu|gpu] [--json]

Kaldi log-mel filter bank features exactly as the training reference computes them with use_fbank:
channel 0, the file's own sample rate, 25 ms / 10 ms frames (snip edges), 80 mel bins, waveform × 32768.

  --out FILE       write features [frames, 80] float32 as .npy, or as .json (NaN → null)
  --standardize    per mel bin over frames: (x − mean) / std, unbiased std, no epsilon (as fairseq2)
  --dtype D        float32 (default) or bfloat16 (rounded as training casts, written widened to float32)
  --device D       cpu (default) or gpu (WebGPU; exits 2 when there is no adapter)
  --json           print {"schema_version", "root", "frames", "bins", "device", "adapter", "seconds_of_audio", "wall_ms", "findings"}

For dataset#file:row the findings are the example's as the explorer's Inspector shows them (its row's, the cheap
audio check's, the decoder's); an example that does not decode has no features: exit 1 with its findings.
  -h, --help       show this help
`

const swiftshaderIcd = '/usr/lib/chromium/vk_swiftshader_icd.json'

/** The Node WebGPU device (Dawn from the `webgpu` package), or why there is none. */
async function nodeGpu(): Promise<Gpu | string> {
  if (!process.env.VK_ICD_FILENAMES && existsSync(swiftshaderIcd)) process.env.VK_ICD_FILENAMES = swiftshaderIcd
  try {
    const webgpu = await import('webgpu')
    Object.assign(globalThis, webgpu.globals)
    return await getGpu(webgpu.create([]))
  } catch (e) {
    return `gpu: the webgpu package does not load here: ${(e as Error).message}`
  }
}

/** Features as JSON rows, NaN and infinities as null. */
function featuresJson(features: Features): string {
  const rows: (number | null)[][] = []
  for (let t = 0; t < features.frames; t++) {
    rows.push(Array.from(features.data.subarray(t * features.bins, (t + 1) * features.bins), (v) => (Number.isFinite(v) ? v : null)))
  }
  return JSON.stringify({ schema_version: 1, shape: [features.frames, features.bins], dtype: 'float32', data: rows }) + '\n'
}

/** A dataset example that does not decode: no features, its findings (the reason among them), exit 1. */
function undecodable(root: string, values: { json?: boolean; device?: string }, findings: Finding[], io: CliIo): number {
  if (values.json) {
    io.stdout(formatJson({ schema_version: 1, root, frames: 0, bins: 80, device: values.device, adapter: null, seconds_of_audio: 0, wall_ms: 0, findings }))
  } else {
    io.stderr('mixscope fbank: the example does not decode: no features\n')
    for (const f of findings) io.stderr(`${f.severity}: ${f.message}\n`)
  }
  return exitCodes.findings
}

/** Runs `mixscope fbank`; returns the exit code. */
const args = defineCommand({
  name: 'fbank', help: fbankHelp, positionals: { count: 1, what: 'one audio file or example reference' },
  options: { out: { type: 'string' }, standardize: { type: 'boolean' }, dtype: { type: 'string' }, device: { type: 'string' }, json: { type: 'boolean' } },
})

/** Runs `mixscope fbank`; returns the exit code. */
export async function runFbank(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values: flags, positionals } = parsed
  const dtype: TrainingDtype = choiceOption('fbank', '--dtype', flags.dtype, ['float32', 'bfloat16'] as const) ?? 'float32'
  const device = choiceOption('fbank', '--device', flags.device, ['cpu', 'gpu'] as const) ?? 'cpu'
  matchOption('fbank', '--out', flags.out, /\.(npy|json)$/, 'a file name ending in .npy or .json')
  const values = { ...flags, dtype, device }
  const file = positionals[0]
  const exists = await stat(file).then((s) => s.isFile(), () => false)
  const ref = exists ? null : parseExampleReference(file)
  let audio: DecodedAudio
  let where: { path: string; row?: number; row_group?: number }
  let findings: Finding[]
  if (ref) {
    // `<dataset>#<file>:<row>` (docs/conventions.md "example reference"; a local path that exists wins): the
    // example's facts and findings as the Inspector shows them (`inspectExample`)
    const inspected = await inspectExample(await openDatasetArg(ref.dataset), `${ref.file}:${ref.row}`)
    findings = [...inspected.facts.findings]
    if (!inspected.audio) return undecodable(ref.dataset, values, findings, io)
    audio = inspected.audio
    where = { path: inspected.facts.path, row: inspected.facts.row, row_group: inspected.facts.rowGroup }
  } else {
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await readFile(file))
    } catch (e) {
      io.stderr(`mixscope fbank: cannot read ${file}: ${(e as Error).message}\n`)
      return exitCodes.usage
    }
    audio = await decodeAudio(bytes, { id: basename(file) })
    where = { path: basename(file) }
    findings = audio.warnings.map((w) => finding('info', 'audio-decode-warning', where.path, w))
    if (!audio.trainable) {
      findings.push(finding('error', 'untrainable-audio', where.path, `training cannot read this row: ${audio.untrainable} (the features are of what decodes)`))
    }
  }
  let gpu: Gpu | null = null
  if (values.device === 'gpu') {
    const got = await nodeGpu()
    if (typeof got === 'string') { io.stderr(`mixscope fbank: ${got}\n`); return exitCodes.usage }
    gpu = got
  }
  const waveform = audio.channels[0] ?? new Float32Array(0)
  const zero = channelZeroFinding(audio, where)
  if (zero) findings.push(zero)
  const started = performance.now()
  const features = await fbankFeatures(audio, { standardize: values.standardize ?? false, dtype }, gpu ? { pipeline: await createFeaturePipeline(gpu) } : null)
  const wallMs = performance.now() - started
  const undefinedFinding = standardizeFinding(features.problem, features.undefinedBins, features.frames, where)
  if (undefinedFinding) findings.push(undefinedFinding)
  if (values.out) {
    await writeFile(values.out, values.out.endsWith('.npy')
      ? npyEncode({ shape: [features.frames, features.bins], data: features.data })
      : featuresJson(features))
  }
  const summary = {
    schema_version: 1, root: ref ? ref.dataset : file, frames: features.frames, bins: features.bins, device: values.device,
    adapter: gpu ? describeAdapter(gpu.adapterInfo) : null, seconds_of_audio: waveform.length / audio.sampleRate,
    wall_ms: Math.round(wallMs * 1000) / 1000, findings,
  }
  if (values.json) {
    io.stdout(formatJson(summary))
  } else {
    io.stdout(`${file}: ${features.frames} frames × ${features.bins} mel bins, ${summary.seconds_of_audio.toFixed(3)} s at ${audio.sampleRate} Hz, ` +
      `${values.device}${gpu ? ` (${summary.adapter})` : ''}, ${summary.wall_ms.toFixed(1)} ms${values.out ? `, wrote ${values.out}` : ''}\n`)
    for (const f of findings) io.stderr(`${f.severity}: ${f.message}\n`)
  }
  gpu?.device.destroy()
  return findings.some((f) => f.severity === 'error') ? exitCodes.findings : exitCodes.ok
}
