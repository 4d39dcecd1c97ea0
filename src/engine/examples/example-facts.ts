/**
 * What is known about one example, and its findings, for every caller that shows one example: the Inspector (the
 * worker kinds `inspect-example` and `example-facts`) and `mixscope fbank <dataset>#<file>:<row>`. Without decoding:
 * its identity and keys, stored length and transcript, the size and first bytes of its encoded audio, the cheap audio
 * check's verdict (quick-audio.ts); then the decoded audio and what decoding found (`inspectExample`). The
 * findings are the same wherever they are shown: the row's known findings (the open's and, once the Examples view
 * has scanned, the example index's row-level metadata findings), the cheap audio check's verdict, then the decoder's.
 * The Inspector shows the facts alone when an example does not decode (metadata, header bytes and findings). With
 * the config in use, the row's findings are the Audit's for that config (audit/flagged.ts), and `rowFindings` counts them as
 * the Audit and the Examples list do (`rowFindings`).
 */
import { type Finding, finding, MixscopeError, sortFindings } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { parseExampleId, type ExampleIdentity } from '../dataset/example-id.ts'
import { readExample, type ExampleRow } from '../dataset/read-example.ts'
import { decodeAudio } from '../audio/decode.ts'
import { audioLengthFindings } from '../audio/length-check.ts'
import type { DecodedAudio } from '../audio/types.ts'
import type { PipelineConfig } from '../pipeline/config/types.ts'
import { storedSampleRate } from '../dataset/stats.ts'
import { quickAudioVerdict, type QuickVerdict } from '../audit/quick-audio.ts'
import { rowFindingSummary, type RowFindingConfig, type RowFindingSummary } from '../audit/flagged.ts'
import { existingExampleIndex, indexRowFindings } from './example-index.ts'

/** Header bytes shown (hex). */
export const headerBytesShown = 64

/** The facts about one example. */
export interface ExampleFacts extends ExampleIdentity {
  /** Stored `audio_size` (16 kHz samples). */
  storedSamples: number | null
  text: string | null
  /** Encoded audio size in bytes (`null`: a null cell). */
  encodedBytes: number | null
  /** The first `headerBytesShown` bytes as hex pairs, 16 to a line. */
  headerHex: string
  /** The same bytes as printable ASCII (`.` for others). */
  headerAscii: string
  verdict: QuickVerdict
  /** Every finding about the example (with `inspectExample`, the decoder's too), sorted. */
  findings: Finding[]
  /**
   * The example's row findings as the Audit and the Examples list count them (audit/flagged.ts): `findings` less its
   * file's findings and what decoding it here found (the decoder's warnings and failures, the decoded length's checks).
   */
  rowFindings: RowFindingSummary
}

/** One example read and decoded: its facts (findings included), its cells and its audio. */
export interface InspectedExample {
  facts: ExampleFacts
  /** The row as read (the encoded audio in `audio`). */
  example: ExampleRow
  /** The decoded audio, `null` when it did not decode (`decodeError` says why; the facts carry the finding). */
  audio: DecodedAudio | null
  decodeError: Error | null
  /** Milliseconds decoding took. */
  decodeMs: number
}

/**
 * The row's findings known without its audio: the example index's with `config` (the metadata audit's row findings
 * and the open's about this row, audit/flagged.ts), else the open's about this row alone; the open's about its file.
 */
async function knownFindings(dataset: OpenDataset, example: ExampleRow, config: RowFindingConfig | null): Promise<Finding[]> {
  const out: Finding[] = []
  const pending = existingExampleIndex(dataset)
  const index = pending ? await pending.catch(() => null) : null
  if (index) out.push(...(indexRowFindings(index, config).get(example.id) ?? []))
  out.push(...dataset.findings.filter((f) => f.path === example.path && (f.row === null || (!index && f.row === example.row))))
  if (config) {
    const filtered = lengthFilteredFinding({ id: example.id, path: example.path, row: example.row, rowGroup: example.rowGroup, storedSamples: example.audioSize }, config)
    if (filtered && !out.some((f) => f.kind === filtered.kind && f.row === filtered.row)) out.push(filtered)
  }
  return out
}

/** The facts of a row read already, with `findings` as given (`rowFindings`: those the row summary counts). */
function factsOf(example: ExampleRow, verdict: QuickVerdict, findings: Finding[], rowFindings: readonly Finding[]): ExampleFacts {
  const head = example.audio ? example.audio.subarray(0, headerBytesShown) : new Uint8Array()
  const hexLines: string[] = []
  for (let i = 0; i < head.length; i += 16) hexLines.push(Array.from(head.subarray(i, i + 16), (b) => b.toString(16).padStart(2, '0')).join(' '))
  return {
    id: example.id, path: example.path, row: example.row, rowGroup: example.rowGroup, keys: example.keys, storedSamples: example.audioSize, text: example.text,
    encodedBytes: example.audio?.length ?? null, headerHex: hexLines.join('\n'),
    headerAscii: Array.from(head, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
    verdict, findings: sortFindings(findings), rowFindings: rowFindingSummary(rowFindings),
  }
}

/** The cheap audio check's finding about the row, if any. */
function verdictFindings(example: ExampleRow, verdict: QuickVerdict): Finding[] {
  const where = { row: example.row, row_group: example.rowGroup }
  if (!verdict.decodable) return [finding('error', 'undecodable-audio', example.path, `${example.id}: audio check: ${verdict.problem}: training would crash on this row`, where)]
  if (verdict.warnings.length > 0) return [finding('warning', 'damaged-audio-stream', example.path, `${example.id}: audio check: ${verdict.warnings.join('; ')}`, where)]
  return []
}

/** What decoding found: the decoder's failure (when the cheap check had passed the row), warnings, training's verdict, the length checks. */
function decodeFindings(example: ExampleRow, verdict: QuickVerdict, audio: DecodedAudio | null, error: Error | null): Finding[] {
  const where = { path: example.path, row: example.row, row_group: example.rowGroup }
  const out: Finding[] = []
  if (!audio) {
    if (verdict.decodable) out.push(finding('error', 'undecodable-audio', example.path, `${example.id}: ${error?.message ?? 'no audio'}: training would crash on this row`, where))
  } else {
    out.push(...audio.warnings.map((w) => finding('info', 'audio-decode-warning', example.path, w, where)))
    if (!audio.trainable) out.push(finding('error', 'untrainable-audio', example.path, `${example.id}: training cannot read this row: ${audio.untrainable} (what decodes here is not what training reads)`, where))
    out.push(...audioLengthFindings(where, example.audioSize, audio))
  }
  return out
}

/**
 * The config's length filter on the example's stored `audio_size`: the audit's `below-min-audio-len` or
 * `above-max-audio-len` warning (checks/length.ts, the same kind and words) when training drops it, else `null`.
 */
export function lengthFilteredFinding(facts: Pick<ExampleIdentity, 'id' | 'path' | 'row' | 'rowGroup'> & { storedSamples: number | null }, lengths: Pick<PipelineConfig, 'min_audio_len' | 'max_audio_len'>): Finding | null {
  const n = facts.storedSamples
  if (n === null || (n >= lengths.min_audio_len && n <= lengths.max_audio_len)) return null
  const below = n < lengths.min_audio_len
  return finding('warning', below ? 'below-min-audio-len' : 'above-max-audio-len', facts.path,
    `${facts.id} has audio_size ${n} (${(n / storedSampleRate).toFixed(2)} s), ${below ? `below min_audio_len ${lengths.min_audio_len}` : `above max_audio_len ${lengths.max_audio_len}`}: the length filter drops it`,
    { row: facts.row, row_group: facts.rowGroup })
}

/**
 * Reads example `id` (one row group's columns through the chunk cache), checks its bytes and decodes them: its facts with every finding (the row's, the cheap audio
 * check's, the decoder's). A row that does not decode is no error here:
 * `audio` is `null`, `decodeError` the decoder's error, and the facts say why training would crash on it.
 * @throws MixscopeError when the id names no row of the dataset; the abort reason when `signal` aborts
 */
export async function inspectExample(dataset: OpenDataset, id: string, options: { signal?: AbortSignal; config?: RowFindingConfig | null } = {}): Promise<InspectedExample> {
  const { file, row } = parseExampleId(id)
  const example = await readExample(dataset, file, row, { signal: options.signal })
  const verdict = quickAudioVerdict(example.audio)
  const known = [...await knownFindings(dataset, example, options.config ?? null), ...verdictFindings(example, verdict)]
  let audio: DecodedAudio | null = null
  let decodeError: Error | null = null
  const started = performance.now()
  try {
    if (!example.audio) throw new MixscopeError(`example: ${id} has a null audio_bytes`, 'null-value')
    audio = await decodeAudio(example.audio, { id })
  } catch (error) {
    decodeError = error as Error
  }
  const decodeMs = performance.now() - started
  options.signal?.throwIfAborted()
  const facts = factsOf(example, verdict, [...known, ...decodeFindings(example, verdict, audio, decodeError)], known)
  return { facts, example, audio, decodeError, decodeMs }
}
