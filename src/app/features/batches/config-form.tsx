/**
 * The pipeline config for planning: preset, split, rank / world size, seed, max batches, the main task fields, and a
 * pasted recipe YAML. Values go to the config store (the URL keeps preset, split, seed, rank, world size, max batches).
 * Empty inputs mean "as the preset / recipe says"; the placeholder shows that value.
 */
import { useState, type FormEvent } from 'react'
import type { PipelineConfig } from '../../../engine/config/types.ts'
import type { ResolvedConfig } from '../../../engine/config/resolve.ts'
import { configStore, useConfigStore } from '../../stores/config-store.ts'

/** Main task fields shown in the form (reference names). */
const numberFields: { key: keyof PipelineConfig; label: string }[] = [
  { key: 'min_audio_len', label: 'min_audio_len (samples)' },
  { key: 'max_audio_len', label: 'max_audio_len (samples)' },
  { key: 'max_num_elements', label: 'max_num_elements (samples)' },
  { key: 'batch_size', label: 'batch_size (STATIC)' },
  { key: 'example_shuffle_window', label: 'example_shuffle_window' },
  { key: 'batch_shuffle_window', label: 'batch_shuffle_window' },
  { key: 'num_accumulate', label: 'num_accumulate (batches per step)' },
]

function parseOptionalInt(text: string): number | null | 'bad' {
  if (text.trim() === '') return null
  return /^\d+$/.test(text.trim()) ? Number(text) : 'bad'
}

function NumberInput({ id, label, value, placeholder, onValue }: { id: string; label: string; value: number | null; placeholder: string; onValue: (v: number | null) => void }) {
  const [text, setText] = useState(value === null ? '' : String(value))
  const [shown, setShown] = useState(value)
  if (shown !== value) {
    // the store changed from elsewhere (URL, reset): show it
    setShown(value)
    setText(value === null ? '' : String(value))
  }
  const parsed = parseOptionalInt(text)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" inputMode="numeric" value={text} placeholder={placeholder} aria-invalid={parsed === 'bad'}
        onChange={(e) => {
          setText(e.target.value)
          const next = parseOptionalInt(e.target.value)
          if (next !== 'bad') {
            setShown(next)
            onValue(next)
          }
        }} />
    </div>
  )
}

export function ConfigForm({ resolved }: { resolved: ResolvedConfig | null }) {
  const state = useConfigStore((s) => s)
  const config = resolved?.config
  const [recipeText, setRecipeText] = useState('')
  const placeholder = (v: unknown) => (v === undefined || v === null ? '' : String(v))

  function applyRecipe(event: FormEvent) {
    event.preventDefault()
    configStore.getState().update({ recipe: recipeText.trim() === '' ? null : { name: 'pasted-recipe.yaml', text: recipeText } })
  }

  return (
    <div className="config-form">
      <fieldset>
        <legend>Run</legend>
        <div className="field">
          <label htmlFor="batches-preset">Preset</label>
          <select id="batches-preset" value={state.preset ?? ''} onChange={(e) => configStore.getState().update({ preset: e.target.value === '' ? null : e.target.value })}>
            <option value="">reference defaults</option>
            {(resolved?.presets ?? []).map((p) => <option key={p.name} value={p.name} title={p.description}>{p.name}</option>)}
            {state.preset !== null && !resolved?.presets.some((p) => p.name === state.preset) && <option value={state.preset}>{state.preset}</option>}
          </select>
        </div>
        <div className="field">
          <label htmlFor="batches-split">Split</label>
          <input id="batches-split" type="text" value={state.split} onChange={(e) => configStore.getState().update({ split: e.target.value })} />
        </div>
        <NumberInput id="batches-rank" label="Rank" value={state.rank} placeholder={placeholder(config?.rank)} onValue={(v) => configStore.getState().update({ rank: v })} />
        <NumberInput id="batches-world" label="World size" value={state.worldSize} placeholder={placeholder(config?.world_size)} onValue={(v) => configStore.getState().update({ worldSize: v })} />
        <NumberInput id="batches-seed" label="Seed" value={state.seed} placeholder={placeholder(config?.seed)} onValue={(v) => configStore.getState().update({ seed: v })} />
        <NumberInput id="batches-max" label="Max batches" value={state.maxBatches} placeholder={config?.max_num_batches ? String(config.max_num_batches) : '20 (train)'} onValue={(v) => configStore.getState().update({ maxBatches: v })} />
      </fieldset>
      <fieldset>
        <legend>Task</legend>
        <div className="field">
          <label htmlFor="batches-strategy">batching_strategy</label>
          <select id="batches-strategy" value={String(state.fields.batching_strategy ?? '')}
            onChange={(e) => configStore.getState().setField('batching_strategy', e.target.value === '' ? undefined : e.target.value)}>
            <option value="">{config ? `as configured (${config.batching_strategy})` : 'as configured'}</option>
            <option value="LENGTH">LENGTH</option>
            <option value="STATIC">STATIC</option>
          </select>
        </div>
        {numberFields.map((f) => (
          <NumberInput key={f.key} id={`batches-${f.key}`} label={f.label} value={typeof state.fields[f.key] === 'number' ? state.fields[f.key] as number : null}
            placeholder={placeholder(config?.[f.key])} onValue={(v) => configStore.getState().setField(f.key, v ?? undefined)} />
        ))}
      </fieldset>
      <form className="recipe-form" onSubmit={applyRecipe}>
        <label htmlFor="batches-recipe">Recipe YAML (pasted; applied on top of the preset)</label>
        <textarea id="batches-recipe" rows={4} value={recipeText} onChange={(e) => setRecipeText(e.target.value)}
          placeholder={'dataset:\n  asr_task_config:\n    max_audio_len: 320_000'} spellCheck={false} />
        <div className="row">
          <button type="submit">Apply recipe</button>
          {state.recipe && <span className="hint">Using recipe <code dir="auto">{state.recipe.name}</code> <button type="button" onClick={() => configStore.getState().update({ recipe: null })}>Remove</button></span>}
          <button type="button" onClick={() => configStore.getState().reset()}>Reset config</button>
        </div>
      </form>
    </div>
  )
}
