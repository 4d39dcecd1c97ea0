import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Many tests wait on child processes (the CLI, libsndfile, DuckDB, ffmpeg), so one worker per core, at least two,
    // keeps the cores busy: vitest's default (cores − 1) runs one file at a time on the 2-core CI machine (the whole
    // suite 718 s there; 409 s with two).
    maxWorkers: Math.max(2, availableParallelism()),
  },
})
