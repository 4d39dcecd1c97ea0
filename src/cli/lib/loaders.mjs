// The loaders every thread of the CLI runs TypeScript with: tsx, and a hook so `?raw` WGSL imports work in Node as
// they do in Vite. Imported by bin/mixscope.js (the main thread) and passed to each helper thread as `--import`
// (src/cli/lib/worker-pool.ts), so a worker module loads exactly as the CLI does.
import { register } from 'node:module'
import { register as registerTsx } from 'tsx/esm/api'

register('./raw-loader.mjs', import.meta.url)
registerTsx()
