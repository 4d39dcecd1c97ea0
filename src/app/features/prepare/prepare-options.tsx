/** The Prepare view's options: the flags of `mixscope prepare` (docs/conventions.md "Dataprep"). */
import type { PrepareForm } from './prepare-store.ts'

export function PrepareOptionsForm({ form, disabled, canApply, onChange, onApply }: {
  form: PrepareForm; disabled: boolean; canApply: boolean; onChange: (patch: Partial<PrepareForm>) => void; onApply: () => void
}) {
  return (
    <form className="prepare-options" onSubmit={(e) => { e.preventDefault(); onApply() }}>
      <div className="field">
        <label htmlFor="prepare-format">Layout</label>
        <select id="prepare-format" value={form.inputFormat} disabled={disabled} onChange={(e) => onChange({ inputFormat: e.target.value as PrepareForm['inputFormat'] })}>
          <option value="">guess from the folder</option>
          <option value="nemo">NeMo manifest</option>
          <option value="nemo-tarred">NeMo tarred dataset</option>
          <option value="commonvoice">Common Voice</option>
          <option value="audiofolder">audiofolder</option>
          <option value="hf-parquet">Hugging Face parquet</option>
          <option value="lhotse">Lhotse manifests</option>
          <option value="webdataset">webdataset shards</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="prepare-corpus">Corpus</label>
        <input id="prepare-corpus" type="text" placeholder="from the input (required when it has none)" value={form.corpus} disabled={disabled} onChange={(e) => onChange({ corpus: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="prepare-language">Language</label>
        <input id="prepare-language" type="text" placeholder="from the input, e.g. eng_Latn" value={form.language} disabled={disabled} onChange={(e) => onChange({ language: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="prepare-split">Split</label>
        <input id="prepare-split" type="text" placeholder="from the input" value={form.split} disabled={disabled} onChange={(e) => onChange({ split: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="prepare-text-column">Transcript column</label>
        <input id="prepare-text-column" type="text" placeholder="guess" value={form.textColumn} disabled={disabled} onChange={(e) => onChange({ textColumn: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="prepare-audio-format">Audio</label>
        <select id="prepare-audio-format" value={form.audioFormat} disabled={disabled} onChange={(e) => onChange({ audioFormat: e.target.value as 'flac' | 'ogg' })}>
          <option value="flac">FLAC, 16-bit</option>
          <option value="ogg">Ogg Vorbis</option>
        </select>
      </div>
      <label className="prepare-check">
        <input type="checkbox" checked={form.normalizeText} disabled={disabled} onChange={(e) => onChange({ normalizeText: e.target.checked })} /> Normalize transcripts (the reference's <code>text_normalize</code>)
      </label>
      <button type="submit" disabled={disabled || !canApply}>Read the input again</button>
    </form>
  )
}
