/**
 * One near-duplicate search over synthetic fingerprints (test/audit/near-duplicates/synthetic.ts: 6 s clips, 0.9 kB
 * records, planted groups of 2–3 variants), run as a child of bench/near-duplicates-scale.bench.ts under GNU time.
 * - `spilled`: as the audit runs it (src/engine/audit/fingerprint-spill.ts): records written a row group (1,000 rows)
 *   at a time to a file spill under `<dir>`, then the search;
 * - `memory`: every fingerprint decoded in memory, then `findNearDuplicates` (how the audit held them before).
 * Prints `{ rows, write_s, search_s, partitions, compared, peak_entries, clusters, planted, planted_found, spill_gb }`.
 * Usage: tsx bench/near-duplicates-scale-run.ts <rows> <spilled|memory> <dir>
 */
import { statSync, readdirSync } from 'node:fs'
import { createFileSpill, findNearDuplicates, FingerprintSpill, searchNearDuplicatesSpilled, type Fingerprint, type NearDuplicateSearch } from '../src/engine/node.ts'
import { syntheticFingerprints } from '../test/audit/near-duplicates/synthetic.ts'

const [rowsArg, mode, dir] = process.argv.slice(2)
const rows = Number(rowsArg)
if (!Number.isInteger(rows) || rows <= 0 || (mode !== 'spilled' && mode !== 'memory') || !dir) {
  throw new Error(`bench near-duplicates-scale-run: usage: <rows> <spilled|memory> <dir>, got ${process.argv.slice(2).join(' ')}`)
}
const set = syntheticFingerprints(rows, { groups: 40 })
const splitOf = (i: number) => ['train', 'dev', 'test'][(Math.imul(i, 2654435761) >>> 0) % 3]
const exact = () => false
const started = performance.now()
let written = 0
let search: NearDuplicateSearch
let spillBytes = 0
if (mode === 'spilled') {
  const buckets = await createFileSpill(dir)
  const spill = new FingerprintSpill(buckets)
  const groupRows = 1000
  for (let from = 0; from < rows; from += groupRows) {
    const records: (Uint8Array | null)[] = []
    for (let i = from; i < Math.min(rows, from + groupRows); i++) records.push(set.record(i))
    spill.place(await spill.write(records))
  }
  written = performance.now()
  // the spill's size on disk once the slices are written: measured from the folder while the search runs
  const folder = readdirSync(dir).find((n) => n.startsWith('mixscope-spill-'))!
  const size = () => readdirSync(`${dir}/${folder}`).reduce((n, f) => { try { return n + statSync(`${dir}/${folder}/${f}`).size } catch { return n } }, 0)
  const timer = setInterval(() => { spillBytes = Math.max(spillBytes, size()) }, 2000)
  try {
    search = await searchNearDuplicatesSpilled(spill, exact, splitOf)
  } finally {
    clearInterval(timer)
    await spill.close()
  }
} else {
  const fps: (Fingerprint | null)[] = new Array(rows)
  for (let i = 0; i < rows; i++) fps[i] = set.fingerprint(i)
  written = performance.now()
  const none = new Uint32Array(0)
  search = findNearDuplicates(rows, (i) => fps[i]?.bands ?? none, (i) => fps[i], exact, splitOf)
}
const done = performance.now()
const roots = new Map<number, number>()
for (const root of search.cluster) if (root >= 0) roots.set(root, (roots.get(root) ?? 0) + 1)
// a planted group is found when its rows are one cluster of exactly that size
const found = set.groups.filter((g) => g.every((r) => search.cluster[r] === search.cluster[g[0]] && search.cluster[r] >= 0) && roots.get(search.cluster[g[0]]) === g.length).length
process.stdout.write(JSON.stringify({
  rows, mode, write_s: (written - started) / 1000, search_s: (done - written) / 1000, partitions: search.partitions, compared: search.compared,
  peak_entries: search.peakEntries, clusters: roots.size, planted: set.groups.length, planted_found: found, spill_gb: spillBytes / 1e9,
}) + '\n')
