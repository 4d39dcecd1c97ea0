/**
 * The CLI's standard output as a Unix tool writes it: a write waits while the reader is behind (backpressure, so
 * memory stays bounded whatever the reader does), and once the reader is gone (EPIPE: `mixscope batches --jsonl |
 * head`) every later write throws `OutputClosedError`, which `main` turns into a quiet exit.
 */

/** The reader of standard output went away; the command stops. */
export class OutputClosedError extends Error {
  constructor() {
    super('output: the reader closed the pipe')
    this.name = 'OutputClosedError'
  }
}

/**
 * A writer over `stream` (process.stdout): returns nothing when the stream takes the text at once, else a promise that
 * settles once it drained; throws (or rejects with) `OutputClosedError` after EPIPE or once the stream is destroyed.
 */
export function streamWriter(stream: NodeJS.WritableStream): (text: string) => void | Promise<void> {
  let closed = false
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true
    else throw error
  })
  stream.on('close', () => { closed = true })
  return (text) => {
    if (closed) throw new OutputClosedError()
    if (stream.write(text)) return
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('drain', done)
        stream.off('close', done)
        stream.off('error', done)
        if (closed) reject(new OutputClosedError())
        else resolve()
      }
      stream.on('drain', done)
      stream.on('close', done)
      stream.on('error', done)
    })
  }
}
