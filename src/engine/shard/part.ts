/**
 * Part files of sharded jobs (docs/conventions.md "Sharded jobs"): what every part carries to say where it belongs
 * (kind, shard i/N, the dataset and the settings it ran with, its range of units), the JSON encoding parts use
 * (non-finite numbers kept, unlike `--json` outputs), and the check that a set of parts is complete and belongs
 * together before anything is merged: missing, repeated or mismatched parts are an error naming them.
 */
import { MixscopeError } from '../core/findings.ts'

/** What a part is a part of: the command that wrote it. */
export type PartKind = 'audit' | 'prepare' | 'index'

/** The envelope every part starts with. */
export interface PartHeader {
  format: 'mixscope-part'
  version: 1
  kind: PartKind
  shard: { index: number; count: number }
  /** The input the shard ran on: its root as named, a fingerprint of its files, and counts for messages. */
  dataset: { root: string; fingerprint: string; files: number; units: number }
  /** The settings the shard ran with: a fingerprint, and a short description for messages. */
  config: { fingerprint: string; description: string }
  /** This shard's units: `[first, end)` of the `dataset.units` units (row groups, or a dataprep's input rows). */
  range: { first: number; end: number }
  /** Seconds this shard ran (merged outputs report them under `"timing"`). */
  timing: { seconds: number }
}

/** A part as read, with the name it was read from (a file path). */
export interface NamedPart<H extends PartHeader = PartHeader> {
  name: string
  header: H
}

const kindsOf: readonly PartKind[] = ['audit', 'prepare', 'index']

function partError(message: string): MixscopeError {
  return new MixscopeError(`merge: ${message}`, 'bad-parts', 'usage')
}

/**
 * Checks that `value` has a part's envelope.
 * @throws MixscopeError (`bad-parts`, exit class usage) naming `name` and what is wrong
 */
export function checkHeader(name: string, value: unknown): PartHeader {
  const h = value as Partial<PartHeader> | null
  if (!h || typeof h !== 'object' || h.format !== 'mixscope-part') throw partError(`${name} is not a mixscope part file (no "format": "mixscope-part")`)
  if (h.version !== 1) throw partError(`${name} is a part of version ${JSON.stringify(h.version)}; this mixscope reads version 1`)
  if (!kindsOf.includes(h.kind as PartKind)) throw partError(`${name} is a part of unknown kind ${JSON.stringify(h.kind)} (expected ${kindsOf.join(', ')})`)
  const s = h.shard
  if (!s || !Number.isInteger(s.index) || !Number.isInteger(s.count) || s.count < 1 || s.index < 0 || s.index >= s.count) {
    throw partError(`${name} has no valid "shard" {index, count} (got ${JSON.stringify(s)})`)
  }
  if (!h.dataset || typeof h.dataset.fingerprint !== 'string' || !h.config || typeof h.config.fingerprint !== 'string' || !h.range) {
    throw partError(`${name} lacks its "dataset", "config" or "range"`)
  }
  return h as PartHeader
}

const list = (names: string[]) => names.length <= 6 ? names.join(', ') : `${names.slice(0, 6).join(', ')} and ${names.length - 6} more`

/** Groups parts by `key`; the largest group (ties: the one holding the first part) is the reference. */
function oddOnes<H extends PartHeader>(parts: readonly NamedPart<H>[], key: (h: H) => string): { reference: NamedPart<H>; odd: NamedPart<H>[] } {
  const groups = new Map<string, NamedPart<H>[]>()
  for (const p of parts) {
    const k = key(p.header)
    const g = groups.get(k)
    if (g) g.push(p)
    else groups.set(k, [p])
  }
  let best: NamedPart<H>[] = []
  for (const g of groups.values()) if (g.length > best.length) best = g
  const reference = best[0]
  return { reference, odd: parts.filter((p) => key(p.header) !== key(reference.header)) }
}

/**
 * Checks that `parts` are exactly the shards 0…N−1 of one run: one kind, one N, one dataset, one config, each
 * shard once, ranges that tile the units.
 * @returns the parts ordered by shard index
 * @throws MixscopeError (`bad-parts`, exit class usage) naming the parts at fault
 */
export function checkPartSet<H extends PartHeader>(parts: readonly NamedPart<H>[]): NamedPart<H>[] {
  if (parts.length === 0) throw partError('no part files given')
  const kind = oddOnes(parts, (h) => h.kind)
  if (kind.odd.length > 0) {
    throw partError(`parts of different kinds: ${kind.reference.name} is ${kind.reference.header.kind}, but ${list(kind.odd.map((p) => `${p.name} is ${p.header.kind}`))}`)
  }
  const count = oddOnes(parts, (h) => String(h.shard.count))
  if (count.odd.length > 0) {
    const r = count.reference
    throw partError(`parts disagree on the number of shards: ${r.name} is shard ${r.header.shard.index}/${r.header.shard.count}, but ${
      list(count.odd.map((p) => `${p.name} is ${p.header.shard.index}/${p.header.shard.count}`))}`)
  }
  const dataset = oddOnes(parts, (h) => JSON.stringify([h.dataset.root, h.dataset.fingerprint]))
  if (dataset.odd.length > 0) {
    const d = (h: PartHeader) => `root ${h.dataset.root}, ${h.dataset.files} files, fingerprint ${h.dataset.fingerprint}`
    const r = dataset.reference
    throw partError(`${list(dataset.odd.map((p) => `${p.name} (${d(p.header)})`))} ${dataset.odd.length > 1 ? 'are' : 'is'} from another dataset than ${r.name} (${d(r.header)}): run every shard on the same files`)
  }
  const config = oddOnes(parts, (h) => h.config.fingerprint)
  if (config.odd.length > 0) {
    const r = config.reference
    throw partError(`${list(config.odd.map((p) => `${p.name} (${p.header.config.description})`))} ${config.odd.length > 1 ? 'were' : 'was'} run with other settings than ${r.name} (${r.header.config.description}): every shard needs the same options`)
  }
  const byIndex = new Map<number, NamedPart<H>[]>()
  for (const p of parts) {
    const g = byIndex.get(p.header.shard.index)
    if (g) g.push(p)
    else byIndex.set(p.header.shard.index, [p])
  }
  const n = parts[0].header.shard.count
  const repeated = [...byIndex].filter(([, g]) => g.length > 1).sort((a, b) => a[0] - b[0])
  if (repeated.length > 0) {
    throw partError(`repeated parts: ${repeated.map(([i, g]) => `${list(g.map((p) => p.name))} are all shard ${i}/${n}`).join('; ')}`)
  }
  const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !byIndex.has(i))
  if (missing.length > 0) {
    const shown = missing.length <= 20 ? missing.join(', ') : `${missing.slice(0, 20).join(', ')} and ${missing.length - 20} more`
    throw partError(`missing part${missing.length > 1 ? 's' : ''}: shard${missing.length > 1 ? 's' : ''} ${shown} of ${n} (${parts.length} of ${n} parts given)`)
  }
  const ordered = [...parts].sort((a, b) => a.header.shard.index - b.header.shard.index)
  let at = 0
  for (const p of ordered) {
    if (p.header.range.first !== at || p.header.range.end < at) {
      throw partError(`${p.name} (shard ${p.header.shard.index}/${n}) covers units ${p.header.range.first}–${p.header.range.end}, but the shard before it ended at ${at}`)
    }
    at = p.header.range.end
  }
  if (at !== ordered[0].header.dataset.units) throw partError(`the parts cover ${at} of ${ordered[0].header.dataset.units} units`)
  return ordered
}

/** JSON text of a part: non-finite numbers are kept as `{"$nonfinite": "NaN"}` (parts are merged, never shown). */
export function stringifyPart(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? { $nonfinite: String(v) } : v)) + '\n'
}

/** Parses the JSON text of a part written by `stringifyPart`. @throws MixscopeError naming `name` when it is not JSON */
export function parsePart(name: string, text: string): unknown {
  try {
    // a reviver costs a call per value: only parts that hold a non-finite number need it
    if (!text.includes('"$nonfinite"')) return JSON.parse(text)
    return JSON.parse(text, (_key, v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v.$nonfinite === 'string' && Object.keys(v).length === 1 ? Number(v.$nonfinite) : v))
  } catch (error) {
    throw partError(`${name} is not a mixscope part file (not JSON: ${(error as Error).message})`)
  }
}
