/** The Inspector's text panels: transcript and tokens, metadata, findings. Dataset text is rendered as text. */
import type { ChangeEvent } from 'react'
import type { InspectResult } from '../../../engine/worker/protocol/inspect.ts'
import type { ExampleFacts } from '../../../engine/examples/example-facts.ts'
import type { RowFindingSummary } from '../../../engine/audit/flagged.ts'
import { formatBytes, formatCount, formatSamples } from '../../lib/format.ts'
import { bcp47Tag, languageLabel } from '../../lib/language-names.ts'
import { inspectorStore, useInspectorStore } from './use-inspector.ts'

/** The transcript as text; a null or empty one says so (training drops an empty transcript). */
export function TranscriptText({ text, language }: { text: string | null; language: string | undefined }) {
  if (text === null) return <p className="transcript empty" data-testid="transcript">(null transcript: training fails on this row)</p>
  if (text === '') return <p className="transcript empty" data-testid="transcript">(empty transcript)</p>
  return <p className="transcript" dir="auto" lang={bcp47Tag(language)} data-testid="transcript">{text}</p>
}

export function TranscriptPanel({ result }: { result: InspectResult }) {
  const tokenizer = useInspectorStore((s) => s.settings.tokenizer)
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (file) await inspectorStore.getState().loadTokenizer(file.name, new Uint8Array(await file.arrayBuffer()))
  }
  const tokens = result.tokens
  return (
    <section aria-labelledby="transcript-heading">
      <h3 id="transcript-heading">Transcript</h3>
      <TranscriptText text={result.text} language={result.meta.keys.language} />
      {tokens && (
        <>
          <p className="hint">{tokens.ids.length} tokens, {tokens.unknown} unknown — {tokens.tokenizer}</p>
          <ol className="tokens" aria-label="Tokens">
            {tokens.pieces.map((piece, i) => <li key={i} title={`id ${tokens.ids[i]}`} dir="auto">{piece}</li>)}
          </ol>
        </>
      )}
      <label className="hint">SentencePiece model {tokenizer ? `(${tokenizer.name}, ${tokenizer.vocabSize} pieces)` : ''}
        {' '}<input type="file" accept=".model" onChange={(e) => void pick(e)} /></label>
      {tokenizer && <button type="button" onClick={() => inspectorStore.getState().updateSettings({ tokenizer: null })}>Use char vocabulary</button>}
    </section>
  )
}

export function MetadataPanel({ result }: { result: InspectResult }) {
  const m = result.meta
  const rows: [string, string][] = [
    ['Example id', m.id],
    ['Language', m.keys.language ? `${m.keys.language} — ${languageLabel(m.keys.language)}` : '—'],
    ['Corpus / split', `${m.keys.corpus ?? '—'} / ${m.keys.split ?? '—'}`],
    ['Row group', String(m.rowGroup)],
    ['Row', String(m.row)],
    ['Stored length', m.storedSamples === null ? 'null' : `${formatCount(m.storedSamples)} samples (${formatSamples(m.storedSamples)} at 16 kHz)`],
    ['Decoded length', `${formatCount(m.decodedFrames)} frames (${formatSamples(m.decodedFrames * 16000 / m.sampleRate)})`],
    ['Codec', m.codec && m.codec !== m.container ? `${m.container} / ${m.codec}` : m.container],
    ['Sample rate', `${formatCount(m.sampleRate)} Hz`],
    ['Channels', String(m.channels)],
    ['Decoder', `${m.decoder} (${result.decodeMs.toFixed(1)} ms)`],
    ['Encoded size', formatBytes(m.encodedBytes)],
  ]
  return (
    <section aria-labelledby="metadata-heading">
      <h3 id="metadata-heading">Metadata</h3>
      <table className="metadata" data-testid="metadata">
        <tbody>{rows.map(([k, v]) => <tr key={k}><th scope="row">{k}</th><td dir="auto">{v}</td></tr>)}</tbody>
      </table>
    </section>
  )
}

/**
 * The row's findings as the Audit and the Examples list count them (distinct kinds, engine/audit/flagged.ts), and what
 * else the list holds (its file's findings, decoding it here, its model input).
 */
function RowFindingsLine({ row, all }: { row: RowFindingSummary; all: number }) {
  return (
    <p className="hint" data-testid="row-findings" data-count={row.count} data-kinds={row.kinds.join(' ')}>
      {row.count === 0 ? 'No row finding: the Audit and Examples do not flag this row' : <>Flagged row: <strong>{row.count} finding{row.count === 1 ? '' : 's'}</strong> ({row.kinds.join(', ')}), as the Audit and Examples count it</>}
      {all > row.count ? '; the rest are about its file, decoding it here or its model input.' : '.'}
    </p>
  )
}

export function FindingsPanel({ result }: { result: InspectResult }) {
  return (
    <section aria-labelledby="example-findings-heading">
      <h3 id="example-findings-heading">Findings ({result.findings.length})</h3>
      <RowFindingsLine row={result.rowFindings} all={result.findings.length} />
      {result.findings.length === 0 ? <p className="hint">No findings for this example.</p> : (
        <ul className="example-findings">
          {result.findings.map((f, i) => (
            <li key={i}><span className={`severity ${f.severity}`}>{f.severity}</span> <code>{f.kind}</code> <span dir="auto">{f.message}</span></li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** An example that does not decode: what is known without decoding (metadata, header bytes, the check's verdict, findings). */
export function FactsPanel({ facts }: { facts: ExampleFacts }) {
  const rows: [string, string][] = [
    ['Example id', facts.id],
    ['Language', facts.keys.language ? `${facts.keys.language} — ${languageLabel(facts.keys.language)}` : '—'],
    ['Corpus / split', `${facts.keys.corpus ?? '—'} / ${facts.keys.split ?? '—'}`],
    ['Row group', String(facts.rowGroup)],
    ['Row', String(facts.row)],
    ['Stored length', facts.storedSamples === null ? 'null' : `${formatCount(facts.storedSamples)} samples (${formatSamples(facts.storedSamples)} at 16 kHz)`],
    ['Encoded size', facts.encodedBytes === null ? 'null audio_bytes' : `${formatBytes(facts.encodedBytes)} (${formatCount(facts.encodedBytes)} bytes)`],
    ['Container (header)', facts.verdict.container ? `${facts.verdict.container}${facts.verdict.codec ? ` / ${facts.verdict.codec}` : ''}` : '—'],
    ['Sample rate (header)', facts.verdict.sampleRate === null ? '—' : `${formatCount(facts.verdict.sampleRate)} Hz`],
    ['Channels (header)', facts.verdict.channels === null ? '—' : String(facts.verdict.channels)],
    ['Audio check', facts.verdict.decodable ? 'the structure looks decodable' : `not decodable: ${facts.verdict.problem}`],
  ]
  return (
    <section className="facts" aria-labelledby="facts-heading">
      <h3 id="facts-heading">What is known without decoding</h3>
      <div className="inspector-columns">
        <div>
          <table className="metadata" data-testid="metadata">
            <tbody>{rows.map(([k, v]) => <tr key={k}><th scope="row">{k}</th><td dir="auto">{v}</td></tr>)}</tbody>
          </table>
          <h4>Transcript</h4>
          <TranscriptText text={facts.text} language={facts.keys.language} />
        </div>
        <div>
          <h4>First {facts.headerHex.split(/\s+/).filter((x) => x !== '').length} bytes</h4>
          {facts.encodedBytes ? <pre className="hexdump" data-testid="header-bytes" aria-label="Header bytes (hex)">{facts.headerHex}</pre> : <p className="hint">No bytes.</p>}
          {facts.encodedBytes ? <pre className="hexdump ascii" aria-label="Header bytes (ASCII)">{facts.headerAscii}</pre> : null}
          <h4>Findings ({facts.findings.length})</h4>
          <RowFindingsLine row={facts.rowFindings} all={facts.findings.length} />
          <ul className="example-findings">
            {facts.findings.map((f, i) => <li key={i}><span className={`severity ${f.severity}`}>{f.severity}</span> <code>{f.kind}</code> <span dir="auto">{f.message}</span></li>)}
          </ul>
        </div>
      </div>
    </section>
  )
}
