/**
 * The model input as training would receive it: the controls that change it (config fields, device, seed, the
 * `features` SpecAugment probability, GPU-vs-CPU check), where and how it was computed, its values as a picture,
 * and the SpecAugment masks over the spectrogram each variant acts on. Non-finite values are counted, never shown.
 */
import type { InspectResult } from '../../../engine/worker/protocol/inspect.ts'
import type { ModelInput, ValueStats } from '../../../engine/features/model-input-details.ts'
import { configStore, useConfigStore } from '../../stores/config-store.ts'
import type { HeatmapMask } from './heatmap-canvas.tsx'
import { FbankPlot, SpectrogramPlot, WaveformPlot } from './plots.tsx'
import { inspectorStore, useInspectorStore } from './use-inspector.ts'
import type { InspectConfig } from '../../../engine/worker/protocol/inspect.ts'

function formatValue(v: number | null): string {
  return v === null ? '—' : Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(3) : v.toFixed(4)
}

function Stats({ stats }: { stats: ValueStats }) {
  return (
    <span className="model-stats">
      min {formatValue(stats.min)}, max {formatValue(stats.max)}, mean {formatValue(stats.mean)}, std {formatValue(stats.std)}
      {stats.nonFinite > 0 && <strong className="severity warning"> — {stats.nonFinite} non-finite values (NaN/±inf, drawn magenta, left out of the statistics)</strong>}
    </span>
  )
}

function Comparison({ input }: { input: ModelInput }) {
  const c = input.comparison
  if (!c) return null
  if (c.error) return <p className="field-problem">{c.device.toUpperCase()} check failed: {c.error}</p>
  return (
    <p data-testid="device-comparison">
      {input.device.toUpperCase()} vs {c.device.toUpperCase()}: largest |Δ| {c.maxAbsDiff === null ? '— (shapes differ)' : c.maxAbsDiff.toExponential(2)}
      {c.nanMismatch > 0 ? `, ${c.nanMismatch} values NaN on one device only` : ''}
    </p>
  )
}

function Controls({ config: resolved }: { config: InspectConfig }) {
  // a field set here shows at once; the resolved config (a worker round trip) follows
  const fields = useConfigStore((s) => s.fields)
  const config = { ...resolved, ...Object.fromEntries(Object.entries(fields).filter(([k]) => k in resolved)) } as InspectConfig
  const settings = useInspectorStore((s) => s.settings)
  const update = inspectorStore.getState().updateSettings
  const setField = configStore.getState().setField
  return (
    <div className="model-controls">
      <label>Device <select aria-label="Device" value={settings.device} onChange={(e) => update({ device: e.target.value as 'gpu' | 'cpu' })}>
        <option value="gpu">GPU (WebGPU)</option><option value="cpu">CPU</option>
      </select></label>
      <label><input type="checkbox" checked={settings.compare} onChange={(e) => update({ compare: e.target.checked })} /> compare with the other device</label>
      <label><input type="checkbox" checked={config.use_fbank} onChange={(e) => setField('use_fbank', e.target.checked)} /> use_fbank</label>
      <label><input type="checkbox" checked={config.normalize_audio} onChange={(e) => setField('normalize_audio', e.target.checked)} /> normalize_audio</label>
      <label>spec_aug_p <input type="number" min="0" max="1" step="0.1" value={config.spec_aug_p ?? ''} placeholder="off"
        onChange={(e) => setField('spec_aug_p', e.target.value === '' ? null : Number(e.target.value))} /></label>
      <label>dtype <select aria-label="dtype" value={config.dtype} onChange={(e) => setField('dtype', e.target.value)}>
        <option value="float32">float32</option><option value="bfloat16">bfloat16</option>
      </select></label>
      <label>SpecAugment seed <input type="number" value={settings.seed} onChange={(e) => update({ seed: Math.trunc(Number(e.target.value) || 0) })} /></label>
      {config.use_fbank && <label>features SpecAugment p <input type="number" min="0" max="1" step="0.1" value={settings.featureP}
        onChange={(e) => update({ featureP: Math.min(1, Math.max(0, Number(e.target.value) || 0)) })} /></label>}
      <p className="hint spec-augment-help" data-testid="spec-augment-help">
        <strong>spec_aug_p</strong> is the training config's: the chance the reference applies its SpecAugment to an
        example, masking the waveform through its STFT before the cast, only when use_fbank is off (it never touches fbank
        features; docs/reference-pipeline.md §12). Training never seeds it, so <strong>SpecAugment seed</strong> picks
        one possible draw to look at. {config.use_fbank
          ? <><strong>features SpecAugment p</strong> is not in the reference: a what-if that outlines where
            time and frequency masks on the fbank would fall, without changing the values.</>
          : 'Turn use_fbank on to see fbank features instead.'}
      </p>
    </div>
  )
}

export function ModelInputPanel({ result, config, playhead }: { result: InspectResult; config: InspectConfig; playhead: number | null }) {
  const input = result.modelInput
  const sa = input.specAugment
  const referenceMasks: HeatmapMask[] = sa?.applied ? sa.masks.map((m, i) => ({ ...m, label: i === 0 ? '"frequency" mask (zeroes time frames, docs/reference-pipeline.md §12)' : 'time mask' })) : []
  const featureMasks: HeatmapMask[] = input.featureMasks?.applied ? input.featureMasks.masks.map((m) => ({ ...m, label: `features ${m.axis} mask (outlined only)` })) : []
  return (
    <section className="model-input" aria-labelledby="model-input-heading">
      <h3 id="model-input-heading">Model input</h3>
      <Controls config={config} />
      <p data-testid="model-input-device">
        <strong>{input.kind === 'fbank' ? 'fbank' : 'waveform'}</strong> [{input.shape.join(' × ')}] {input.dtype}, computed on{' '}
        <strong>{input.device === 'gpu' ? `GPU (${input.adapter ?? 'adapter'})` : 'CPU'}</strong> in {input.elapsedMs.toFixed(1)} ms
        {input.fallbackReason && <span className="severity warning"> — CPU because {input.fallbackReason}</span>}
      </p>
      <p className="hint">{input.steps.join(' → ')}</p>
      <p><Stats stats={input.stats} /></p>
      <Comparison input={input} />
      {input.kind === 'fbank'
        ? <FbankPlot testId="model-input-canvas" data={input.data} frames={input.shape[0]} bins={input.shape[1]} masks={featureMasks} playhead={playhead}
            label={`Standardized 80-bin fbank (${input.dtype})${input.featureMasks ? `, features SpecAugment seed ${input.featureMasks.seed}, p ${input.featureMasks.p}${input.featureMasks.applied ? '' : ' (not drawn)'}` : ''}`} />
        : <WaveformPlot testId="model-input-canvas" samples={input.data} sampleRate={result.meta.sampleRate} start={0} end={input.data.length} playhead={playhead}
            label={`Model input waveform (${input.dtype}), ${input.data.length} samples, scaled to its peak`} />}
      {sa && (
        <>
          {sa.error && <p className="field-problem">SpecAugment: {sa.error}</p>}
          <SpectrogramPlot testId="spec-augment-canvas" spec={sa.stft} masks={referenceMasks} playhead={playhead}
            label={`Reference SpecAugment on the STFT, seed ${sa.seed}, p ${sa.p}: ${sa.applied ? `applied, output ${sa.outputSamples} samples` : 'not drawn for this seed'}`} />
        </>
      )}
    </section>
  )
}
