/**
 * The import rules `npm run lint` enforces (.dependency-cruiser.cjs) catch the cycles this codebase had: a cycle of
 * type-only imports (worker protocol ↔ handlers, validate-config ↔ validate-storage), a cycle closed by a dynamic
 * `import()` (views.tsx ↔ the view store), a feature folder importing another; and the engine's layout: two engine
 * folders importing each other, a stage importing a later stage or a job, an engine folder importing its public
 * entry, and the CLI (or app, bench, e2e) importing an engine module past the entries (a type-only import is free).
 * Run on small modules written to a temporary folder.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, test } from 'vitest'

const repo = join(import.meta.dirname, '..', '..')
const dir = await mkdtemp(join(tmpdir(), 'mixscope-import-rules-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const modules: Record<string, string> = {
  // type-only cycle, as protocol.ts ↔ plan-handlers.ts was
  'src/engine/worker/protocol.ts': "import type { PlanRequests } from './plan-handlers.ts'\nexport type Requests = PlanRequests\n",
  'src/engine/worker/plan-handlers.ts': "import type { Requests } from './protocol.ts'\nexport type PlanRequests = { a: 1 }\nexport type Kind = keyof Requests\n",
  // dynamic import() closing a cycle, as features → view-store-instance → views.tsx → features was
  'src/app/shell/views.tsx': "import { AuditView } from '../features/audit/audit-view.tsx'\nexport const views = [AuditView]\n",
  'src/app/features/audit/audit-view.tsx': "export function AuditView() { void import('../../shell/views.tsx') }\n",
  // one feature folder importing another, as inspector/navigation.ts → batches/ was
  'src/app/features/inspector/navigation.ts': "import { batchesStore } from '../batches/store.ts'\nexport const n = batchesStore\n",
  'src/app/features/batches/store.ts': 'export const batchesStore = 1\n',
  // a type-only cycle between two modules of one folder, as dsp/fft.ts ↔ fft-radix.ts was
  'src/engine/features/dsp/fft.ts': "import { radix } from './fft-radix.ts'\nexport type ComplexFft = number\nexport const fft = radix\n",
  'src/engine/features/dsp/fft-radix.ts': "import type { ComplexFft } from './fft.ts'\nexport const radix: ComplexFft = 1\n",
  // two folders importing each other through different modules (no module cycle), as discovery ↔ index were
  'src/engine/dataset/open.ts': "import { readIndex } from '../dataset-index/read.ts'\nexport const open = readIndex\n",
  'src/engine/dataset/hive.ts': 'export const hive = 1\n',
  'src/engine/dataset-index/read.ts': 'export const readIndex = 1\n',
  'src/engine/dataset-index/build.ts': "import { hive } from '../dataset/hive.ts'\nexport const build = hive\n",
  // a stage importing a later stage, as pipeline/featurize-batches.ts → audio/ was
  'src/engine/pipeline/featurize.ts': "import { decode } from '../audio/decode.ts'\nexport const featurize = decode\n",
  'src/engine/audio/decode.ts': 'export const decode = 1\n',
  // an engine folder importing the public entry
  'src/engine/index.ts': "export { decode } from './audio/decode.ts'\n",
  'src/engine/text/uses-entry.ts': "import { decode } from '../index.ts'\nexport const t = decode\n",
  // the CLI past the entries: a value import is a violation, a type-only one is not
  'src/cli/commands/stats.ts': "import { decode } from '../../engine/audio/decode.ts'\nimport type { Hive } from '../../engine/dataset/types.ts'\nimport { decode as d } from '../../engine/index.ts'\nexport const s: Hive = decode + d\n",
  'src/engine/dataset/types.ts': 'export type Hive = number\n',
}
for (const [path, text] of Object.entries(modules)) {
  await mkdir(dirname(join(dir, path)), { recursive: true })
  await writeFile(join(dir, path), text)
}

interface Violation { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }

function cruise(): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(join(repo, 'node_modules/.bin/depcruise'), ['src', '--config', join(repo, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd: dir, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
        // exit code 1+ means violations; the JSON is on stdout either way
        try {
          resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations)
        } catch {
          reject(error ?? new Error(stderr))
        }
      })
  })
}

test('cycles (type-only, dynamic) and cross-feature imports are violations, with no exceptions', async () => {
  const violations = await cruise()
  // each cycle is reported once, from one of its modules: compare the sets of modules in the reported cycles
  const cycles = violations.filter((v) => v.rule.name === 'no-circular').map((v) => new Set([v.from, ...(v.cycle ?? []).map((c) => c.name)]))
  const caught = (...members: string[]) => cycles.some((c) => members.every((m) => c.has(`src/${m}`)))
  expect(caught('engine/worker/protocol.ts', 'engine/worker/plan-handlers.ts'), 'type-only cycle').toBe(true)
  expect(caught('app/shell/views.tsx', 'app/features/audit/audit-view.tsx'), 'cycle through import()').toBe(true)
  expect(caught('engine/features/dsp/fft.ts', 'engine/features/dsp/fft-radix.ts'), 'a type-only cycle in one folder').toBe(true)
  expect(cycles).toHaveLength(3)
  const cross = violations.filter((v) => v.rule.name === 'no-cross-feature-imports').map((v) => `${v.from} → ${v.to}`)
  expect(cross).toEqual(['src/app/features/inspector/navigation.ts → src/app/features/batches/store.ts'])
  const named = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`).sort()
  // a folder-scoped rule reports folders: the two engine folders that import each other
  expect(named('no-engine-folder-cycles').join(' ')).toMatch(/src\/engine\/dataset.*src\/engine\/dataset-index|src\/engine\/dataset-index.*src\/engine\/dataset/)
  expect(named('engine-layer-order')).toEqual([
    'src/engine/dataset/open.ts → src/engine/dataset-index/read.ts',
    'src/engine/pipeline/featurize.ts → src/engine/audio/decode.ts',
    'src/engine/text/uses-entry.ts → src/engine/index.ts',
  ])
  expect(named('engine-through-entries')).toEqual(['src/cli/commands/stats.ts → src/engine/audio/decode.ts'])
}, 60_000)
