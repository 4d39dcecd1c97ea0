/** "Dataset URL": a root URL holding `_manifest.json`, or a single `.parquet` URL; relative URLs resolve against the page. */
import { useId, useState, type FormEvent } from 'react'
import type { DatasetRequest } from '../../stores/dataset-store.ts'

/** Resolves what the user typed; a root URL without a trailing `/` that is not a `.parquet` gets one (docs/conventions.md). */
export function normalizeDatasetUrl(value: string, base: string): string {
  const url = new URL(value.trim(), base)
  if (!url.pathname.endsWith('/') && !url.pathname.toLowerCase().endsWith('.parquet')) url.pathname += '/'
  return url.href
}

export function OpenUrlForm({ onOpen }: { onOpen: (request: DatasetRequest) => void }) {
  const id = useId()
  const [value, setValue] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  function submit(event: FormEvent) {
    event.preventDefault()
    try {
      const url = normalizeDatasetUrl(value, window.location.href)
      setProblem(null)
      onOpen({ description: { type: 'url', url }, label: url })
    } catch {
      setProblem(`"${value}" is not a URL`)
    }
  }

  return (
    <form className="open-url" onSubmit={submit}>
      <label htmlFor={id}>Dataset URL</label>
      <input
        id={id}
        type="text"
        inputMode="url"
        spellCheck={false}
        required
        placeholder="https://host/data/version=0/"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={problem !== null}
        aria-describedby={problem ? `${id}-problem` : undefined}
      />
      <button type="submit">Open</button>
      {problem && <p id={`${id}-problem`} className="field-problem">{problem}</p>}
    </form>
  )
}
