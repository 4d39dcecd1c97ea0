import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * Content-Security-Policy for the built app, injected at build time only so the dev server's
 * React preamble (an inline script) still runs. No inline script; WASM decoders need
 * 'wasm-unsafe-eval'; audio plays from blob: URLs; the engine runs in blob:/self workers;
 * datasets may live at any URL (connect-src *).
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: data:",
  'connect-src * blob: data:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

function cspAtBuild(): Plugin {
  return {
    name: 'mixscope-csp',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">`)
    },
  }
}

/**
 * Preloads from index.html the shell's chunk (src/app/mount.tsx) and the Overview's (the default view), with the
 * chunks they import: the entry evaluates them only once the engine worker runs (src/app/start.ts), and by then their
 * bytes should be here already, not one more round trip away. A page opened on another view loads that view's chunk
 * when it starts; the Overview's is one it loads in idle time anyway (src/app/shell/views.tsx).
 */
function preloadFirstChunks(): Plugin {
  let base = '/'
  return {
    name: 'mixscope-preload-first-chunks',
    apply: 'build',
    configResolved(config) {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (context.path !== '/index.html') return html // the app's page, not the e2e harness
        const chunks = Object.values(context.bundle ?? {}).filter((c) => c.type === 'chunk')
        const files: string[] = []
        const add = (fileName: string) => {
          if (files.includes(fileName)) return
          files.push(fileName)
          for (const imported of chunks.find((c) => c.fileName === fileName)?.imports ?? []) add(imported)
        }
        for (const entry of ['/src/app/mount.tsx', '/src/app/features/overview/overview-view.tsx']) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(entry))
          if (!chunk) throw new Error(`vite: no chunk for ${entry} to preload`)
          add(chunk.fileName)
        }
        // the entry's own chunk and what it imports are loaded by its script tag already
        const entry = context.chunk
        const skip = new Set([entry?.fileName, ...(entry?.imports ?? [])])
        const links = files.filter((f) => !skip.has(f)).map((f) => `  <link rel="modulepreload" crossorigin href="${base}${f}">\n`).join('')
        return html.replace('</head>', `${links}  </head>`)
      },
    },
  }
}

export default defineConfig({
  plugins: [react(), cspAtBuild(), preloadFirstChunks()],
  worker: { format: 'es' },
  build: {
    target: 'es2023',
    rollupOptions: {
      input: {
        app: 'index.html',
        // engine-in-the-browser test page for Playwright (WebCodecs decoding, WebGPU kernels); not linked from the app
        harness: 'e2e/harness/index.html',
      },
    },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1', port: 5173 },
})
