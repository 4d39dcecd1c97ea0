// `node --import mixscope/register your-script.ts`: loads TypeScript (tsx) and `?raw` imports (the GPU passes' WGSL
// text) the way the `mixscope` command runs the engine, so a script can `import { openDataset } from 'mixscope/node'`.
import { register } from 'node:module'
import { register as registerTsx } from 'tsx/esm/api'

register('../src/cli/raw-loader.mjs', import.meta.url)
registerTsx()
