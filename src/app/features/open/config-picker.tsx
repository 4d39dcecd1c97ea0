/**
 * The training config the explorer plans, audits and mixes with: a preset, or a recipe YAML/JSON file on top of it.
 * Stored in the config store (the preset in the URL; the recipe's name is shown, its text stays in the page).
 */
import { useId, type ChangeEvent } from 'react'
import { engineClient } from '../../engine-client.ts'
import { configStore, useConfigStore, useResolvedConfig } from '../../stores/config-store.ts'

export function ConfigPicker() {
  const id = useId()
  const preset = useConfigStore((s) => s.preset)
  const recipe = useConfigStore((s) => s.recipe)
  const resolved = useResolvedConfig(engineClient)
  const errors = resolved?.findings.filter((f) => f.severity === 'error') ?? []

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file) configStore.getState().update({ recipe: { name: file.name, text: await file.text() } })
  }

  return (
    <div className="config-picker">
      <label htmlFor={`${id}-preset`}>Training config</label>
      <select id={`${id}-preset`} value={preset ?? ''} onChange={(e) => configStore.getState().update({ preset: e.target.value === '' ? null : e.target.value })}>
        <option value="">reference defaults</option>
        {(resolved?.presets ?? []).map((p) => <option key={p.name} value={p.name} title={p.description}>{p.name}</option>)}
      </select>
      <span className="file-button">
        <label htmlFor={`${id}-recipe`} className="button-like" title="A fairseq2 recipe YAML (or flat JSON/YAML), applied on top of the preset">Recipe…</label>
        <input id={`${id}-recipe`} className="visually-hidden" type="file" accept=".yaml,.yml,.json,application/json,application/yaml" onChange={(e) => void onFile(e)} />
      </span>
      {recipe && (
        <span className="hint">
          <code dir="auto">{recipe.name}</code> <button type="button" onClick={() => configStore.getState().update({ recipe: null })}>Remove recipe</button>
        </span>
      )}
      {errors.length > 0 && <span className="field-problem" role="alert">{errors.length} config error{errors.length === 1 ? '' : 's'}: {errors[0].message}</span>}
    </div>
  )
}
