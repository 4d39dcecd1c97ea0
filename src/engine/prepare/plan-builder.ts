/**
 * The plan built one input row at a time (`planPrepare` feeds it the scan's rows as they are read): each row's
 * language mapped to `xxx_Script`, its text normalized, its split and corpus decided, or its reason to be skipped —
 * then only compact state is kept (plan-store.ts): per (corpus, split, language) stream one number per row (its
 * record, or −1 when it is skipped), the kept rows' strings as records, the skipped rows as records, counts. At the
 * end every stream's rows are put in the order of the reference's buffer shuffle, taken over the whole stream
 * before any row is dropped (the reference shuffles before it processes).
 *
 * A shard plans only its cut of the input rows; its state (`PlanState`, its rows written as lines a stretch at a time:
 * `writeState`) goes into its part, and the states of shards 0…N−1 merged in order (`PlanBuilder.merger`, the lines
 * read a stretch at a time into the merged builder's store) are the builder of the whole input, row for row, so the
 * shuffle of the merged plan is the unsharded one.
 */
import { ExactSum } from '../core/exact-sum.ts'
import { MixscopeError } from '../core/findings.ts'
import { normalizeText } from '../text/normalize.ts'
import { mapLanguageCode, type LanguageMapping } from './lang/language-code.ts'
import { byPath, outsideInput, recognizeSplit, type InputFiles } from './inputs/input-files.ts'
import { audioRefName, SKIP_REASONS, type AudioRef, type InputFormat, type InputRow, type SkipReason } from './inputs/types.ts'
import { corpusValue, maxPartitionValueLength, parseLanguageOptions, parseSplitMap, partitionValue } from './plan-options.ts'
import { IntColumn, RecordStore, type PlanBudget } from './plan-store.ts'
import { BufferShuffle } from './shuffle/buffer-shuffle.ts'
import type { LanguageDecision, PlannedPartition, PlannedRow, PlannedRows, PrepareFix, PrepareOptions, PreparePlan, SkippedRow, SkippedRows } from './types.ts'

/** How a plan is built. */
export interface PlanBuildOptions {
  /** Keep every planned row (text, audio) for a run; false: only what the summary shows (a dry run). Default true. */
  keepRows?: boolean
  /** Memory held by the rows' strings, and where the rest goes. */
  budget?: PlanBudget
}

/** A kept row as its record holds it: `[index, where, text, audio]`. */
type RowRecord = [number, string, string, AudioRef]

/**
 * A shard's plan as its part's header carries it: everything but the rows. The rows follow in the part's plan section
 * as lines (`PlanBuilder.writeState`): per stream, in `streams` order, its `rows` rows in reading order (each the
 * kept row's `RowRecord` as JSON, or `null` when the row is skipped), then the `skipped` skipped rows (`SkippedRow`
 * as JSON), in reading order. No string of it grows with the row count.
 */
export interface PlanState {
  format: InputFormat
  options: PrepareOptions
  inputRows: number
  noCorpus: number
  noCorpusAt: string | null
  /** Per stream: its keys, how many rows of the section are its, the `ExactSum` of its durations (s). */
  streams: { corpus: string; split: string; language: string; rows: number; sum: number[]; allDeclared: boolean }[]
  /** Lines of skipped rows after the streams' lines. */
  skipped: number
  languages: [string, number][]
  unknownSplits: [string, number][]
  rewritten: [string, string][]
  notes: string[]
}

/** Characters of lines gathered before they are written (the plan section is written a stretch at a time). */
const WRITE_CHARS = 1 << 20

interface Stream {
  corpus: string
  split: string
  language: string
  /** Rows of the stream (kept or not: the shuffle runs over all of them). */
  size: number
  kept: number
  /** Per stream row: the kept row's record, or −1; null when rows are not kept. */
  records: IntColumn | null
  sum: ExactSum
  allDeclared: boolean
}

const parseRecord = (text: string) => JSON.parse(text) as RowRecord
const emptyCounts = () => Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>

/** Merges shards' states into one builder (`PlanBuilder.merger`). */
export interface PlanMerger {
  builder: PlanBuilder
  /**
   * Adds the next shard's state: its header and the lines of its plan section (read on as needed).
   * @throws MixscopeError `bad-parts` when the section holds fewer lines than the state says
   */
  add(state: PlanState, lines: AsyncIterator<string>): Promise<void>
}

/** Builds a plan from rows given one at a time, in reading order. */
export class PlanBuilder {
  private readonly all: string | null
  private readonly decisions: Map<string, string>
  private readonly normalize: boolean
  private readonly corpusOption: string | null
  private readonly forcedSplit: 'train' | 'dev' | 'test' | null
  private readonly splitMap: Map<string, 'train' | 'dev' | 'test'>
  private readonly keepRows: boolean
  private readonly rows: RecordStore
  private readonly skipped: RecordStore
  private readonly counts = emptyCounts()
  private readonly streams = new Map<string, Stream>()
  private readonly mappings = new Map<string, LanguageMapping>()
  private readonly decisionRows = new Map<string, number>()
  private readonly unknownSplits = new Map<string, number>()
  /** Input values a partition value had to change (`corpus "…"` → what is written), for the notes. */
  private readonly rewritten = new Map<string, string>()
  private inputRows = 0
  /** The scan's notes, as `finish` was given them. */
  private scanNotes: string[] = []
  private noCorpus = 0
  private noCorpusAt: string | null = null

  /** @throws MixscopeError (usage) on a malformed option, before any row is read */
  constructor(readonly format: InputFormat, private readonly input: Pick<InputFiles, 'sizes'> | null, readonly options: PrepareOptions = {}, build: PlanBuildOptions = {}) {
    const { all, decisions } = parseLanguageOptions(options.language)
    this.all = all
    this.decisions = decisions
    this.normalize = options.normalizeText ?? true
    this.corpusOption = corpusValue(options.corpus)
    if (options.corpus !== undefined && !this.corpusOption) throw new MixscopeError('prepare: --corpus is empty', 'bad-corpus', 'usage')
    this.forcedSplit = options.split === undefined ? null : recognizeSplit(options.split)
    if (options.split !== undefined && !this.forcedSplit) {
      throw new MixscopeError(`prepare: --split ${JSON.stringify(options.split)} is not train, dev or test (or a name of one: training, validation, valid, val, eval, evaluation, development, testing)`, 'bad-split', 'usage')
    }
    this.splitMap = parseSplitMap(options.splitMap)
    this.keepRows = build.keepRows ?? true
    this.rows = new RecordStore(build.budget)
    this.skipped = new RecordStore(build.budget)
  }

  private mapCode(code: string): LanguageMapping {
    let m = this.mappings.get(code)
    if (!m) {
      const decided = this.decisions.get(code)
      m = decided ? { kind: 'mapped', code: decided, note: `decided by --language ${code}=${decided}`, listed: true } : mapLanguageCode(code)
      this.mappings.set(code, m)
    }
    return m
  }

  /** Skips a row: `message` for the CLI, `problem` the same without a CLI option, `fix` what would write it. */
  private skip(row: Pick<InputRow, 'index' | 'where' | 'audio'>, reason: SkipReason, message: string, problem = message, fix: PrepareFix | null = null): void {
    this.counts[reason]++
    const s: SkippedRow = { index: row.index, where: row.where, reason, message, problem, fix, audio: row.audio ? audioRefName(row.audio) : null }
    this.skipped.append(JSON.stringify(s))
  }

  private stream(corpus: string, split: string, language: string): Stream {
    const key = `${corpus}\u0000${split}\u0000${language}`
    let s = this.streams.get(key)
    if (!s) this.streams.set(key, s = { corpus, split, language, size: 0, kept: 0, records: this.keepRows ? new IntColumn() : null, sum: new ExactSum(), allDeclared: true })
    return s
  }

  /** Decides one row (rows come in reading order). Rows are never dropped silently: each is kept or skipped with a reason. */
  add(row: InputRow): void {
    this.inputRows++
    if (row.problem) { this.skip(row, row.problem.reason, row.problem.message); return }
    if (!this.corpusOption && !corpusValue(row.corpus)) {
      // the corpus is a key of the mixture (weights, recipe filters such as corpus == "mls"): never made up
      this.noCorpus++
      this.noCorpusAt ??= row.where
      return
    }
    const code = this.all ?? row.language
    if (!code) { this.skip(row, 'no-language', `${row.where}: no language code in the input; pass --language`, `${row.where}: no language code in the input`, { option: 'language', code: null }); return }
    this.decisionRows.set(code, (this.decisionRows.get(code) ?? 0) + 1)
    const m = this.mapCode(code)
    if (m.kind === 'unknown') { this.skip(row, 'unknown-language', `${row.where}: ${m.reason}; pass --language ${code}=xxx_Script`, `${row.where}: ${m.reason}`, { option: 'language', code }); return }
    if (m.kind === 'ambiguous') { this.skip(row, 'ambiguous-language', `${row.where}: ${m.reason}; pass --language ${code}=<one of them>`, `${row.where}: ${m.reason}`, { option: 'language', code }); return }
    const rawSplit = row.split?.trim() || null
    const split = this.forcedSplit ?? (rawSplit ? this.splitMap.get(rawSplit.toLowerCase()) ?? recognizeSplit(rawSplit) : null)
    if (!split) {
      const key = rawSplit ? rawSplit.toLowerCase() : ''
      this.unknownSplits.set(key, (this.unknownSplits.get(key) ?? 0) + 1)
      this.skip(row, 'unknown-split', rawSplit
        ? `${row.where}: split "${rawSplit}" is not train, dev or test; pass --split-map ${rawSplit}=train (or dev, test) to write it`
        : `${row.where}: the input names no split for this row; pass --split train (or dev, test)`,
      rawSplit ? `${row.where}: split "${rawSplit}" is not train, dev or test` : `${row.where}: the input names no split for this row`,
      rawSplit ? { option: 'split-map', split: rawSplit } : { option: 'split' })
      return
    }
    const corpus = this.corpusOption ?? corpusValue(row.corpus)!
    if (!this.corpusOption && row.corpus && corpus !== row.corpus.trim()) this.rewritten.set(`corpus ${JSON.stringify(row.corpus)}`, corpus)
    const language = partitionValue(m.code) || 'und'
    if (language !== m.code) this.rewritten.set(`language ${JSON.stringify(m.code)}`, language)
    const stream = this.stream(corpus, split, language)
    stream.size++
    const text = row.text === null ? null : this.normalize ? normalizeText(row.text) : row.text
    const audio = row.audio!
    let kept: string | null = null
    const outside = audio.kind === 'file' ? outsideInput(audio.path) : null
    if (audio.kind === 'file' && outside !== null) this.skip(row, 'audio-outside-input', `${row.where}: audio path ${JSON.stringify(audio.path)} ${outside}`)
    else if (audio.kind === 'file' && this.input && !this.input.sizes.has(audio.path)) this.skip(row, 'missing-audio', `${row.where}: audio file ${audio.path} not found in the input folder`)
    else if (text === null) this.skip(row, 'no-text', `${row.where}: no transcript`)
    else if (text === '') this.skip(row, 'empty-text', `${row.where}: the transcript is empty${this.normalize && row.text ? ` after normalization (was ${JSON.stringify(row.text.slice(0, 80))})` : ''}`)
    else kept = text
    if (kept === null) { stream.records?.push(-1); return }
    stream.kept++
    stream.records?.push(this.rows.append(JSON.stringify([row.index, row.where, kept, audio] satisfies RowRecord)))
    if (row.duration === null) stream.allDeclared = false
    else stream.sum.add(row.duration)
  }

  /** Whether records wait to be spilled (`flush`). */
  get overBudget(): boolean {
    return this.rows.overBudget || this.skipped.overBudget
  }

  /** Spills records past the budget. */
  async flush(): Promise<void> {
    await this.rows.flush()
    await this.skipped.flush()
  }

  /** Removes the spill files (the plan's rows cannot be read after). */
  async close(): Promise<void> {
    await this.rows.close()
    await this.skipped.close()
  }

  /**
   * Writes the rows of the state as lines (see `PlanState`), a stretch at a time, for a shard's part (after
   * `finish`). Memory: one stretch of lines, whatever the row count.
   * @param write takes each stretch's UTF-8 bytes, in order
   * @returns the rest of the state (the part's header carries it)
   * @throws Error when rows are not kept
   */
  async writeState(write: (bytes: Uint8Array) => Promise<void>): Promise<PlanState> {
    if (!this.keepRows) throw new Error('prepare: a plan made for its summary has no rows to carry')
    const encoder = new TextEncoder()
    let lines: string[] = []
    let chars = 0
    const line = async (text: string) => {
      lines.push(text)
      chars += text.length + 1
      if (chars >= WRITE_CHARS) await out()
    }
    const out = async () => {
      if (!lines.length) return
      const bytes = encoder.encode(lines.join('\n') + '\n')
      lines = []
      chars = 0
      await write(bytes)
    }
    const streams: PlanState['streams'] = []
    for (const s of this.streams.values()) {
      const records = s.records!
      for (let i = 0; i < records.length; i++) {
        const r = records.get(i)
        await line(r < 0 ? 'null' : await this.rows.get(r))
      }
      streams.push({ corpus: s.corpus, split: s.split, language: s.language, rows: s.size, sum: s.sum.toJSON(), allDeclared: s.allDeclared })
    }
    for (let i = 0; i < this.skipped.length; i++) await line(await this.skipped.get(i))
    await out()
    return {
      format: this.format, options: this.options, inputRows: this.inputRows, noCorpus: this.noCorpus, noCorpusAt: this.noCorpusAt,
      streams, skipped: this.skipped.length, languages: [...this.decisionRows], unknownSplits: [...this.unknownSplits], rewritten: [...this.rewritten], notes: this.scanNotes,
    }
  }

  /**
   * The builder of the whole input from its shards' states, given in shard order (each shard's rows follow the last
   * one's, as they do in the input): `add` each state with the lines of its plan section, then `finish`. The rows go
   * into the builder's store (spilled past `build.budget`), so no shard's rows are held whole.
   */
  static merger(first: Pick<PlanState, 'format' | 'options'>, build: PlanBuildOptions = {}): PlanMerger {
    const b = new PlanBuilder(first.format, null, first.options, build)
    return {
      builder: b,
      async add(st, lines) {
        const next = async (): Promise<string> => {
          const r = await lines.next()
          if (r.done) throw new MixscopeError(`merge: a part's plan section ends before its ${st.inputRows} rows`, 'bad-parts', 'usage')
          return r.value
        }
        b.inputRows += st.inputRows
        b.noCorpus += st.noCorpus
        b.noCorpusAt ??= st.noCorpusAt
        for (const s of st.streams) {
          const stream = b.stream(s.corpus, s.split, s.language)
          for (let k = 0; k < s.rows; k++) {
            const text = await next()
            stream.size++
            if (text === 'null') { stream.records?.push(-1); continue }
            stream.kept++
            // the line is the record as the shard's builder stored it (JSON.stringify of a `RowRecord`)
            stream.records?.push(b.rows.append(text))
            if (b.overBudget) await b.flush()
          }
          stream.sum.addSum(s.sum)
          stream.allDeclared &&= s.allDeclared
        }
        for (let k = 0; k < st.skipped; k++) {
          const text = await next()
          b.counts[(JSON.parse(text) as SkippedRow).reason]++
          b.skipped.append(text)
          if (b.overBudget) await b.flush()
        }
        for (const [code, n] of st.languages) b.decisionRows.set(code, (b.decisionRows.get(code) ?? 0) + n)
        for (const [split, n] of st.unknownSplits) b.unknownSplits.set(split, (b.unknownSplits.get(split) ?? 0) + n)
        for (const [what, written] of st.rewritten) if (!b.rewritten.has(what)) b.rewritten.set(what, written)
      },
    }
  }

  /**
   * The plan. A shard's plan (`range`) keeps its rows in reading order; the whole input's shuffles them.
   * @throws MixscopeError `corpus-required` (usage) when rows declare no corpus and `--corpus` is not given
   */
  finish(scanNotes: readonly string[], range: PreparePlan['range'] = null): PreparePlan {
    if (this.noCorpus) {
      throw new MixscopeError(`prepare: ${this.noCorpus} of ${this.inputRows} input rows declare no corpus (no "corpus" field or column, first at ${this.noCorpusAt}); pass --corpus NAME (e.g. --corpus mls; in the Prepare view, the Corpus field)`, 'corpus-required', 'usage')
    }
    const partitions: PlannedPartition[] = []
    for (const s of this.streams.values()) {
      if (!s.kept) continue
      const enc = encodeURIComponent
      partitions.push({
        corpus: s.corpus, split: s.split, language: s.language, rows: this.plannedRows(s, range === null),
        folder: `corpus=${enc(s.corpus)}/split=${enc(s.split)}/language=${enc(s.language)}`,
        declaredSeconds: s.allDeclared ? s.sum.value() : null,
      })
    }
    partitions.sort((a, b) => byPath(a.folder, b.folder))
    const languages: LanguageDecision[] = [...this.decisionRows.entries()].map(([input, rows]) => {
      const m = this.mapCode(input)
      return {
        input, rows,
        output: m.kind === 'mapped' ? m.code : null,
        note: m.kind === 'mapped' ? m.note : m.reason,
        candidates: m.kind === 'ambiguous' ? m.candidates : [],
        listed: m.kind === 'mapped' ? m.listed : false,
        decided: this.decisions.has(input),
      }
    }).sort((a, b) => byPath(a.input, b.input))
    this.scanNotes = [...scanNotes]
    const notes = [...scanNotes]
    const facts = [...scanNotes]
    for (const [name, rows] of this.unknownSplits) {
      notes.push(name
        ? `split "${name}": ${rows} rows not written (not train, dev or test); --split-map ${name}=train (or dev, test) writes them`
        : `${rows} rows name no split and were not written; --split train (or dev, test) sets it`)
    }
    const rewritten = new Map(this.rewritten)
    if (this.options.corpus && this.corpusOption !== this.options.corpus.trim()) rewritten.set(`corpus ${JSON.stringify(this.options.corpus)}`, this.corpusOption!)
    const firstFact = notes.length
    for (const [what, written] of rewritten) notes.push(`${what} is written as ${JSON.stringify(written)} (a partition value cannot hold /, \\, =, control characters or a leading . or _, and has at most ${maxPartitionValueLength} characters)`)
    for (const l of languages) {
      if (l.output && !l.listed) notes.push(`language ${l.output} (from "${l.input}") is not among the languages Omnilingual ASR lists`)
    }
    const store = this.skipped
    const skipped: SkippedRows = {
      length: store.length,
      counts: { ...this.counts },
      async read(from, to) {
        const out: SkippedRow[] = []
        for (let i = from; i < Math.min(to, store.length); i++) out.push(JSON.parse(await store.get(i)) as SkippedRow)
        return out
      },
    }
    return {
      format: this.format, version: this.options.version ?? '0', audioFormat: this.options.audioFormat ?? 'flac',
      partitions, skipped, languages, notes, facts: [...facts, ...notes.slice(firstFact)],
      unknownSplits: [...this.unknownSplits].map(([split, rows]) => ({ split: split === '' ? null : split, rows })), inputRows: this.inputRows, range,
      close: () => this.close(),
    }
  }

  /** Every kept row, in reading order (a shard converts its rows in this order). */
  keptRows(): PlannedRows {
    if (!this.keepRows) throw new Error('prepare: this plan was made for its summary and holds no rows')
    const store = this.rows
    return {
      length: store.length,
      async read(from, to) {
        const out: PlannedRow[] = []
        for (let i = from; i < Math.min(to, store.length); i++) {
          const [index, where, text, audio] = parseRecord(await store.get(i))
          out.push({ index, where, audio, text })
        }
        return out
      },
    }
  }

  /**
   * A stream's kept rows, in the reference's shuffle order (`shuffle`) or in reading order. The order is never held:
   * a cursor walks the stream (through `BufferShuffle`, one buffer of memory) as the rows are read, in order; reading
   * before the cursor starts it again.
   */
  private plannedRows(s: Stream, shuffle: boolean): PlannedRows {
    const store = this.rows
    let cursor: { order: BufferShuffle | null; taken: number; row: number } | null = null
    /** The next kept row's record, in the plan's order. */
    const nextRecord = (c: NonNullable<typeof cursor>): number => {
      for (;;) {
        const p = c.order ? c.order.next() : c.row < s.size ? c.row++ : -1
        if (p < 0) throw new Error(`prepare: stream ${s.corpus}/${s.split}/${s.language} ends before its ${s.kept} kept rows`)
        const r = s.records!.get(p)
        if (r >= 0) { c.taken++; return r }
      }
    }
    return {
      length: s.kept,
      async read(from, to) {
        if (!s.records) throw new Error('prepare: this plan was made for its summary and holds no rows')
        to = Math.min(to, s.kept)
        if (from >= to) return []
        if (!cursor || from < cursor.taken) cursor = { order: shuffle ? new BufferShuffle(s.size) : null, taken: 0, row: 0 }
        while (cursor.taken < from) nextRecord(cursor)
        const ids = new Int32Array(to - from)
        for (let k = 0; k < ids.length; k++) ids[k] = nextRecord(cursor)
        // read in record order (the order they were stored, and spilled, in), then put in the plan's order
        const texts = new Map<number, string>()
        for (const id of Int32Array.from(ids).sort()) texts.set(id, await store.get(id))
        return Array.from(ids, (id) => {
          const [index, where, text, audio] = parseRecord(texts.get(id)!)
          return { index, where, audio, text }
        })
      },
    }
  }
}
