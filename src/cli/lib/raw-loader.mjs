// Node ESM loader hook: `import text from './x.wgsl?raw'` yields the file's text, as in Vite.
import { readFile } from 'node:fs/promises'

export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) {
    const resolved = await next(specifier.slice(0, -4), context)
    return { url: `${resolved.url}?raw`, shortCircuit: true, format: 'module' }
  }
  return next(specifier, context)
}

export async function load(url, context, next) {
  if (url.endsWith('?raw')) {
    const text = await readFile(new URL(url.slice(0, -4)), 'utf8')
    return { format: 'module', source: `export default ${JSON.stringify(text)}`, shortCircuit: true }
  }
  return next(url, context)
}
