/**
 * What is known about one example without decoding it: its keys, row group, stored length and transcript, the size
 * and first bytes of its encoded audio, the cheap audio check's verdict (quick-audio.ts) and its findings. The
 * Inspector shows this when an example does not decode, so an undecodable row still shows its metadata, header
 * bytes and findings.
 */
import { type Finding, finding, sortFindings } from '../core/findings.ts'
import type { OpenDataset } from '../dataset/open.ts'
import { existingExampleIndex } from './example-index.ts'
import { parseExampleId, readExample } from '../dataset/read-example.ts'
import { quickAudioVerdict, type QuickVerdict } from '../audit/quick-audio.ts'

/** Header bytes shown (hex). */
export const headerBytesShown = 64

/** The facts about one example. */
export interface ExampleFacts {
  id: string
  path: string
  row: number
  rowGroup: number
  keys: Record<string, string>
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
  findings: Finding[]
}

/**
 * Reads example `id` (one row group's columns through the chunk cache) and checks its bytes without decoding.
 * @throws MixscopeError when the id names no row of the dataset
 */
export async function exampleFacts(dataset: OpenDataset, id: string, signal?: AbortSignal): Promise<ExampleFacts> {
  const { file, row } = parseExampleId(id)
  const example = await readExample(dataset, file, row, { signal })
  const head = example.audio ? example.audio.subarray(0, headerBytesShown) : new Uint8Array()
  const hexLines: string[] = []
  for (let i = 0; i < head.length; i += 16) hexLines.push(Array.from(head.subarray(i, i + 16), (b) => b.toString(16).padStart(2, '0')).join(' '))
  const verdict = quickAudioVerdict(example.audio)
  const where = { row: example.row, row_group: example.row_group }
  const findings: Finding[] = []
  const index = existingExampleIndex(dataset)
  if (index) findings.push(...((await index.catch(() => null))?.findings.get(id) ?? []))
  findings.push(...dataset.findings.filter((f) => f.path === file && (f.row === null || f.row === row)))
  if (!verdict.decodable) findings.push(finding('error', 'undecodable-audio', file, `${id}: audio check: ${verdict.problem}: training would crash on this row`, where))
  else if (verdict.warnings.length > 0) findings.push(finding('warning', 'damaged-audio-stream', file, `${id}: audio check: ${verdict.warnings.join('; ')}`, where))
  return {
    id, path: file, row: example.row, rowGroup: example.row_group, keys: example.keys, storedSamples: example.audioSize, text: example.text,
    encodedBytes: example.audio?.length ?? null, headerHex: hexLines.join('\n'),
    headerAscii: Array.from(head, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
    verdict, findings: sortFindings(findings),
  }
}
