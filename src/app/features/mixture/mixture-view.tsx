/**
 * Mixture: tune `beta_corpus` / `beta_language` and see, live, each (corpus, language)'s natural share of the hours
 * against the probability the real sampler draws it with: a log-log scatter that holds 1,600 partitions, the top
 * partitions as bars, and the "Find language" table; the first draws of the sampler against expectation; what the
 * model sees in N steps (hours drawn, epochs of each language's data, the chance it is never drawn, curves over
 * steps). Exports the recipe block and the TSV. The language focus narrows the charts and the tables to the focused
 * languages' partitions; their shares and probabilities stay those of the whole split (what the sampler draws).
 */
import { memo, useCallback, useDeferredValue, useEffect, useMemo } from 'react'
import { useStore } from 'zustand'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { MixtureRow, MixtureViewReport } from '../../../engine/mixture/mixture.ts'
import type { ExposureCurveRow } from '../../../engine/mixture/exposure-report.ts'
import { resolveConfig } from '../../../engine/index.ts'
import { engineClient } from '../../engine-client.ts'
import { categorical, noGridLines, legendProps, tickStyle, tooltipProps } from '../../components/charts/theme.ts'
import { FindingGroups } from '../../components/finding-groups.tsx'
import { findingsInFocus } from '../../lib/finding-language.ts'
import { LanguageTable } from '../../components/language-table.tsx'
import { NumberField } from '../../components/number-field.tsx'
import { NumCell } from '../../components/num.tsx'
import { SplitField } from '../../components/split-field.tsx'
import { formatCount, formatProbability, formatSeconds, formatShare } from '../../lib/format.ts'
import { configSpec, configStore, useConfigStore } from '../../stores/config-store.ts'
import { focusStore, useFocusSet } from '../../stores/focus-store.ts'
import { RankedBars } from '../../components/charts/ranked-bars.tsx'
import { Staged, useStage } from '../../components/staged.tsx'
import { languageLabel } from '../../lib/language-names.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableReport } from '../../stores/dataset-store.ts'
import { BetaControl } from './beta-control.tsx'
import { createMixtureStore } from './mixture-store.ts'
import { languageDistributionTsv, mixtureRecipeYaml } from './mixture-export.ts'
import { ExposureCurves } from './exposure-curves.tsx'
import { ShareScatter } from './share-scatter.tsx'
import { downloadBytes } from '../../lib/download.ts'
import { sameRecords, useSame } from '../../lib/use-same.ts'
import './mixture.css'

export const mixtureStore = createMixtureStore(engineClient)

/** Stable empty list (no dataset open). */
const noNames: string[] = []
const noLanguages: ExposureCurveRow[] = []
/** A probability of never being drawn: exponents below 0.001, so 1e-40 does not read as 0. */
/** A slider position as a step count with two significant digits (1,000 · 1,300 · 1,600 …). */
const roundSteps = (v: number) => { const e = 10 ** Math.max(0, Math.floor(Math.log10(v)) - 1); return Math.max(1, Math.round(v / e) * e) }
const formatNever = (p: number) => (p > 0 && p < 0.001 ? p.toExponential(1) : formatProbability(p))
const percentTick = (v: number) => formatShare(v)
/** Two weights read the same on the page (the sampler's 24-bit draws differ from the float64 weight far below that). */
const same = (a: number | null, b: number | null) => a === b || (a !== null && b !== null && formatProbability(a) === formatProbability(b))

/**
 * The scatter and the top bars, each mounting in its own idle period (`stage` 1 and 2): a recharts chart's first
 * mount is one React commit React cannot slice (its store's registration dispatches), so the two together were one
 * task of about 0.4 s after the view's first result at 1,600 languages. Their data is kept while equal in value
 * (`useSame`): a beta step's full report has the weights its quick answer had, so the charts render once per step.
 */
const Charts = memo(function Charts({ rows, stage, scope }: { rows: MixtureRow[]; stage: number; scope: string }) {
  const all = useSame(useMemo(() => rows.filter((r) => r.natural_share !== null && r.sampling_probability !== null && r.natural_share > 0 && r.sampling_probability > 0)
    .map((r) => ({ x: r.natural_share as number, y: r.sampling_probability as number })), [rows]), sameRecords)
  // at most one mark per cell of an 80 × 80 log grid: 2,000 partitions draw a few hundred marks
  const points = useMemo(() => {
    const cells = new Map<string, { x: number; y: number; n: number }>()
    for (const p of all) {
      const key = `${Math.round(Math.log10(p.x) * 20)}/${Math.round(Math.log10(p.y) * 20)}`
      const c = cells.get(key)
      if (c) c.n++
      else cells.set(key, { ...p, n: 1 })
    }
    return [...cells.values()]
  }, [all])
  const top = useSame(useMemo(() => [...rows].filter((r) => r.natural_share !== null).sort((a, b) => (b.sampling_probability ?? 0) - (a.sampling_probability ?? 0)).slice(0, 12)
    .map((r) => ({ label: `${r.corpus}/${r.language}`, natural: r.natural_share ?? 0, sampling: r.sampling_probability ?? 0 })), [rows]), sameRecords)
  const up = useMemo(() => all.filter((p) => p.y > p.x * 1.0001).length, [all])
  const lo = useMemo(() => Math.min(...points.flatMap((p) => [p.x, p.y]), 1), [points])
  return (
    <div className="grid-2">
      <ScatterPanel points={points} partitions={all.length} up={up} lo={lo} stage={stage} scope={scope} />
      <TopPanel top={top} partitions={rows.length} stage={stage} scope={scope} />
    </div>
  )
})

const ScatterPanel = memo(function ScatterPanel({ points, partitions, up, lo, stage, scope }: {
  points: { x: number; y: number; n: number }[]; partitions: number; up: number; lo: number; stage: number; scope: string
}) {
  return (
      <section className="panel" aria-labelledby="scatter-heading">
        <h4 id="scatter-heading" data-partitions={partitions}>Sampling probability against natural share ({formatCount(partitions)} partitions{scope}, log–log)</h4>
        <Staged stage={stage} at={1} minHeight={300}>
        <div className="chart" role="img" aria-label={`Scatter plot of sampling probability against natural hour share for ${partitions} partitions; above the diagonal a partition is drawn more often than its hours alone would make it (${up} are).`}>
          <ShareScatter marks={points} floor={lo / 1.5} height={300} />
        </div>
        </Staged>
        <p className="hint">Above the dashed diagonal a partition is drawn more often than its hours alone would make it: {formatCount(up)} of {formatCount(partitions)}{points.length < partitions ? ` (${formatCount(points.length)} marks: nearby partitions share one)` : ''}.</p>
      </section>
  )
})

const TopPanel = memo(function TopPanel({ top, partitions, stage, scope }: {
  top: { label: string; natural: number; sampling: number }[]; partitions: number; stage: number; scope: string
}) {
  return (
      <section className="panel" aria-labelledby="shares-heading">
        <h4 id="shares-heading" data-partitions={top.length}>Natural share vs sampling probability, most sampled{scope}</h4>
        <Staged stage={stage} at={2} minHeight={Math.max(200, top.length * 30 + 60)}>
        <div className="chart" role="img" aria-label={`Bar chart of natural hour share and sampling probability for the ${top.length} most sampled of ${partitions} partitions; the table "Mixture weights" lists every value.`}>
          <ResponsiveContainer width="100%" height={Math.max(200, top.length * 30 + 60)}>
            <BarChart data={top} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} horizontalCoordinatesGenerator={noGridLines} stroke="var(--grid)" />
              <XAxis type="number" tickFormatter={percentTick} tick={tickStyle} />
              <YAxis type="category" dataKey="label" width={150} interval={0} tick={tickStyle} />
              <Tooltip {...tooltipProps} formatter={(v, name) => [formatShare(Number(v)), name === 'natural' ? 'Natural share (hours)' : 'Sampling probability']} />
              <Legend {...legendProps} formatter={(name) => (name === 'natural' ? 'Natural share (hours)' : 'Sampling probability')} />
              <Bar dataKey="natural" fill="var(--cat-8)" isAnimationActive={false} />
              <Bar dataKey="sampling" fill={categorical(0)} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
        </Staged>
      </section>
  )
})

/**
 * Every partition of the split by sampling probability, ranked, zoomable: the tail a top-N chart never shows. Its
 * items and names are kept while equal in value (`useSame`), so RankedBars (memoized) skips a report whose
 * probabilities did not change.
 */
const RankedProbabilities = memo(function RankedProbabilities({ rows, scope }: { rows: MixtureRow[]; scope: string }) {
  const focus = useFocusSet()
  const items = useSame(useMemo(() => rows.filter((r) => r.sampling_probability !== null).map((r) => ({ key: `${r.corpus}/${r.language}`, value: r.sampling_probability as number })), [rows]), sameRecords)
  const names = useSame(useMemo(() => rows.map((r) => ({ key: `${r.corpus}/${r.language}`, language: r.language })), [rows]), sameRecords)
  const languageOf = useMemo(() => new Map(names.map((n) => [n.key, n.language])), [names])
  const selected = useMemo(() => new Set(focus.size === 0 ? [] : items.filter((i) => focus.has(languageOf.get(i.key)!)).map((i) => i.key)), [items, focus, languageOf])
  const label = useCallback((key: string) => { const language = languageOf.get(key) ?? ''; return `${key.slice(0, key.length - language.length - 1)} · ${languageLabel(language)}` }, [languageOf])
  const onSelect = useCallback((key: string) => { const language = languageOf.get(key); if (language) focusStore.getState().toggle(language) }, [languageOf])
  if (items.length === 0) return null
  return (
    <section className="panel" aria-labelledby="ranked-p-heading">
      <h4 id="ranked-p-heading" data-partitions={items.length}>Every partition{scope} by sampling probability, ranked: zoom into any rank range</h4>
      <RankedBars items={items} noun={rankedNoun} format={formatShare} metric="sampling probability"
        label={label} chartLabel="Bar chart of sampling probability per partition" selected={selected} onSelect={onSelect} />
    </section>
  )
})

const rankedNoun: [string, string] = ['partition', 'partitions']

const WeightsTable = memo(function WeightsTable({ rows, draws, steps }: { rows: MixtureRow[]; draws: number; steps: number }) {
  const showWeight = rows.some((r) => !same(r.weight, r.sampling_probability))
  return (
    <>
      {!showWeight && <p className="hint">The reference's weight equals the sampling probability for every partition here, so one column shows both.</p>}
      <LanguageTable<MixtureRow> rows={rows} label="Mixture weights" height={380} noun={['partition', 'partitions']}
        rowKey={(r) => `${r.corpus}/${r.language}`} rowData={(r) => ({ corpus: r.corpus, 'in-split': String(r.in_split), weight: String(r.weight) })} initialSort={{ id: 'p', descending: true }}
        columns={[
          { id: 'corpus', header: 'Corpus', sortValue: (r) => r.corpus, cell: (r) => <td dir="auto">{r.corpus}</td> },
          { id: 'hours', header: 'Hours', numeric: true, sortValue: (r) => r.hours, cell: (r) => <NumCell value={r.hours} kind="hours" /> },
          { id: 'natural', header: 'Natural share', numeric: true, sortValue: (r) => r.natural_share, cell: (r) => <NumCell value={r.natural_share} kind="share" empty="not in split" /> },
          ...(showWeight ? [{ id: 'weight', header: 'Weight', numeric: true, title: 'p_c · p_l|c over the whole TSV (the reference weight dict)', sortValue: (r: MixtureRow) => r.weight, cell: (r: MixtureRow) => <NumCell value={r.weight} kind="probability" /> }] : []),
          { id: 'p', header: showWeight ? 'Sampling probability' : 'Weight = sampling probability', numeric: true, sortValue: (r) => r.sampling_probability, cell: (r) => <NumCell value={r.sampling_probability} kind="probability" /> },
          { id: 'boost', header: 'vs natural', numeric: true, title: 'sampling probability ÷ natural share: above 1 the partition is drawn more often than its hours', sortValue: (r) => (r.sampling_probability !== null && r.natural_share ? r.sampling_probability / r.natural_share : null),
            cell: (r) => { const v = r.sampling_probability !== null && r.natural_share ? r.sampling_probability / r.natural_share : null; return <td className="num" data-value={v ?? ''}>{v === null ? '—' : `×${formatProbability(v)}`}</td> } },
          { id: 'sampled', header: `Sampled (first ${formatCount(draws)})`, numeric: true, sortValue: (r) => r.sampled, cell: (r) => <NumCell value={r.sampled} kind="count" /> },
          { id: 'expected', header: 'Expected', numeric: true, sortValue: (r) => r.expected, cell: (r) => <td className="num" data-value={r.expected ?? ''}>{r.expected === null ? '—' : formatProbability(r.expected)}</td> },
          { id: 'mean', header: 'Mean length', numeric: true, sortValue: (r) => r.mean_seconds, cell: (r) => <td className="num" data-value={r.mean_seconds ?? ''}>{r.mean_seconds === null ? '—' : formatSeconds(r.mean_seconds)}</td> },
          { id: 'steps', header: `Hours in ${formatCount(steps)} steps`, numeric: true, sortValue: (r) => r.hours_per_steps, cell: (r) => <NumCell value={r.hours_per_steps} kind="hours" /> },
        ]} />
    </>
  )
})

/** What the model sees in N steps: the exposure model's numbers, curves and table (the expensive half of an update). */
const Exposure = memo(function Exposure({ exposure, steps, batchesPerStep, stepSeconds, focus }: {
  exposure: MixtureViewReport['exposure']; steps: number; batchesPerStep: number; stepSeconds: number; focus: ReadonlySet<string>
}) {
  const allLanguages: ExposureCurveRow[] = exposure?.languages ?? noLanguages
  const languages = useMemo(() => (focus.size === 0 ? allLanguages : allLanguages.filter((l) => focus.has(l.language))), [allLanguages, focus])
  return (
          <section aria-labelledby="hours-steps-heading">
            <h3 id="hours-steps-heading">What the model sees in {formatCount(steps)} training steps{focus.size > 0 ? ` (${formatCount(focus.size)} focused language${focus.size === 1 ? '' : 's'})` : ''}</h3>
            {exposure === null ? <p>This split is read once (evaluation), or its batching cannot be built: nothing is repeated.</p> : (
              <>
                <p className="hint">
                  {exposure.draws === 'sampler' ? 'The sampler' : 'One shuffled stream (no mixture)'} draws {exposure.draws_per_step === null ? 'no example that the length filter keeps' : `${formatCount(Math.round(exposure.draws_per_step))} examples per step on every rank, the same partitions on each`};
                  {' '}a batch holds {exposure.examples_per_batch === null ? '—' : formatProbability(exposure.examples_per_batch)} examples on average ({exposure.basis === 'length-buckets' ? 'the length buckets of max_num_elements' : 'batch_size'}),
                  {' '}a step is {batchesPerStep} batches (num_accumulate × world_size) = {formatSeconds(stepSeconds)} of audio.
                  {' '}Epochs = hours seen ÷ the hours the length filter keeps; lengths come from each row group's audio_size facts, no row is read.
                </p>
                <ExposureCurves exposure={exposure} focus={focus} />
                <LanguageTable rows={languages} label="What the model sees in N steps" height={300} initialSort={{ id: 'epochs', descending: true }}
                  columns={[
                    { id: 'hours', header: `Hours seen by step ${formatCount(steps)}`, numeric: true, sortValue: (l) => l.hours_drawn, cell: (l) => <NumCell value={l.hours_drawn} kind="hours" /> },
                    { id: 'available', header: 'Hours available', numeric: true, sortValue: (l) => l.hours_available, cell: (l) => <NumCell value={l.hours_available} kind="hours" /> },
                    { id: 'epochs', header: 'Epochs of its data', numeric: true, title: 'hours seen ÷ hours available: how many times the model sees each example', sortValue: (l) => l.expected_epochs,
                      cell: (l) => <td className="num" data-value={l.expected_epochs ?? ''}>{l.expected_epochs === null ? '—' : formatProbability(l.expected_epochs)}</td> },
                    { id: 'never', header: 'P(never drawn)', numeric: true, title: 'probability that no draw on any rank picked the language by this step', sortValue: (l) => l.p_not_drawn,
                      cell: (l) => <td className="num" data-value={l.p_not_drawn ?? ''}>{l.p_not_drawn === null ? '—' : formatNever(l.p_not_drawn)}</td> },
                  ]} />
              </>
            )}
          </section>
  )
})

export function MixtureView() {
  const report = useDatasetStore(usableReport)
  const configState = useConfigStore((s) => s)
  const spec = useMemo(() => configSpec(configState), [configState])
  // the betas the config gives without the view's own beta overrides: what "Use config" goes back to
  // (resolved again only when something other than the view's betas changes: a slider step does not)
  const withoutBetas = useMemo(() => JSON.stringify(configSpec({ ...configState, betaCorpus: null, betaLanguage: null })), [configState])
  const configBetas = useMemo(() => {
    const { config } = resolveConfig(JSON.parse(withoutBetas) as ReturnType<typeof configSpec>)
    return { corpus: config.beta_corpus, language: config.beta_language }
  }, [withoutBetas])
  const m = useStore(mixtureStore)
  const focus = useFocusSet()
  const dataset = report?.dataset ?? null

  useEffect(() => {
    if (dataset !== null) void mixtureStore.getState().load(dataset, spec)
  }, [dataset, spec, m.draws, m.steps])

  const result = m.report
  // the weights table and the status line follow every update at once; the charts, the exposure and the exports
  // follow a deferred copy, which React renders after the fresh numbers are on screen (and drops for a newer one)
  const later = useDeferredValue(result)
  const yaml = useMemo(() => (later ? mixtureRecipeYaml(later) : ''), [later])
  const inSplit = useMemo(() => (later ? later.rows.filter((r) => r.in_split) : []), [later])
  const shown = useMemo(() => (focus.size === 0 ? result?.rows ?? [] : (result?.rows ?? []).filter((r) => focus.has(r.language))), [result, focus])
  const focusedFindings = useMemo(() => findingsInFocus(result?.findings ?? [], focus), [result, focus])
  const inSplitShown = useMemo(() => (focus.size === 0 ? inSplit : inSplit.filter((r) => focus.has(r.language))), [inSplit, focus])
  const scope = focus.size > 0 ? ` of the ${formatCount(focus.size)} focused language${focus.size === 1 ? '' : 's'}` : ''
  const stage = useStage(5, m.report !== null)
  const splits = report?.overview.splitNames ?? noNames
  const corpora = report?.overview.corpusNames ?? noNames

  if (!report) return <div className="empty-state"><h3>No dataset open</h3><p>Open a dataset with a <code>language_distribution_*.tsv</code> to tune its mixture; without one, training reads one stream.</p></div>
  // 'all': nothing shown is for the latest config yet; 'details': the weights are, the draws and exposure not yet
  const staleAll = m.status === 'loading' && result !== null && m.stale === 'all'
  const staleDetails = (m.status === 'loading' && result !== null) || later !== result
  return (
    <section className="mixture-view" aria-labelledby="mixture-heading">
      <h2 id="mixture-heading" className="visually-hidden">Mixture</h2>
      <div className="mixture-controls">
        <BetaControl label="beta_corpus" value={configState.betaCorpus} configured={configBetas.corpus}
          onChange={(v) => configStore.getState().update({ betaCorpus: v })} />
        <BetaControl label="beta_language" value={configState.betaLanguage} configured={configBetas.language}
          onChange={(v) => configStore.getState().update({ betaLanguage: v })} />
        <SplitField id="mixture-split" value={configState.split} splits={splits} corpora={corpora} onChange={(split) => configStore.getState().update({ split })} />
        <NumberField id="mixture-draws" label="Sampler draws" value={m.draws} rule={{ min: 1, max: 10_000_000, integer: true }} onValue={(v) => { if (v !== null) mixtureStore.getState().setDraws(v) }} />
        <NumberField id="mixture-steps" label="Training steps (N)" value={m.steps} rule={{ min: 1, max: 1e12, integer: true }} onValue={(v) => { if (v !== null) mixtureStore.getState().setSteps(v) }} />
        <label className="steps-slider">
          <span>Steps, log scale</span>
          <input type="range" min={0} max={7} step={0.1} value={Math.log10(m.steps)} aria-valuetext={`${formatCount(m.steps)} steps`}
            onChange={(e) => mixtureStore.getState().setSteps(roundSteps(10 ** Number(e.currentTarget.value)))} />
        </label>
      </div>
      <p role="status" aria-live="polite" className="hint">
        {m.status === 'loading' ? (m.stale === 'details' ? 'Weights updated; updating the sampler draws and what the model sees…' : 'Updating…') : m.status === 'error' ? '' : result ? `Weights from ${result.source === 'tsv' ? `the stats TSV (${result.summary_path})` : 'the data (no TSV: training has no mixture)'}; preset ${configState.preset ?? 'reference defaults'}, split ${result.config.split}; ${formatCount(inSplit.length)} of ${formatCount(result.rows.length)} partitions in the split.` : ''}
      </p>
      {m.error && <p className="field-problem" role="alert">{m.error}{result ? ' The numbers below are from the last config that worked.' : ''}</p>}
      {result && result.findings.length > 0 && (
        focusedFindings.length > 0
          ? <FindingGroups findings={focusedFindings} label="Mixture problems" />
          : <p className="hint" data-testid="mixture-findings-focus">None of the {formatCount(result.findings.length)} mixture findings is about the focused languages.</p>
      )}
      {result && focus.size > 0 && focusedFindings.length > 0 && focusedFindings.length < result.findings.length && (
        <p className="hint" data-testid="mixture-findings-focus">Mixture findings of the focused languages (and of the whole split): {formatCount(focusedFindings.length)} of {formatCount(result.findings.length)}.</p>
      )}
      {result && (
        <div className={staleAll ? 'stale' : undefined} aria-busy={staleAll}>
          <div className={staleDetails && !staleAll ? 'stale' : undefined} aria-busy={staleDetails && !staleAll}>
          {focus.size > 0 && <p className="hint focus-scope" data-testid="mixture-focus">Charts and tables show the partitions{scope} ({formatCount(inSplitShown.length)} of {formatCount(inSplit.length)} in the split); shares and probabilities are still over the whole split.</p>}
          <Charts rows={inSplitShown} stage={stage} scope={scope} />
          {/* the sections under the charts mount one per idle period (components/staged.tsx): at 1,600 languages the
              whole view mounted at once was one task of about a second */}
          <Staged stage={stage} at={3} minHeight={380}><RankedProbabilities rows={inSplitShown} scope={scope} /></Staged>
          </div>
          <Staged stage={stage} at={4} minHeight={420}>
          <section aria-labelledby="weights-heading">
            <h3 id="weights-heading">Mixture weights{focus.size > 0 ? ` (${formatCount(focus.size)} focused language${focus.size === 1 ? '' : 's'})` : ''}</h3>
            <WeightsTable rows={shown} draws={result.draws} steps={result.steps} />
          </section>
          </Staged>
          <Staged stage={stage} at={5} minHeight={360}>
            <div className={staleDetails && !staleAll ? 'stale' : undefined} aria-busy={staleDetails && !staleAll}>
              {later && <Exposure exposure={later.exposure} steps={later.steps} batchesPerStep={later.batches_per_step} stepSeconds={later.step_seconds} focus={focus} />}
            </div>
          </Staged>
          <section aria-labelledby="export-heading">
            <h3 id="export-heading">Export</h3>
            <pre className="yaml" aria-label="Recipe block (YAML)" dir="ltr">{yaml}</pre>
            {/* the files are made when asked for: a TSV and a Blob per slider step were ~50 ms of main thread each at 1,600 languages */}
            <div className="row">
              <button type="button" disabled={yaml === ''} onClick={() => downloadBytes(yaml, 'mixture_parquet_storage_config.yaml', 'application/yaml')}>Download recipe block (YAML)</button>
              <button type="button" disabled={!later} onClick={() => { if (later) downloadBytes(languageDistributionTsv(later), 'language_distribution_0.tsv', 'text/tab-separated-values') }}>Download language_distribution_0.tsv</button>
            </div>
          </section>
        </div>
      )}
    </section>
  )
}
