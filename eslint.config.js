// Lint rules, including the architecture: src/engine is plain TypeScript that runs in a Web Worker
// and in Node, so it imports nothing from the app, React, zustand or Node (except src/engine/node and its entry node.ts),
// and touches no DOM-only global.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'

const uiOnlyPackages = ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', 'recharts', '@tanstack/*']
const domOnlyGlobals = ['window', 'document', 'localStorage', 'sessionStorage', 'HTMLElement', 'HTMLCanvasElement',
  'AudioContext', 'OfflineAudioContext', 'alert', 'confirm', 'prompt', 'Image', 'DOMParser']

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/node_modules/**', 'bench/.cache/**', '.cache/**', 'test-results/**', 'playwright-report/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    // CommonJS config files (dependency-cruiser, the engine's layer list) load each other with require()
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/node/**', 'src/engine/node.ts'],
    languageOptions: { globals: { ...globals.worker } },
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'react', message: 'src/engine runs in a Worker and in Node: no React.' }],
        patterns: [
          { group: ['**/app/**', '../app/*', '../../app/*'], message: 'src/engine must not import from src/app.' },
          { group: uiOnlyPackages, message: 'src/engine must not import UI libraries.' },
          { group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'http', 'https', 'url', 'worker_threads'], message: 'Node-only code lives in src/engine/node.' },
          { group: ['**/engine/node/**', './node/*', '../node/*', '../../node/*'], message: 'Only Node entry points may import src/engine/node.' },
        ],
      }],
      'no-restricted-globals': ['error', ...domOnlyGlobals.map((name) => ({ name, message: `${name} is DOM-only; src/engine runs in a Worker and in Node.` })),
        { name: 'Buffer', message: 'Buffer is Node-only; use Uint8Array.' }, { name: 'process', message: 'process is Node-only; pass values in.' }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/engine/node/**', '**/engine/node.ts'], message: 'The app never loads Node adapters.' },
          { group: ['hyparquet', 'hyparquet/*', 'hyparquet-compressors', '@wasm-audio-decoders/*', 'ogg-opus-decoder', 'mpg123-decoder', 'codec-parser'], message: 'The main thread never decodes parquet or audio: go through the worker client.' }],
      }],
    },
  },
)
