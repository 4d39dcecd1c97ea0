/**
 * Who one example row is (docs/conventions.md "example id"): its file's path relative to the root, its 0-based row
 * within the file, the row group holding it, the file's hive keys, and its id `<path>:<row>`. Every shape that
 * describes one row (the row read, the Inspector's facts and metadata, the audit's rows) extends these instead of
 * declaring the fields again.
 */
import { MixscopeError } from '../core/findings.ts'
import { hiveKeysOf } from './hive.ts'

/** Where one row lives: its file and row, and the row group holding it. */
export interface ExampleLocation {
  /** Path of the file relative to the root. */
  path: string
  /** 0-based row within the file, counting across row groups. */
  row: number
  /** Row group of the file holding the row. */
  rowGroup: number
}

/** One example row's identity: its location, its id and its file's hive keys. */
export interface ExampleIdentity extends ExampleLocation {
  /** `<path>:<row>`. */
  id: string
  /** Hive keys of the file (URI-decoded). */
  keys: Record<string, string>
}

/** The example id of row `row` of `path`. */
export function exampleIdOf(path: string, row: number): string {
  return `${path}:${row}`
}

/** Splits an example id on its last `:`. @throws MixscopeError (usage) when it has no `:<row>` */
export function parseExampleId(id: string): { file: string; row: number } {
  const colon = id.lastIndexOf(':')
  const row = colon > 0 ? id.slice(colon + 1) : ''
  if (!/^\d+$/.test(row)) throw new MixscopeError(`example: ${JSON.stringify(id)} is not an example id; expected <file>:<row>`, 'bad-example-id', 'usage')
  return { file: id.slice(0, colon), row: Number(row) }
}

/**
 * The hive keys (`corpus`, `split`, `language`, …) of an example id's file, from the id alone: what a label names
 * before (or without) the row being read. Empty for a string that is not an example id.
 */
export function exampleKeysOf(id: string): Record<string, string> {
  const colon = id.lastIndexOf(':')
  return colon > 0 ? hiveKeysOf(id.slice(0, colon)) : {}
}
