#!/usr/bin/env node
// The `mixscope` command: runs the TypeScript engine directly through tsx (no build step), with a loader hook so
// `?raw` WGSL imports work in Node as they do in Vite (src/cli/lib/loaders.mjs: also each helper thread's loaders, and
// what `node --import mixscope/register` loads through ./register.js).
import '../src/cli/lib/loaders.mjs'

const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
