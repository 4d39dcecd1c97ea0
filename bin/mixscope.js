#!/usr/bin/env node
// The `mixscope` command: runs the TypeScript engine directly through tsx (no build step),
// with a loader hook so `?raw` WGSL imports work in Node as they do in Vite.
import { register } from 'node:module'
import { register as registerTsx } from 'tsx/esm/api'

register('../src/cli/raw-loader.mjs', import.meta.url)
registerTsx()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
