/**
 * mixscope's engine for Node (`mixscope/node`): the browser-safe API of `./index.ts` plus the Node adapters — a
 * dataset folder on disk as a `DatasetSource`, an output folder as a sink, files written whole or not at all,
 * libFLAC loading, the prepare clip processor on Node threads, the dataset's HTTP server (`mixscope serve`). The only
 * place the engine touches `node:` modules.
 */
export * from './index.ts'

// Hosts: Node adapters
export { atomicTempPath, openAtomic, writeAtomic, writeFileAtomic, type AtomicFile } from './node/atomic-write.ts'
export { createDatasetServer, type DatasetServer, type DatasetServerOptions } from './node/dataset-server.ts'
export { createFileSpill } from './node/file-spill.ts'
export { createFsSink } from './node/fs-sink.ts'
export { createFsSource } from './node/fs-source.ts'
export { loadLibFlacNode } from './node/libflac-node.ts'
export { processClipNode, streamClipNode } from './node/prepare-clip-node.ts'
export { createPlanSpill, nodePlanBudget } from './node/plan-spill.ts'
