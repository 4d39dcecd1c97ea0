/**
 * One shared, frozen copy of each distinct column list: 100,000 files of one schema hold one array. A module of its
 * own, so what only interns (the dataset index's entries) does not load apache-arrow, which `schema.ts` decodes
 * footers' Arrow schemas with (a third of the worker's start-up code when an indexed root opens).
 */
import type { ColumnInfo } from './types.ts'

/** Column lists seen so far, by their JSON: files with the same schema share one (frozen) array. */
const internedColumns = new Map<string, ColumnInfo[]>()

/**
 * Returns the one shared copy of an equal column list (100,000 files of one schema then hold one array, not 100,000);
 * the list is frozen.
 */
export function internColumns(columns: ColumnInfo[]): ColumnInfo[] {
  const key = JSON.stringify(columns.map((c) => [c.name, c.type, c.nullable]))
  const known = internedColumns.get(key)
  if (known) return known
  if (internedColumns.size >= 1024) internedColumns.delete(internedColumns.keys().next().value as string)
  const frozen = Object.freeze(columns.map((c) => Object.freeze({ ...c }))) as ColumnInfo[]
  internedColumns.set(key, frozen)
  return frozen
}
