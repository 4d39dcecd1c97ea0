/**
 * The engine's folders in the data's order (docs/architecture.md "Layers"). A folder imports only folders listed
 * before it: the foundation first, then the stages a dataset passes through, then the jobs built on them, then the
 * hosts that run the engine (Node adapters, the Web Worker). `.dependency-cruiser.cjs` turns this into lint rules;
 * `test/docs/architecture.test.ts` checks every folder here is in docs/architecture.md and every engine folder is here.
 */
const engineLayers = [
  { kind: 'foundation', folders: ['core', 'random'] },
  { kind: 'stage', folders: ['source', 'parquet', 'dataset', 'text', 'pipeline', 'audio', 'features'] },
  { kind: 'job', folders: ['shard', 'validate', 'audit', 'examples', 'batches', 'mixture', 'dataset-index', 'prepare', 'merge'] },
  { kind: 'host', folders: ['node', 'worker'] },
]
const layerOrder = engineLayers.flatMap((l) => l.folders)
module.exports = { engineLayers, layerOrder }
