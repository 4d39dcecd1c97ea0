/**
 * `mixscope <command>`: dispatches to src/cli/commands/<name>.ts. Errors become exit codes (docs/conventions.md):
 * usage and I/O errors 2, pipeline/data errors 1.
 */
import { MixscopeError } from '../engine/node.ts'
import { exitCodes, UsageError, type CliIo } from './io.ts'
import { OutputClosedError, streamWriter } from './output.ts'

type Command = (argv: string[], io: CliIo) => Promise<number>

/** Commands by name, loaded lazily so one command's dependencies never slow another. */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  stats: { summary: 'hours, rows and files per partition folder', load: async () => (await import('./commands/stats.ts')).runStats },
  validate: { summary: 'every data and schema problem as findings', load: async () => (await import('./commands/validate.ts')).runValidate },
  manifest: { summary: 'write _manifest.json for serving a folder over HTTP', load: async () => (await import('./commands/manifest.ts')).runManifest },
  index: { summary: 'write _mixscope_index.parquet: open, stats and serving without reading footers', load: async () => (await import('./commands/index.ts')).runIndex },
  audit: { summary: 'find what is wrong with a dataset before training', load: async () => (await import('./commands/audit.ts')).runAudit },
  weights: { summary: 'mixture weights per TSV row and sampling probabilities for a split', load: async () => (await import('./commands/weights.ts')).runWeights },
  batches: { summary: 'the batches rank r of W sees, as the training reference builds them', load: async () => (await import('./commands/batches.ts')).runBatches },
  decode: { summary: 'decode one audio file or example to .npy/.wav', load: async () => {
    const [{ runDecode }, { loadExampleAudio }] = await Promise.all([import('./commands/decode.ts'), import('./example-loader.ts')])
    return (argv, io) => runDecode(argv, io, { loadExample: loadExampleAudio })
  } },
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
  try {
    return await (await command.load())(rest, io)
  } catch (error) {
    if (error instanceof OutputClosedError) return exitCodes.ok // the reader has what it wanted (`| head`)
    const e = error as Error & { code?: string }
    if (error instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`mixscope ${name}: ${e.message}\nRun "mixscope ${name} --help" for usage.\n`)
      return exitCodes.usage
    }
    if (error instanceof MixscopeError) {
      io.stderr(`mixscope ${name}: ${e.message}\n`)
      return error.exitClass === 'data' ? exitCodes.findings : exitCodes.usage
    }
    // an error no layer turned into a finding: its message, and the stack only when asked for (never from hostile input)
    io.stderr(`mixscope ${name}: ${process.env.MIXSCOPE_DEBUG ? e.stack ?? e.message : `internal error: ${e.message} (MIXSCOPE_DEBUG=1 shows where)`}\n`)
    return exitCodes.findings
  }
}
