/**
 * What the engine found in the input before anything is converted: rows per split and language, how each input
 * language code was mapped (with a choice where it is ambiguous), and the rows that will be skipped, with why.
 */
import { useMemo } from 'react'
import type { PrepareScanResult } from '../../../engine/worker/protocol/prepare.ts'
import type { SkippedRow } from '../../../engine/index.ts'
import { SKIP_REASONS } from '../../../engine/index.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatCount, formatHours } from '../../lib/format.ts'

const reasonLabel: Record<string, string> = {
  'bad-input-row': 'malformed input row', 'missing-audio': 'audio file missing', 'unreadable-audio': 'unreadable audio',
  'no-text': 'no transcript', 'empty-text': 'empty after normalization', 'no-language': 'no language code',
  'unknown-language': 'unknown language code', 'ambiguous-language': 'ambiguous language code',
}

/** What would write a skipped row, in this view's controls (the engine's `fix`; its `message` names CLI options). */
function fixText(fix: SkippedRow['fix'], scan: PrepareScanResult): string {
  if (fix === null) return ''
  if (fix.option === 'language') {
    const code = fix.code
    const choice = code !== null && scan.languages.some((l) => l.input === code && l.candidates.length > 0)
    return choice ? `: choose a language for “${code}” under Language codes` : ': set “Language” above for every row'
  }
  return ': set “Split” above to write every row to one split'
}

export function RecognizedInput({ scan, onDecide, disabled }: { scan: PrepareScanResult; onDecide: (code: string, language: string) => void; disabled: boolean }) {
  const total = useMemo(() => scan.partitions.reduce((n, p) => n + p.rows, 0), [scan])
  const skipped = SKIP_REASONS.filter((r) => scan.skipped[r] > 0)
  return (
    <div className="prepare-recognized">
      <p><strong>{scan.format}</strong>: {formatCount(scan.input_rows)} input rows; {formatCount(total)} will be converted into {formatCount(scan.partitions.length)} partitions{skipped.length ? `, ${formatCount(scan.input_rows - total)} skipped` : ''}.</p>
      <table className="prepare-partitions">
        <caption>Partitions to write</caption>
        <thead><tr><th scope="col">Corpus</th><th scope="col">Split</th><th scope="col">Language</th><th scope="col">Rows</th><th scope="col">Declared hours</th></tr></thead>
        <tbody>
          {scan.partitions.map((p) => (
            <tr key={`${p.corpus}/${p.split}/${p.language}`}>
              <td dir="auto">{p.corpus}</td><td>{p.split}</td><LanguageCell code={p.language} />
              <td className="num">{formatCount(p.rows)}</td>
              <td className="num">{p.declared_seconds === null ? '—' : formatHours(p.declared_seconds / 3600)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {scan.languages.length > 0 && (
        <table className="prepare-languages">
          <caption>Language codes</caption>
          <thead><tr><th scope="col">In the input</th><th scope="col">Rows</th><th scope="col">Written as</th><th scope="col">How</th></tr></thead>
          <tbody>
            {scan.languages.map((l) => (
              <tr key={l.input} className={l.output ? undefined : 'prepare-undecided'}>
                <td><code dir="auto">{l.input}</code></td>
                <td className="num">{formatCount(l.rows)}</td>
                <td>
                  {l.output ? <code>{l.output}</code> : l.candidates.length ? (
                    <select aria-label={`Language for "${l.input}"`} defaultValue="" disabled={disabled} onChange={(e) => e.target.value && onDecide(l.input, e.target.value)}>
                      <option value="" disabled>choose…</option>
                      {l.candidates.map((c) => <option key={c} value={c}>{c}</option>)}
                    </select>
                  ) : 'skipped'}
                </td>
                <td className="hint">{l.decided ? 'your choice' : l.note}{l.output && !l.listed ? ' (not among the languages Omnilingual ASR lists)' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {skipped.length > 0 && (
        <details className="prepare-skipped" open={scan.skipped_rows.length <= 20}>
          <summary>Skipped: {skipped.map((r) => `${formatCount(scan.skipped[r])} ${reasonLabel[r]}`).join(', ')}</summary>
          <ul>
            {scan.skipped_rows.map((s) => <li key={s.index}><code>{s.reason}</code> {s.problem}{fixText(s.fix, scan)}</li>)}
          </ul>
          {scan.skipped_rows.length < scan.input_rows - total && <p className="hint">The full list is written to <code>_prepare_skipped.jsonl</code>.</p>}
        </details>
      )}
      {scan.unknown_splits.map((u) => (
        <p key={u.split ?? ''} className="hint">{u.split === null ? `${formatCount(u.rows)} ${u.rows === 1 ? 'row names' : 'rows name'} no split and ${u.rows === 1 ? 'is' : 'are'} not written` : `split “${u.split}”: ${formatCount(u.rows)} ${u.rows === 1 ? 'row' : 'rows'} not written (not train, dev or test)`}; set “Split” above to write every row to one split.</p>
      ))}
      {scan.facts.map((n) => <p key={n} className="hint">{n}</p>)}
      <p className="hint">Audio that cannot be decoded shows only while converting; those rows are counted and listed too.</p>
    </div>
  )
}
