/**
 * Mixture: tune `beta_corpus` / `beta_language` and see, live, each (corpus, language)'s natural share of the hours
 * against the probability the real sampler draws it with, the first draws of that sampler against expectation,
 * and the hours per language training sees in N steps. Exports the recipe block and the TSV.
 */
import { useEffect, useMemo } from 'react'
import { useStore } from 'zustand'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { engineClient } from '../../engine-client.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatCount, formatHours, formatShare } from '../../lib/format.ts'
import { configSpec, configStore, useConfigStore } from '../../stores/config-store.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { BetaControl } from './beta-control.tsx'
import { createMixtureStore } from './mixture-store.ts'
import { hoursPerLanguage, languageDistributionTsv, mixtureRecipeYaml } from './mixture-export.ts'
import { useBlobUrl } from './use-blob-url.ts'
import './mixture.css'

export const mixtureStore = createMixtureStore(engineClient)

const percentTick = (v: number) => `${Math.round(v * 100)}%`

export function MixtureView() {
  const report = useDatasetStore((s) => s.report)
  const configState = useConfigStore((s) => s)
  const spec = useMemo(() => configSpec(configState), [configState])
  const m = useStore(mixtureStore)
  const dataset = report?.dataset ?? null

  useEffect(() => {
    if (dataset !== null) void mixtureStore.getState().load(dataset, spec)
  }, [dataset, spec, m.draws, m.steps])

  const result = m.report
  const yaml = useMemo(() => (result ? mixtureRecipeYaml(result) : ''), [result])
  const tsv = useMemo(() => (result ? languageDistributionTsv(result) : ''), [result])
  const yamlUrl = useBlobUrl(yaml, 'application/yaml')
  const tsvUrl = useBlobUrl(tsv, 'text/tab-separated-values')
  const inSplit = useMemo(() => (result ? result.rows.filter((r) => r.in_split) : []), [result])
  const chartRows = useMemo(() => inSplit.map((r) => ({
    label: `${r.corpus}/${r.language}`, natural: r.natural_share ?? 0, sampling: r.sampling_probability ?? 0,
  })).sort((a, b) => b.natural - a.natural), [inSplit])
  const languages = useMemo(() => (result ? hoursPerLanguage(result) : []), [result])

  if (!report) return <p>Open a dataset to tune its mixture.</p>
  const configured = result?.config
  return (
    <section className="mixture-view" aria-labelledby="mixture-heading">
      <h2 id="mixture-heading">Mixture</h2>
      <div className="mixture-controls">
        <BetaControl label="beta_corpus" value={configState.betaCorpus} configured={configured?.beta_corpus ?? null}
          onChange={(v) => configStore.getState().update({ betaCorpus: v })} />
        <BetaControl label="beta_language" value={configState.betaLanguage} configured={configured?.beta_language ?? null}
          onChange={(v) => configStore.getState().update({ betaLanguage: v })} />
        <div className="field">
          <label htmlFor="mixture-split">Split</label>
          <input id="mixture-split" type="text" value={configState.split} onChange={(e) => configStore.getState().update({ split: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="mixture-draws">Sampler draws</label>
          <input id="mixture-draws" type="number" min={1} max={10_000_000} value={m.draws} onChange={(e) => { const v = Number(e.target.value); if (Number.isInteger(v) && v > 0) mixtureStore.getState().setDraws(v) }} />
        </div>
        <div className="field">
          <label htmlFor="mixture-steps">Training steps (N)</label>
          <input id="mixture-steps" type="number" min={1} value={m.steps} onChange={(e) => { const v = Number(e.target.value); if (Number.isInteger(v) && v > 0) mixtureStore.getState().setSteps(v) }} />
        </div>
      </div>
      <p role="status" aria-live="polite" className="hint">
        {m.status === 'loading' ? 'Updating…' : m.status === 'error' ? '' : result ? `Weights from ${result.source === 'tsv' ? `the stats TSV (${result.summary_path})` : 'the data (no TSV: training has no mixture)'}; preset ${configState.preset ?? 'reference defaults'}, split ${result.config.split}.` : ''}
      </p>
      {m.error && <p className="field-problem" role="alert">{m.error}</p>}
      {result && result.findings.length > 0 && (
        <ul className="config-findings" aria-label="Mixture problems">
          {result.findings.map((f, i) => <li key={i}><span className={`severity ${f.severity}`}>{f.severity}</span> <code>{f.kind}</code> <span dir="auto">{f.message}</span></li>)}
        </ul>
      )}
      {result && (
        <>
          <section aria-labelledby="shares-heading">
            <h3 id="shares-heading">Natural share vs sampling probability</h3>
            <div className="chart" role="img" aria-label={`Bar chart of natural hour share and sampling probability for ${chartRows.length} partitions of the split; the table "Mixture weights" lists the same values.`}>
              <ResponsiveContainer width="100%" height={Math.max(200, chartRows.length * 34 + 60)}>
                <BarChart data={chartRows} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                  <XAxis type="number" tickFormatter={percentTick} />
                  <YAxis type="category" dataKey="label" width={190} interval={0} />
                  <Tooltip formatter={(v, name) => [`${(Number(v) * 100).toFixed(3)}%`, name === 'natural' ? 'Natural share (hours)' : 'Sampling probability']} />
                  <Legend formatter={(name) => (name === 'natural' ? 'Natural share (hours)' : 'Sampling probability')} />
                  <Bar dataKey="natural" className="bar-natural" fill="#8b949e" isAnimationActive={false} />
                  <Bar dataKey="sampling" className="bar-sampling" fill="#2563eb" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
            <WeightsTable result={result} />
          </section>
          <section aria-labelledby="hours-steps-heading">
            <h3 id="hours-steps-heading">Hours per language in {formatCount(result.steps)} training steps</h3>
            <p className="hint">
              One step = {result.batches_per_step} batches (num_accumulate × world_size) of {formatCount(Math.round(result.samples_per_batch))} samples
              {result.basis === 'max_num_elements' ? ' (max_num_elements: an upper bound, padding and part-filled buckets lower it)' : ' (batch_size × mean example length)'}
              {' '}= {(result.step_seconds / 60).toFixed(1)} min of audio; shared by sampling probability × mean example length.
            </p>
            <table aria-label="Hours per language in N steps">
              <thead><tr><th scope="col">Language</th><th scope="col" className="num">Share of audio</th><th scope="col" className="num">Hours in {formatCount(result.steps)} steps</th></tr></thead>
              <tbody>
                {languages.map((l) => (
                  <tr key={l.language} data-language={l.language}>
                    <LanguageCell code={l.language} /><td className="num">{formatShare(l.share)}</td><td className="num" data-value={l.hours}>{formatHours(l.hours)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {languages.length === 0 && <p>No sampler for this split (eval split, one partition, or no TSV): training reads one stream.</p>}
          </section>
          <section aria-labelledby="export-heading">
            <h3 id="export-heading">Export</h3>
            <pre className="yaml" aria-label="Recipe block (YAML)" dir="ltr">{yaml}</pre>
            <div className="row">
              {yamlUrl && <a href={yamlUrl} download="mixture_parquet_storage_config.yaml">Download recipe block (YAML)</a>}
              {tsvUrl && <a href={tsvUrl} download="language_distribution_0.tsv">Download language_distribution_0.tsv</a>}
            </div>
          </section>
        </>
      )}
    </section>
  )
}

function WeightsTable({ result }: { result: NonNullable<ReturnType<typeof mixtureStore.getState>['report']> }) {
  return (
    <div className="scroll-box wide" tabIndex={0} role="region" aria-label="Mixture weights (scrollable)">
      <table aria-label="Mixture weights">
        <thead>
          <tr>
            <th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">Hours</th><th scope="col" className="num">Natural share</th>
            <th scope="col" className="num">Weight</th><th scope="col" className="num">Sampling probability</th>
            <th scope="col" className="num">Sampled (first {formatCount(result.draws)})</th><th scope="col" className="num">Expected</th>
            <th scope="col" className="num">Mean length (s)</th><th scope="col" className="num">Hours in {formatCount(result.steps)} steps</th>
          </tr>
        </thead>
        <tbody>
          {result.rows.map((r) => (
            <tr key={`${r.corpus}/${r.language}`} data-corpus={r.corpus} data-language={r.language} className={r.in_split ? undefined : 'out-of-split'}>
              <td dir="auto">{r.corpus}</td><LanguageCell code={r.language} />
              <td className="num" data-value={r.hours}>{formatHours(r.hours)}</td>
              <td className="num" data-value={r.natural_share ?? ''}>{r.natural_share === null ? 'not in split' : formatShare(r.natural_share)}</td>
              <td className="num" data-value={r.weight} title={String(r.weight)}>{r.weight.toFixed(6)}</td>
              <td className="num" data-value={r.sampling_probability ?? ''} title={String(r.sampling_probability)}>{r.sampling_probability === null ? '—' : r.sampling_probability.toFixed(6)}</td>
              <td className="num">{r.sampled === null ? '—' : formatCount(r.sampled)}</td>
              <td className="num">{r.expected === null ? '—' : r.expected.toFixed(1)}</td>
              <td className="num">{r.mean_seconds === null ? '—' : r.mean_seconds.toFixed(2)}</td>
              <td className="num" data-value={r.hours_per_steps ?? ''}>{r.hours_per_steps === null ? '—' : formatHours(r.hours_per_steps)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
