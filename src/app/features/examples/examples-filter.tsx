/**
 * The Examples filter form: language, corpus and split (names shown beside codes), a length range in seconds, the
 * transcript search (debounced), and "random N per language" with its seed.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { languageLabel } from '../../lib/language-names.ts'
import { examplesStore, useExamplesStore } from '../../stores/use-examples-store.ts'

/** Stored samples per second (`audio_size` counts 16 kHz samples). */
const storedRate = 16000

function secondsToSamples(text: string): number | null {
  const value = Number(text)
  return text.trim() === '' || !Number.isFinite(value) || value < 0 ? null : Math.round(value * storedRate)
}

function Choice({ label, value, options, name, onChange }: {
  label: string; value: string; options: string[]; name: (code: string) => string; onChange: (value: string) => void
}) {
  return (
    <label className="examples-field">
      {label}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {options.map((o) => <option key={o} value={o}>{name(o)}</option>)}
      </select>
    </label>
  )
}

export function ExamplesFilter() {
  const facets = useExamplesStore((s) => s.facets)
  const filter = useExamplesStore((s) => s.filter)
  const sample = useExamplesStore((s) => s.sample)
  const [text, setText] = useState(filter.text ?? '')
  const [minSeconds, setMinSeconds] = useState('')
  const [maxSeconds, setMaxSeconds] = useState('')
  const [perLanguage, setPerLanguage] = useState(String(sample?.perLanguage ?? 5))
  const [seed, setSeed] = useState(String(sample?.seed ?? 0))

  // the transcript search runs 250 ms after the last keystroke
  useEffect(() => {
    if ((filter.text ?? '') === text) return
    const timer = setTimeout(() => void examplesStore.getState().setFilter({ text }), 250)
    return () => clearTimeout(timer)
  }, [text, filter.text])

  const applyLength = (event: FormEvent) => {
    event.preventDefault()
    void examplesStore.getState().setFilter({ minSamples: secondsToSamples(minSeconds), maxSamples: secondsToSamples(maxSeconds) })
  }
  const applySample = () => {
    const n = Math.max(1, Math.floor(Number(perLanguage) || 1))
    const s = Math.floor(Number(seed) || 0)
    void examplesStore.getState().setSample({ perLanguage: n, seed: s })
  }
  const languageName = (code: string) => (languageLabel(code) === code ? code : `${languageLabel(code)} (${code})`)

  return (
    <div className="examples-filter" role="search" aria-label="Filter examples">
      <Choice label="Language" value={filter.languages?.[0] ?? ''} options={facets?.languages ?? []} name={languageName}
        onChange={(v) => void examplesStore.getState().setFilter({ languages: v ? [v] : [] })} />
      <Choice label="Corpus" value={filter.corpora?.[0] ?? ''} options={facets?.corpora ?? []} name={(c) => c}
        onChange={(v) => void examplesStore.getState().setFilter({ corpora: v ? [v] : [] })} />
      <Choice label="Split" value={filter.splits?.[0] ?? ''} options={facets?.splits ?? []} name={(c) => c}
        onChange={(v) => void examplesStore.getState().setFilter({ splits: v ? [v] : [] })} />
      <label className="examples-field examples-text">
        Transcript contains
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="text" />
      </label>
      <form className="examples-length" onSubmit={applyLength} aria-label="Length range">
        <label>Min s <input type="number" min="0" step="0.1" value={minSeconds} onChange={(e) => setMinSeconds(e.target.value)} /></label>
        <label>Max s <input type="number" min="0" step="0.1" value={maxSeconds} onChange={(e) => setMaxSeconds(e.target.value)} /></label>
        <button type="submit">Apply length</button>
      </form>
      <div className="examples-sample" role="group" aria-label="Random sample per language">
        <label>Random <input type="number" min="1" value={perLanguage} onChange={(e) => setPerLanguage(e.target.value)} /></label>
        <span>per language, seed</span>
        <label className="visually-hidden" htmlFor="examples-seed">Sample seed</label>
        <input id="examples-seed" type="number" value={seed} onChange={(e) => setSeed(e.target.value)} />
        <button type="button" onClick={applySample}>Sample</button>
        {sample && <button type="button" onClick={() => void examplesStore.getState().setSample(null)}>All matches</button>}
      </div>
    </div>
  )
}
