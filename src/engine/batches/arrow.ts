/**
 * Planned batches as apache-arrow tables: columnar, so they cross the worker boundary as transferable buffers
 * (`tableToIPC` → one ArrayBuffer) and export as an Arrow IPC file that pyarrow (`pa.ipc.open_file`) and pandas
 * (`pd.read_feather`) open directly.
 */
import { Dictionary, Int32, Table, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow'
import { codePointLength, type PlannedExample } from '../pipeline/example.ts'
import type { PlannedBatch } from '../pipeline/plan-batches.ts'

/** Columns of the export file, in order (one row per planned example). */
export const EXAMPLE_COLUMNS = ['batch', 'file', 'row', 'row_group', 'corpus', 'language', 'split', 'length', 'text_chars'] as const

/** Options of `examplesTable`. */
export interface ExamplesTableOptions {
  /** Add the transcript as a `text` column (for the UI; the export file leaves it out). Default false. */
  text?: boolean
}

const dictionaryUtf8 = () => new Dictionary(new Utf8(), new Int32())

/**
 * One row per planned example, in batch order: `batch` int32 (0-based batch index on the rank), `file` (dictionary
 * utf8, path relative to the root), `row` int32 (row within the file), `row_group` int32, `corpus`, `language`, `split`
 * (dictionary utf8), `length` int64 (stored `audio_size`, samples), `text_chars` int32 (Unicode code points), and
 * `text` utf8 when asked for.
 */
export function examplesTable(batches: readonly PlannedBatch[], options: ExamplesTableOptions = {}): Table {
  const examples: { batch: number; e: PlannedExample }[] = []
  for (const b of batches) for (const e of b.examples) examples.push({ batch: b.index, e })
  const n = examples.length
  const batch = new Int32Array(n)
  const row = new Int32Array(n)
  const rowGroup = new Int32Array(n)
  const length = new BigInt64Array(n)
  const textChars = new Int32Array(n)
  examples.forEach(({ batch: i, e }, k) => {
    batch[k] = i
    row[k] = e.row
    rowGroup[k] = e.row_group
    length[k] = BigInt(e.length)
    textChars[k] = codePointLength(e.text)
  })
  const strings = (pick: (e: PlannedExample) => string) => vectorFromArray(examples.map(({ e }) => pick(e)), dictionaryUtf8())
  const columns = {
    batch: vectorFromArray(batch),
    file: strings((e) => e.file),
    row: vectorFromArray(row),
    row_group: vectorFromArray(rowGroup),
    corpus: strings((e) => e.corpus),
    language: strings((e) => e.language),
    split: strings((e) => e.split),
    length: vectorFromArray(length),
    text_chars: vectorFromArray(textChars),
  }
  if (!options.text) return new Table(columns)
  return new Table({ ...columns, text: vectorFromArray(examples.map(({ e }) => e.text), new Utf8()) })
}

/**
 * One row per batch: `batch`, `step`, `index_in_step`, `examples` (count), `max_length` (longest `length`, samples)
 * and `padded_elements` (`examples × max_length`: audio samples in the padded batch), all int32 except the last two
 * (int64).
 */
export function batchesTable(batches: readonly PlannedBatch[]): Table {
  const n = batches.length
  const index = new Int32Array(n)
  const step = new Int32Array(n)
  const inStep = new Int32Array(n)
  const count = new Int32Array(n)
  const maxLength = new BigInt64Array(n)
  const padded = new BigInt64Array(n)
  batches.forEach((b, k) => {
    const longest = b.examples.reduce((m, e) => Math.max(m, e.length), 0)
    index[k] = b.index
    step[k] = b.step
    inStep[k] = b.indexInStep
    count[k] = b.examples.length
    maxLength[k] = BigInt(longest)
    padded[k] = BigInt(longest) * BigInt(b.examples.length)
  })
  return new Table({
    batch: vectorFromArray(index), step: vectorFromArray(step), index_in_step: vectorFromArray(inStep),
    examples: vectorFromArray(count), max_length: vectorFromArray(maxLength), padded_elements: vectorFromArray(padded),
  })
}

/** The Arrow IPC file (`ARROW1` magic, footer) of the export columns: what `batches` writes for pandas/pyarrow. */
export function planIpcFile(batches: readonly PlannedBatch[]): Uint8Array {
  return tableToIPC(examplesTable(batches), 'file')
}

/** A table as one IPC stream buffer (to post across the worker boundary with its `buffer` transferred). */
export function tableToTransfer(table: Table): Uint8Array {
  return tableToIPC(table, 'stream')
}

/** Reads back an IPC stream or file buffer. */
export function tableFromTransfer(bytes: Uint8Array): Table {
  return tableFromIPC(bytes)
}

/** Rebuilds the batches (without step numbers) from an `examplesTable` made with `text: true` (the worker's receiving side). */
export function examplesFromTable(table: Table): { batch: number; example: PlannedExample }[] {
  const col = (name: string) => {
    const c = table.getChild(name)
    if (!c) throw new Error(`plan: arrow table has no column ${name}`)
    return c
  }
  const [batch, file, row, rowGroup, corpus, language, split, length, text] =
    ['batch', 'file', 'row', 'row_group', 'corpus', 'language', 'split', 'length', 'text'].map(col)
  const out: { batch: number; example: PlannedExample }[] = []
  for (let i = 0; i < table.numRows; i++) {
    out.push({
      batch: batch.get(i) as number,
      example: {
        file: file.get(i) as string, row: row.get(i) as number, row_group: rowGroup.get(i) as number,
        corpus: corpus.get(i) as string, language: language.get(i) as string, split: split.get(i) as string,
        length: Number(length.get(i) as bigint), text: text.get(i) as string,
      },
    })
  }
  return out
}

/** A batch sent as `{index, step, indexInStep, examples: IPC bytes}` (the worker's `plan-batch`), read back whole. */
export function batchFromTransfer(transfer: { index: number; step: number; indexInStep: number; examples: Uint8Array }): PlannedBatch {
  return {
    index: transfer.index,
    step: transfer.step,
    indexInStep: transfer.indexInStep,
    examples: examplesFromTable(tableFromTransfer(transfer.examples)).map((e) => e.example),
  }
}
