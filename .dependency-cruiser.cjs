/**
 * Import rules that ESLint cannot see (run by `npm run lint`): no import cycles anywhere in src/, type-only and
 * dynamic `import()` edges included; no two folders of the engine import each other; the engine's layers in the data's
 * order (docs/architecture.md): a stage imports only earlier stages, a job only stages and earlier jobs, and nothing
 * under src/engine imports its hosts (the Node adapters, the worker) or its public entries; the CLI, the app, the
 * benches and e2e reach the engine only through its public entries (`src/engine/index.ts`, `src/engine/node.ts`) and
 * the worker's client and protocol (type-only imports of engine types are free); no feature folder of the app imports
 * another. `test/lint/import-rules.test.ts` shows each rule catching its kind.
 */
// dependency-cruiser reads its config as CommonJS
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { engineLayers, layerOrder } = require('./scripts/engine-layers.cjs')

/** One rule per layer: it imports nothing from a later layer, nor the public entries. */
const layerRules = layerOrder.map((folder, i) => ({
  name: 'engine-layer-order',
  severity: 'error',
  comment: `src/engine/${folder} (${engineLayers.find((l) => l.folders.includes(folder)).kind}) imports only earlier layers: ` +
    'see the order in scripts/engine-layers.cjs and docs/architecture.md',
  from: { path: `^src/engine/${folder}/` },
  to: { path: `^src/engine/((${layerOrder.slice(i + 1).join('|') || 'none^'})/|(index|node)\\.ts$)` },
}))

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: cut it by moving the shared types or functions into a leaf module both sides import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-engine-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'Two engine folders import each other (directly or round a loop): move what both need into the earlier one.',
      from: { path: '^src/engine/' },
      to: { path: '^src/engine/', circular: true },
    },
    ...layerRules,
    {
      name: 'engine-through-entries',
      severity: 'error',
      comment: 'The CLI, the app, benches and e2e use the engine through src/engine/index.ts or node.ts (or the worker ' +
        'client and protocol); a type-only import of an engine type is fine.',
      from: { path: '^(src/cli|src/app|bench|e2e)/' },
      to: {
        path: '^src/engine/',
        pathNot: '^src/engine/((index|node)\\.ts|worker/(client|protocol)\\.ts|worker/protocol/)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-cross-feature-imports',
      severity: 'error',
      comment: 'A feature folder (src/app/features/X) imports no other feature folder: share through src/app/stores, lib or components.',
      from: { path: '^src/app/features/([^/]+)/' },
      to: { path: '^src/app/features/', pathNot: '^src/app/features/$1/' },
    },
  ],
  options: {
    // type-only imports are edges too: a cycle of types is still a cycle for a reader
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|bench/node_modules|bench/\\.cache)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
}
