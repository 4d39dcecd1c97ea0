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

export default defineConfig({
  plugins: [react(), cspAtBuild()],
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
