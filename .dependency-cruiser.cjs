/**
 * Import rules that ESLint cannot see (run by `npm run lint`): no import cycles anywhere in src/, type-only and
 * dynamic `import()` edges included (eslint-plugin-import-x's `no-cycle` skips type-only imports, which is how the
 * worker protocol ↔ handler cycle hid), and no feature folder of the app importing another one.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: cut it by moving the shared types or functions into a leaf module both sides import.',
      from: {
        // TEMPORARY: the FFT cycle (fft.ts ↔ fft-radix.ts / fft-bluestein.ts) is removed on the dsp branch; drop
        // this exclusion when that branch is merged. Nothing else is excluded.
        pathNot: '^src/engine/dsp/(fft|fft-radix|fft-bluestein)\\.ts$',
      },
      to: { circular: true },
    },
    {
      name: 'no-cross-feature-imports',
      severity: 'error',
      comment: 'A feature folder (src/app/features/X) imports no other feature folder: share through src/app/stores, lib or components.',
      from: { path: '^src/app/features/([^/]+)/' },
      to: { path: '^src/app/features/', pathNot: '^src/app/features/$1/' },
    },
  ],
  options: {
    // type-only imports are edges too: a cycle of types is still a cycle for a reader
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|bench/node_modules|bench/\\.cache)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
}
