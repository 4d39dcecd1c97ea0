/**
 * `mixscope serve <folder> [--port N] [--host H]`: serves a dataset folder read-only over HTTP with the built explorer,
 * until SIGINT or SIGTERM. The server is `createDatasetServer` (src/engine/node/dataset-server.ts); this only reads
 * the arguments and prints where to look.
 */
import { fileURLToPath } from 'node:url'
import { createDatasetServer, type DatasetServer } from '../../engine/node.ts'
import { defineCommand, integerOption, parseCommand } from '../lib/args.ts'
import { exitCodes, type CliIo } from '../lib/io.ts'

export const serveHelp = `Usage: mixscope serve <folder> [--port N] [--host ADDRESS]

Serves a dataset folder read-only over HTTP, the way the explorer and "mixscope <command> <url>"
read a URL: single Range requests (206, 416), CORS for any origin, ETag and Last-Modified, and a
_manifest.json built from the folder (rebuilt when older than 2 s; none is written, and one in the
folder is not used); the folder's _mixscope_index.parquet and _mixscope_audit.json as they are. The
dataset is at /data/<folder name>/ (with language_distribution_N.tsv from beside a version=N
folder at /data/), the built explorer (dist/, "npx vite build") at /. Only GET, HEAD and OPTIONS;
nothing outside the folder is read (no "..", no link leading out of it), nor any "." or "_" path
but those two files. Any web page in a browser that can reach the server can read the data.

To look at data on a cluster from a laptop: run this on the cluster, then
"ssh -L 8080:localhost:8080 <cluster>" on the laptop and open the printed URL there.

  --port N         TCP port (default 8080; 0 picks a free one)
  --host ADDRESS   address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 listens
                   on every interface: anyone who can reach the machine can read the data)
  -h, --help       show this help

Stops on Ctrl+C (SIGINT) or SIGTERM, exit 0. Exit 2: not a folder, or the port cannot be bound.
`

const args = defineCommand({
  name: 'serve', help: serveHelp, positionals: { count: 1, what: 'one folder argument' },
  options: { port: { type: 'string' }, host: { type: 'string' } },
})

/** The built explorer: `dist/` at the package's root (three folders above this file). */
const appDir = fileURLToPath(new URL('../../../dist/', import.meta.url))

/** What ends the server: by default the process's SIGINT or SIGTERM (tests pass their own). */
export interface ServeDeps {
  until?: (server: DatasetServer) => Promise<void>
}

/** Runs `mixscope serve`; resolves once the server has stopped. */
export async function runServe(argv: string[], io: CliIo, deps: ServeDeps = {}): Promise<number> {
  const parsed = parseCommand(args, argv, io)
  if (!parsed) return exitCodes.ok
  const { values, positionals } = parsed
  const port = integerOption('serve', '--port', values.port, { min: 0, max: 65535 }) ?? 8080
  const host = values.host ?? '127.0.0.1'
  const server = await createDatasetServer({ root: positionals[0], appDir, host, port })
  const { manifest } = server
  io.stdout(`mixscope serve: ${positionals[0]} (${manifest.files} file${manifest.files === 1 ? '' : 's'}) on ${server.url}\n` +
    `  dataset: ${server.dataUrl}\n` +
    (server.openUrl ? `  open:    ${server.openUrl}\n`
      : `  the explorer is not built (no ${appDir}index.html): run "npx vite build" there, or open any mixscope explorer with ?dataset=${server.dataUrl}\n`))
  if (host === '0.0.0.0' || host === '::') io.stderr(`mixscope serve: listening on every interface (${host}): anyone who can reach this machine can read the data\n`)
  if (manifest.outsideCount > 0) {
    io.stderr(`mixscope serve: ${manifest.outsideCount} files reached through links leading out of the folder are not served ` +
      `(${manifest.outside.slice(0, 3).join(', ')}${manifest.outsideCount > 3 ? ', …' : ''})\n`)
  }
  io.stderr('Press Ctrl+C to stop.\n')
  await (deps.until ?? untilSignal)(server)
  await server.close()
  return exitCodes.ok
}

/** Resolves on the first SIGINT or SIGTERM (the handlers removed again). */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}
