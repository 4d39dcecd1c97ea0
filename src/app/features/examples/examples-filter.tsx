/**
 * The Examples filter: languages (the explorer's language focus: a searchable multi-select over every language),
 * corpora and splits (multi-selects), a length range in seconds with the reason a range matches nothing, the
 * transcript search (debounced), "only flagged", and "random N per language" with its seed.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { MultiSelect } from '../../components/multi-select.tsx'
import { parseNumberField } from '../../components/number-field.tsx'
import { languageLabel } from '../../lib/language-names.ts'
import { focusStore, useFocusStore } from '../../stores/focus-store.ts'
import { examplesStore, useExamplesStore } from '../../stores/use-examples-store.ts'

/** Stored samples per second (`audio_size` counts 16 kHz samples). */
const storedRate = 16000

/** Why a typed length range cannot match, or `null`. */
export function lengthRangeProblem(min: string, max: string): string | null {
  const lo = parseNumberField(min, { min: 0, optional: true })
  const hi = parseNumberField(max, { min: 0, optional: true })
  if (lo.problem) return `Min: ${lo.problem}`
  if (hi.problem) return `Max: ${hi.problem}`
  if (lo.value !== null && hi.value !== null && lo.value > hi.value) return `min ${lo.value} s is above max ${hi.value} s: no example can match`
  return null
}

export function ExamplesFilter() {
  const facets = useExamplesStore((s) => s.facets)
  const filter = useExamplesStore((s) => s.filter)
  const sample = useExamplesStore((s) => s.sample)
  const audioChecked = useExamplesStore((s) => s.audioChecked)
  const languages = useFocusStore((s) => s.languages)
  const [text, setText] = useState(filter.text ?? '')
  const [minSeconds, setMinSeconds] = useState(filter.minSamples ? String(filter.minSamples / storedRate) : '')
  const [maxSeconds, setMaxSeconds] = useState(filter.maxSamples ? String(filter.maxSamples / storedRate) : '')
  const [perLanguage, setPerLanguage] = useState(String(sample?.perLanguage ?? 5))
  const [seed, setSeed] = useState(String(sample?.seed ?? 0))
  const rangeProblem = lengthRangeProblem(minSeconds, maxSeconds)
  const sampleProblem = parseNumberField(perLanguage, { min: 1, integer: true }).problem ?? parseNumberField(seed, { integer: true, min: 0 }).problem

  // the transcript search runs 250 ms after the last keystroke
  useEffect(() => {
    if ((filter.text ?? '') === text) return
    const timer = setTimeout(() => void examplesStore.getState().setFilter({ text }), 250)
    return () => clearTimeout(timer)
  }, [text, filter.text])

  const applyLength = (event: FormEvent) => {
    event.preventDefault()
    if (rangeProblem) return
    const samples = (t: string) => { const v = parseNumberField(t, { min: 0, optional: true }).value; return v === null ? null : Math.round(v * storedRate) }
    void examplesStore.getState().setFilter({ minSamples: samples(minSeconds), maxSamples: samples(maxSeconds) })
  }
  const applySample = () => {
    if (sampleProblem) return
    void examplesStore.getState().setSample({ perLanguage: Number(perLanguage), seed: Number(seed) })
  }
  const languageName = (code: string) => languageLabel(code)

  return (
    <div className="examples-filter" role="search" aria-label="Filter examples">
      <MultiSelect label="Languages" options={facets?.languages ?? []} selected={languages} name={languageName} placeholder="All languages"
        onChange={(v) => focusStore.getState().set(v)} />
      <MultiSelect label="Corpora" options={facets?.corpora ?? []} selected={filter.corpora ?? []} placeholder="All corpora"
        onChange={(v) => void examplesStore.getState().setFilter({ corpora: v })} />
      <MultiSelect label="Splits" options={facets?.splits ?? []} selected={filter.splits ?? []} placeholder="All splits"
        onChange={(v) => void examplesStore.getState().setFilter({ splits: v })} />
      <label className="field examples-text">
        <span>Transcript contains</span>
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="text" />
      </label>
      <form className="examples-length" onSubmit={applyLength} aria-label="Length range">
        <label className="field"><span>Min s</span><input type="text" inputMode="decimal" value={minSeconds} aria-invalid={rangeProblem?.startsWith('Min') || rangeProblem?.includes('above') || false} onChange={(e) => setMinSeconds(e.target.value)} /></label>
        <label className="field"><span>Max s</span><input type="text" inputMode="decimal" value={maxSeconds} aria-invalid={rangeProblem?.startsWith('Max') || rangeProblem?.includes('above') || false} onChange={(e) => setMaxSeconds(e.target.value)} /></label>
        <button type="submit" disabled={rangeProblem !== null}>Apply length</button>
        {rangeProblem && <p className="field-problem" role="alert">{rangeProblem}</p>}
      </form>
      <div className="examples-check">
        <label><input type="checkbox" checked={filter.flaggedOnly ?? false} aria-describedby="examples-flag-source" onChange={(e) => void examplesStore.getState().setFilter({ flaggedOnly: e.target.checked })} /> Only flagged</label>
        <span id="examples-flag-source" className="field-note" data-audio-checked={audioChecked ? 'true' : 'false'}>
          {audioChecked ? 'the Audit’s row findings for this config' : 'the Audit’s metadata row findings for this config; its audio check adds undecodable rows'}
        </span>
      </div>
      <div className="examples-sample" role="group" aria-label="Random sample per language">
        <label className="field"><span>Random per language</span><input type="text" inputMode="numeric" value={perLanguage} aria-invalid={parseNumberField(perLanguage, { min: 1, integer: true }).problem !== null} onChange={(e) => setPerLanguage(e.target.value)} /></label>
        <label className="field"><span>Seed</span><input id="examples-seed" type="text" inputMode="numeric" value={seed} aria-invalid={parseNumberField(seed, { integer: true, min: 0 }).problem !== null} onChange={(e) => setSeed(e.target.value)} /></label>
        <button type="button" onClick={applySample} disabled={sampleProblem !== null}>Sample</button>
        {sample && <button type="button" onClick={() => void examplesStore.getState().setSample(null)}>All matches</button>}
        {sampleProblem && <p className="field-problem" role="alert">{sampleProblem}</p>}
      </div>
    </div>
  )
}
