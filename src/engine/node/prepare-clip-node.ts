/** The dataprep's clip processor in a Node thread (libflacjs loaded from node_modules). */
import { createClipProcessor, createStreamedClipConverter, type ClipProcessor, type StreamedClipConverter } from '../prepare/clip.ts'
import { loadLibFlacNode } from './libflac-node.ts'

/** Converts one clip in this thread (the CLI's worker threads call it). */
export const processClipNode: ClipProcessor = createClipProcessor(loadLibFlacNode)

/** Converts the clips of long raw-sample files in this thread, a stretch at a time (the CLI's main thread). */
export const streamClipNode: StreamedClipConverter = createStreamedClipConverter(loadLibFlacNode)
