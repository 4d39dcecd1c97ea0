/** The Inspector's text panels: transcript and tokens, metadata, findings. Dataset text is rendered as text. */
import type { ChangeEvent } from 'react'
import type { InspectResult } from '../../../engine/worker/protocol/inspect.ts'
import { formatBytes } from '../../lib/format.ts'
import { languageLabel } from '../../lib/language-names.ts'
import { inspectorStore, useInspectorStore } from './use-inspector.ts'

/** BCP 47 tag of an Omnilingual code (`cmn_Hans` → `cmn-Hans`) for the `lang` attribute. */
function langTag(code: string | undefined): string | undefined {
  return code && /^[a-z]{2,3}_[A-Z][a-z]{3}$/.test(code) ? code.replace('_', '-') : undefined
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
      {result.text === null ? <p className="hint">null transcript</p>
        : <p className="transcript" dir="auto" lang={langTag(result.meta.keys.language)} data-testid="transcript">{result.text}</p>}
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
    ['Stored length', m.storedSamples === null ? 'null' : `${m.storedSamples} samples (${(m.storedSamples / 16000).toFixed(3)} s at 16 kHz)`],
    ['Decoded length', `${m.decodedFrames} frames (${(m.decodedFrames / m.sampleRate).toFixed(3)} s)`],
    ['Codec', m.codec && m.codec !== m.container ? `${m.container} / ${m.codec}` : m.container],
    ['Sample rate', `${m.sampleRate} Hz`],
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

export function FindingsPanel({ result }: { result: InspectResult }) {
  return (
    <section aria-labelledby="example-findings-heading">
      <h3 id="example-findings-heading">Findings ({result.findings.length})</h3>
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
