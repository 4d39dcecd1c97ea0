/**
 * `mixscope <command>`: dispatches to src/cli/commands/<name>.ts. Errors become exit codes (docs/conventions.md):
 * usage and I/O errors 2, pipeline/data errors 1.
 */
import { runCommand } from './lib/errors.ts'
import { exitCodes, type CliIo } from './lib/io.ts'
import { streamWriter } from './lib/output.ts'

type Command = (argv: string[], io: CliIo) => Promise<number>

/** Commands by name, loaded lazily so one command's dependencies never slow another. */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  stats: { summary: 'hours, rows and files per partition folder', load: async () => (await import('./commands/stats.ts')).runStats },
  validate: { summary: 'every data and schema problem as findings', load: async () => (await import('./commands/validate.ts')).runValidate },
  manifest: { summary: 'write _manifest.json for serving a folder over HTTP', load: async () => (await import('./commands/manifest.ts')).runManifest },
  index: { summary: 'write _mixscope_index.parquet: open, stats and serving without reading footers', load: async () => (await import('./commands/index.ts')).runIndex },
  serve: { summary: 'serve a dataset folder and the explorer over HTTP (ranges, CORS, a live manifest)', load: async () => (await import('./commands/serve.ts')).runServe },
  audit: { summary: 'find what is wrong with a dataset before training', load: async () => (await import('./commands/audit.ts')).runAudit },
  weights: { summary: 'mixture weights per TSV row and sampling probabilities for a split', load: async () => (await import('./commands/weights.ts')).runWeights },
  batches: { summary: 'the batches rank r of W sees, as the training reference builds them', load: async () => (await import('./commands/batches.ts')).runBatches },
  decode: { summary: 'decode one audio file or example to .npy/.wav', load: async () => (await import('./commands/decode.ts')).runDecode },
  fbank: { summary: 'Kaldi log-mel fbank of one audio file (CPU or WebGPU)', load: async () => (await import('./commands/fbank.ts')).runFbank },
  merge: { summary: 'merge the parts of a sharded audit or prepare (Slurm array, Kubernetes Indexed Job)', load: async () => (await import('./commands/merge.ts')).runMerge },
  prepare: { summary: 'convert a speech corpus (NeMo, Common Voice, audiofolder, HF parquet) to mixture parquet', load: async () => (await import('./commands/prepare.ts')).runPrepareCommand },
}

const mainHelp = () => `Usage: mixscope <command> [options]

Commands:
${Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`).join('\n')}

Run "mixscope <command> --help" for a command's options.
`

const processIo: CliIo = {
  stdout: streamWriter(process.stdout),
  stderr: (text) => void process.stderr.write(text),
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(mainHelp())
    return name ? exitCodes.ok : exitCodes.usage
  }
  const command = commands[name]
  if (!command) {
    io.stderr(`mixscope: unknown command ${JSON.stringify(name)}\n\n${mainHelp()}`)
    return exitCodes.usage
  }
  return runCommand(name, io, async () => (await command.load())(rest, io))
}
