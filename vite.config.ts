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
 * Preloads the views' chunk (src/app/mount.tsx) from index.html: the entry evaluates it only once the engine worker
 * runs (src/app/start.ts), and by then its bytes should be here already, not one more round trip away.
 */
function preloadViewsChunk(): Plugin {
  let base = '/'
  return {
    name: 'mixscope-preload-views',
    apply: 'build',
    configResolved(config) {
      base = config.base
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (context.path !== '/index.html') return html // the app's page, not the e2e harness
        const chunk = Object.values(context.bundle ?? {}).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/app/mount.tsx'))
        if (!chunk) throw new Error('vite: no chunk for src/app/mount.tsx to preload')
        return html.replace('</head>', `  <link rel="modulepreload" crossorigin href="${base}${chunk.fileName}">\n  </head>`)
      },
    },
  }
}

export default defineConfig({
  plugins: [react(), cspAtBuild(), preloadViewsChunk()],
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
