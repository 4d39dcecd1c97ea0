/** What the plan is built on: the length-bucket table, the mixture with live sampler counts, drops, rank diagnostics. */
import { useMemo } from 'react'
import type { DropCount } from '../../../engine/pipeline/drops.ts'
import type { MixtureStream } from '../../../engine/pipeline/plan-batches.ts'
import type { PlanStartResult } from '../../../engine/worker/protocol/plan.ts'
import { LanguageTable } from '../../components/language-table.tsx'
import { NumCell } from '../../components/num.tsx'
import { formatCount, formatHours, formatProbability, formatSamples } from '../../lib/format.ts'

export function BucketTable({ start }: { start: PlanStartResult }) {
  if (!start.buckets) return <p>STATIC batching: {formatCount(start.config.batch_size)} examples per batch{start.config.drop_remainder ? ', last partial batch dropped' : ''}.</p>
  const { sizes, maxNumElements, rounded } = start.buckets
  return (
    <>
      <p>{sizes.length} length buckets, max_num_elements {formatCount(maxNumElements)}{rounded ? ' (rounded down to a multiple of max_audio_len)' : ''}.</p>
      <div className="scroll-box" tabIndex={0} role="region" aria-label="Length buckets (scrollable)">
        <table aria-label="Length buckets" className="sticky-head">
          <thead><tr><th scope="col" className="num">Bucket</th><th scope="col" className="num">Max examples</th><th scope="col" className="num">Max length (samples)</th><th scope="col" className="num">Duration</th></tr></thead>
          <tbody>
            {sizes.map((s, i) => (
              <tr key={i}><td className="num">{i}</td><td className="num">{formatCount(s.batchSize)}</td><td className="num">{formatCount(s.seqLen)}</td><td className="num">{formatSamples(s.seqLen)}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

export function MixtureTable({ mixture }: { mixture: MixtureStream[] }) {
  const draws = mixture.reduce((n, m) => n + m.sampled, 0)
  return (
    <LanguageTable<MixtureStream> rows={mixture} label="Mixture streams" height={320} noun={['stream', 'streams']} rowKey={(m) => `${m.corpus}/${m.language}`}
      rowData={(m) => ({ corpus: m.corpus })} initialSort={{ id: 'p', descending: true }}
      columns={[
        { id: 'corpus', header: 'Corpus', sortValue: (m) => m.corpus, cell: (m) => <td dir="auto">{m.corpus}</td> },
        { id: 'p', header: 'Probability', numeric: true, sortValue: (m) => m.probability, cell: (m) => <NumCell value={m.probability} kind="probability" /> },
        { id: 'sampled', header: 'Sampled', numeric: true, sortValue: (m) => m.sampled, cell: (m) => <NumCell value={m.sampled} kind="count" /> },
        { id: 'expected', header: 'Expected', numeric: true, sortValue: (m) => draws * m.probability, cell: (m) => <td className="num" data-value={draws * m.probability}>{formatProbability(draws * m.probability)}</td> },
        { id: 'fragments', header: 'Row groups', numeric: true, sortValue: (m) => m.fragments, cell: (m) => <NumCell value={m.fragments} kind="count" /> },
        { id: 'seed', header: 'Stream seed', numeric: true, sortValue: (m) => m.seed, cell: (m) => <td className="num">{m.seed}</td> },
      ]} />
  )
}

/**
 * What the length filter (and the rest) dropped so far, per (reason, corpus, language): a summary per reason, then
 * the "Find language" table (virtualized: at 1,600 languages there are thousands of cells).
 */
export function DropsTable({ drops }: { drops: DropCount[] }) {
  const reasons = useMemo(() => {
    const m = new Map<string, { count: number; hours: number }>()
    for (const d of drops) { const r = m.get(d.reason) ?? { count: 0, hours: 0 }; r.count += d.count; r.hours += d.hours; m.set(d.reason, r) }
    return [...m]
  }, [drops])
  if (drops.length === 0) return <p>No example dropped so far.</p>
  return (
    <>
      <p>{reasons.map(([reason, r], i) => <span key={reason}>{i > 0 && '; '}<code>{reason}</code>: {formatCount(r.count)} examples ({formatHours(r.hours)})</span>)}.</p>
      <LanguageTable<DropCount> rows={drops} label="Dropped examples" height={320} noun={['cell', 'cells']} rowKey={(d) => `${d.reason}/${d.corpus}/${d.language}`}
        rowData={(d) => ({ corpus: d.corpus, reason: d.reason })} initialSort={{ id: 'count', descending: true }}
        columns={[
          { id: 'reason', header: 'Reason', sortValue: (d) => d.reason, cell: (d) => <td><code>{d.reason}</code></td> },
          { id: 'corpus', header: 'Corpus', sortValue: (d) => d.corpus, cell: (d) => <td dir="auto">{d.corpus}</td> },
          { id: 'count', header: 'Examples', numeric: true, sortValue: (d) => d.count, cell: (d) => <NumCell value={d.count} kind="count" /> },
          { id: 'hours', header: 'Hours', numeric: true, sortValue: (d) => d.hours, cell: (d) => <NumCell value={d.hours} kind="hours" /> },
        ]} />
    </>
  )
}

export function RankDiagnostics({ start }: { start: PlanStartResult }) {
  const notes = start.diagnostics.filter((d) => d.note)
  return (
    <>
      <p>Rank {start.config.rank} of {start.config.world_size}{notes.length > 0 ? `: ${formatCount(notes.length)} partition(s) have fewer row groups than ranks.` : ': every partition has a row group for each rank.'}</p>
      <LanguageTable rows={start.diagnostics} label="Rank diagnostics" height={320} noun={['partition', 'partitions']} rowKey={(d) => `${d.corpus}/${d.language}`}
        rowData={(d) => ({ corpus: d.corpus })}
        columns={[
          { id: 'corpus', header: 'Corpus', sortValue: (d) => d.corpus, cell: (d) => <td dir="auto">{d.corpus}</td> },
          { id: 'fragments', header: 'Row groups', numeric: true, sortValue: (d) => d.fragments, cell: (d) => <NumCell value={d.fragments} kind="count" /> },
          { id: 'rank', header: 'This rank', numeric: true, sortValue: (d) => d.fragmentsThisRank, cell: (d) => <td className="num">{Number.isInteger(d.fragmentsThisRank) ? d.fragmentsThisRank : formatProbability(d.fragmentsThisRank)}</td> },
          { id: 'note', header: 'Note', sortValue: (d) => d.note ?? '', cell: (d) => <td dir="auto" title={d.note ?? undefined}>{d.note ?? ''}</td> },
        ]} />
    </>
  )
}
