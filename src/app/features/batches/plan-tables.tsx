/** What the plan is built on: the length-bucket table, the mixture with live sampler counts, drops, rank diagnostics. */
import type { DropCount } from '../../../engine/pipeline/drops.ts'
import type { MixtureStream } from '../../../engine/pipeline/plan.ts'
import type { PlanStartResult } from '../../../engine/worker/protocol/plan.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
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

export function DropsTable({ drops }: { drops: DropCount[] }) {
  if (drops.length === 0) return <p>No example dropped so far.</p>
  return (
    <table aria-label="Dropped examples">
      <thead><tr><th scope="col">Reason</th><th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">Examples</th><th scope="col" className="num">Hours</th></tr></thead>
      <tbody>
        {drops.map((d) => (
          <tr key={`${d.reason}/${d.corpus}/${d.language}`}>
            <td><code>{d.reason}</code></td><td dir="auto">{d.corpus}</td><LanguageCell code={d.language} />
            <td className="num">{formatCount(d.count)}</td><td className="num" data-value={d.hours}>{formatHours(d.hours)}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
