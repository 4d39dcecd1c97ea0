/**
 * The pipeline config for planning: preset, split, rank / world size, seed, max batches, the main task fields, and a
 * pasted recipe YAML. Values go to the config store (the URL keeps preset, split, seed, rank, world size, max batches).
 * Empty inputs mean "as the preset / recipe says"; the placeholder shows that value.
 */
import { useState, type FormEvent } from 'react'
import { NumberField, type NumberRule } from '../../components/number-field.tsx'
import { SplitField } from '../../components/split-field.tsx'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableReport } from '../../stores/dataset-store.ts'
import type { PipelineConfig } from '../../../engine/pipeline/config/types.ts'
import type { ResolvedConfig } from '../../../engine/pipeline/config/resolve.ts'
import { configStore, useConfigStore } from '../../stores/config-store.ts'

/** Main task fields shown in the form (reference names), with the values the reference accepts. */
/** Stable empty list (no dataset open). */
const noNames: string[] = []
const numberFields: { key: keyof PipelineConfig; label: string; rule: NumberRule }[] = [
  { key: 'min_audio_len', label: 'min_audio_len (samples)', rule: { min: 0, integer: true, optional: true } },
  { key: 'max_audio_len', label: 'max_audio_len (samples)', rule: { min: 1, integer: true, optional: true } },
  { key: 'max_num_elements', label: 'max_num_elements (samples)', rule: { min: 1, integer: true, optional: true } },
  { key: 'batch_size', label: 'batch_size (STATIC)', rule: { min: 1, integer: true, optional: true } },
  { key: 'example_shuffle_window', label: 'example_shuffle_window', rule: { min: 0, integer: true, optional: true } },
  { key: 'batch_shuffle_window', label: 'batch_shuffle_window', rule: { min: 0, integer: true, optional: true } },
  { key: 'num_accumulate', label: 'num_accumulate (batches per step)', rule: { min: 1, integer: true, optional: true } },
]

export function ConfigForm({ resolved }: { resolved: ResolvedConfig | null }) {
  const state = useConfigStore((s) => s)
  const config = resolved?.config
  const [recipeText, setRecipeText] = useState('')
  const placeholder = (v: unknown) => (v === undefined || v === null ? '' : String(v))
  const splits = useDatasetStore((s) => usableReport(s)?.overview.splitNames) ?? noNames
  const corpora = useDatasetStore((s) => usableReport(s)?.overview.corpusNames) ?? noNames
  const worldSize = state.worldSize ?? config?.world_size ?? 1

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
        <SplitField id="batches-split" value={state.split} splits={splits} corpora={corpora} onChange={(split) => configStore.getState().update({ split })} />
        <NumberField id="batches-rank" label="Rank" value={state.rank} rule={{ min: 0, max: Math.max(0, worldSize - 1), integer: true, optional: true }} placeholder={placeholder(config?.rank)} onValue={(v) => configStore.getState().update({ rank: v })} />
        <NumberField id="batches-world" label="World size" value={state.worldSize} rule={{ min: 1, integer: true, optional: true }} placeholder={placeholder(config?.world_size)} onValue={(v) => configStore.getState().update({ worldSize: v })} />
        <NumberField id="batches-seed" label="Seed" value={state.seed} rule={{ min: 0, integer: true, optional: true }} placeholder={placeholder(config?.seed)} onValue={(v) => configStore.getState().update({ seed: v })} />
        <NumberField id="batches-max" label="Max batches" value={state.maxBatches} rule={{ min: 1, integer: true, optional: true }} placeholder={config?.max_num_batches ? String(config.max_num_batches) : '20 (train)'} onValue={(v) => configStore.getState().update({ maxBatches: v })} />
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
          <NumberField key={f.key} id={`batches-${f.key}`} label={f.label} value={typeof state.fields[f.key] === 'number' ? state.fields[f.key] as number : null}
            rule={f.rule} placeholder={placeholder(config?.[f.key])} onValue={(v) => configStore.getState().setField(f.key, v ?? undefined)} />
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
