/**
 * Column types as mixscope reports them (`binary`, `list<int8>`, `large_list<int8>`, `string`, `int64`, …), from the
 * parquet schema, refined by the Arrow schema pyarrow stores in the footer (`ARROW:schema`), which is the only place
 * `large_list` differs from `list`. The Arrow schema is decoded with apache-arrow rather than by hand.
 */
import { parquetSchema, type FileMetaData, type SchemaTree } from 'hyparquet'
import { tableFromIPC, DataType, type Field } from 'apache-arrow'
import type { ColumnInfo } from './types.ts'
import { internColumns } from './intern-columns.ts'

export { internColumns }

/** Readable type of a leaf schema element. */
function leafType(tree: SchemaTree): string {
  const e = tree.element
  const logical = e.logical_type
  if (e.type === 'BYTE_ARRAY' || e.type === 'FIXED_LEN_BYTE_ARRAY') {
    if (logical?.type === 'STRING' || e.converted_type === 'UTF8' || logical?.type === 'ENUM' || e.converted_type === 'ENUM') return 'string'
    return e.type === 'BYTE_ARRAY' ? 'binary' : `fixed_size_binary[${e.type_length}]`
  }
  if (e.type === 'INT32' || e.type === 'INT64') {
    if (logical?.type === 'INTEGER') return `${logical.isSigned ? 'int' : 'uint'}${logical.bitWidth}`
    const converted: Record<string, string> = { INT_8: 'int8', INT_16: 'int16', INT_32: 'int32', INT_64: 'int64', UINT_8: 'uint8', UINT_16: 'uint16', UINT_32: 'uint32', UINT_64: 'uint64' }
    if (e.converted_type && converted[e.converted_type]) return converted[e.converted_type]
    return e.type === 'INT32' ? 'int32' : 'int64'
  }
  if (e.type === 'BOOLEAN') return 'bool'
  if (e.type === 'FLOAT') return 'float'
  if (e.type === 'DOUBLE') return 'double'
  if (e.type === 'INT96') return 'int96'
  return 'struct'
}

/** Readable type of a top-level column (lists as `list<inner>`). */
function columnType(tree: SchemaTree): string {
  const e = tree.element
  if (tree.children.length === 0) return leafType(tree)
  const isList = e.converted_type === 'LIST' || e.logical_type?.type === 'LIST'
  if (isList && tree.children.length === 1) {
    const repeated = tree.children[0]
    const inner = repeated.children.length === 1 ? repeated.children[0] : repeated
    return `list<${columnType(inner)}>`
  }
  if (e.repetition_type === 'REPEATED' && tree.children.length === 0) return `list<${leafType(tree)}>`
  return 'struct'
}

/** Decoded `ARROW:schema` values (every file of a dataset usually has the same one; decoding costs ~0.1 ms). */
const arrowSchemas = new Map<string, Map<string, DataType>>()

/** Arrow field types by name from the footer's `ARROW:schema`, or an empty map when absent or unreadable. */
function arrowFieldTypes(metadata: FileMetaData): Map<string, DataType> {
  const entry = metadata.key_value_metadata?.find((kv) => kv.key === 'ARROW:schema')
  if (!entry?.value) return new Map()
  const known = arrowSchemas.get(entry.value)
  if (known) return known
  const types = decodeArrowSchema(entry.value)
  if (arrowSchemas.size >= 64) arrowSchemas.delete(arrowSchemas.keys().next().value as string)
  arrowSchemas.set(entry.value, types)
  return types
}

function decodeArrowSchema(value: string): Map<string, DataType> {
  const types = new Map<string, DataType>()
  const entry = { value }
  try {
    const message = Uint8Array.from(atob(entry.value), (c) => c.charCodeAt(0))
    const stream = new Uint8Array(message.length + 8)
    stream.set(message)
    stream.set([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0], message.length)
    const table = tableFromIPC(stream)
    table.schema.fields.forEach((f: Field) => types.set(f.name, f.type))
  } catch {
    // an unreadable Arrow schema leaves the parquet types in place
  }
  return types
}

/** Top-level columns of a file, with `large_list` recognized from the Arrow schema (an interned, frozen list). */
export function describeColumns(metadata: FileMetaData): ColumnInfo[] {
  return internColumns(describeColumnsOnce(metadata))
}

function describeColumnsOnce(metadata: FileMetaData): ColumnInfo[] {
  const tree = parquetSchema(metadata)
  const arrow = arrowFieldTypes(metadata)
  return tree.children.map((child) => {
    let type = columnType(child)
    const arrowType = arrow.get(child.element.name)
    if (arrowType && DataType.isLargeList(arrowType) && type.startsWith('list<')) type = `large_${type}`
    if (arrowType && DataType.isLargeBinary(arrowType) && type === 'binary') type = 'large_binary'
    if (arrowType && DataType.isLargeUtf8(arrowType) && type === 'string') type = 'large_string'
    return { name: child.element.name, type, nullable: child.element.repetition_type !== 'REQUIRED' }
  })
}
