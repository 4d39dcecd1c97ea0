/** `mixscope manifest <folder> [--out FILE] [--stdout]`: writes `<folder>/_manifest.json` for HTTP hosting. */
import { join } from 'node:path'
import { buildManifest, createFsSource, formatManifest, manifestName, writeFileAtomic } from '../../engine/node.ts'
import { defineCommand, parseCommand } from '../lib/args.ts'
import { exitCodes, type CliIo } from '../lib/io.ts'

export const manifestHelp = `Usage: mixscope manifest <folder> [--out FILE] [--stdout]

Writes <folder>/_manifest.json, the file list an HTTP dataset needs (static hosts cannot list
folders): {"format": "mixscope-manifest", "version": 1, "files": [{"path", "size"}]}, every
non-ignored file under the folder in UTF-8 path order. The leading "_" keeps training from reading it.
Written whole or not at all; a symbolic link at its name is replaced, never written through.

  --out FILE       write it here instead
  --stdout         print it instead of writing a file
  -h, --help       show this help
`

const args = defineCommand({
  name: 'manifest', help: manifestHelp, positionals: { count: 1, what: 'one folder argument' },
  options: { out: { type: 'string' }, stdout: { type: 'boolean' } },
})

/** Runs `mixscope manifest`. */
export async function runManifest(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const source = await createFsSource(positionals[0])
  const text = formatManifest(buildManifest(await source.list()))
  if (values.stdout) {
    io.stdout(text)
  } else {
    const out = values.out ?? join(positionals[0], manifestName)
    await writeFileAtomic(out, text)
    io.stderr(`wrote ${out}\n`)
  }
  return exitCodes.ok
}
