// `node --import mixscope/register your-script.ts`: loads TypeScript (tsx) and `?raw` imports (the GPU passes' WGSL
// text) the way the `mixscope` command runs the engine, so a script can `import { openDataset } from 'mixscope/node'`.
import '../src/cli/lib/loaders.mjs'
