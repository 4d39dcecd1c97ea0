/**
 * `mixscope fbank <audio-file>`: the reference's fbank features of one audio file (Kaldi log-mel, 80 bins, channel 0,
 * at the file's own rate), optionally standardized and cast to the training dtype, on the CPU or the GPU. The
 * features are `fbankFeatures` (src/engine/features/model-input.ts), the function the explorer's model input uses.
 */
import { existsSync } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { parseExampleReference } from './decode.ts'
import { loadExampleAudio } from '../lib/example-audio.ts'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
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
  npyEncode,
  standardizeFinding,
} from '../../engine/node.ts'
import type { TrainingDtype } from '../../engine/features/dsp/bf16.ts'
import type { Features } from '../../engine/features/dsp/fbank.ts'
import { exitCodes, formatJson, UsageError, type CliIo } from '../lib/io.ts'

export const fbankHelp = `Usage: mixscope fbank <audio-file | dataset#file:row> [--out out.npy|out.json] [--standardize]
                     [--dtype float32|bfloat16] [--device cpu|gpu] [--json]

Kaldi log-mel filter bank features exactly as the training reference computes them with use_fbank:
channel 0, the file's own sample rate, 25 ms / 10 ms frames (snip edges), 80 mel bins, waveform × 32768.

  --out FILE       write features [frames, 80] float32 as .npy, or as .json (NaN → null)
  --standardize    per mel bin over frames: (x − mean) / std, unbiased std, no epsilon (as fairseq2)
  --dtype D        float32 (default) or bfloat16 (rounded as training casts, written widened to float32)
  --device D       cpu (default) or gpu (WebGPU; exits 2 when there is no adapter)
  --json           print {"schema_version", "root", "frames", "bins", "device", "adapter", "seconds_of_audio", "wall_ms", "findings"}
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

/** Runs `mixscope fbank`; returns the exit code. */
export async function runFbank(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: {
    out: { type: 'string' }, standardize: { type: 'boolean' }, dtype: { type: 'string', default: 'float32' },
    device: { type: 'string', default: 'cpu' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
  } })
  if (values.help) { io.stdout(fbankHelp); return exitCodes.ok }
  if (positionals.length !== 1) throw new UsageError(`fbank: expected one audio file or example reference, got ${positionals.length}`)
  const dtype = values.dtype as TrainingDtype
  if (dtype !== 'float32' && dtype !== 'bfloat16') throw new UsageError(`fbank: --dtype must be float32 or bfloat16, got "${values.dtype}"`)
  if (values.device !== 'cpu' && values.device !== 'gpu') throw new UsageError(`fbank: --device must be cpu or gpu, got "${values.device}"`)
  if (values.out !== undefined && !/\.(npy|json)$/.test(values.out)) throw new UsageError(`fbank: --out must end in .npy or .json, got "${values.out}"`)
  const file = positionals[0]
  let bytes: Uint8Array
  const exists = await stat(file).then((s) => s.isFile(), () => false)
  const ref = exists ? null : parseExampleReference(file)
  if (ref) {
    // `<dataset>#<file>:<row>` (docs/conventions.md "example reference"); a local path that exists wins
    bytes = (await loadExampleAudio(ref.dataset, ref.file, ref.row)).bytes
  } else {
    try {
      bytes = new Uint8Array(await readFile(file))
    } catch (e) {
      io.stderr(`mixscope fbank: cannot read ${file}: ${(e as Error).message}\n`)
      return exitCodes.usage
    }
  }
  let gpu: Gpu | null = null
  if (values.device === 'gpu') {
    const got = await nodeGpu()
    if (typeof got === 'string') { io.stderr(`mixscope fbank: ${got}\n`); return exitCodes.usage }
    gpu = got
  }
  const audio = await decodeAudio(bytes, { id: basename(file) })
  const waveform = audio.channels[0] ?? new Float32Array(0)
  const where = { path: basename(file) }
  const findings: Finding[] = audio.warnings.map((w) => finding('info', 'audio-decode-warning', where.path, w))
  if (!audio.trainable) {
    findings.push(finding('error', 'untrainable-audio', where.path, `training cannot read this row: ${audio.untrainable} (the features are of what decodes)`))
  }
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
