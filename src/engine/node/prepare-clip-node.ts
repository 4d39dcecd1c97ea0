/** The dataprep's clip processor in a Node thread (libflacjs loaded from node_modules). */
import { createClipProcessor, type ClipProcessor } from '../prepare/clip.ts'
import { loadLibFlacNode } from './libflac-node.ts'

/** Converts one clip in this thread (the CLI's worker threads call it). */
export const processClipNode: ClipProcessor = createClipProcessor(loadLibFlacNode)
