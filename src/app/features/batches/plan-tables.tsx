/** What the plan is built on: the length-bucket table, the mixture with live sampler counts, drops, rank diagnostics. */
import type { DropCount } from '../../../engine/pipeline/drops.ts'
import type { MixtureStream } from '../../../engine/pipeline/plan.ts'
import type { PlanStartResult } from '../../../engine/worker/protocol/plan.ts'
import { LanguageCell } from '../../components/language-cell.tsx'
import { formatCount, formatHours, formatShare } from '../../lib/format.ts'

export function BucketTable({ start }: { start: PlanStartResult }) {
  if (!start.buckets) return <p>STATIC batching: {formatCount(start.config.batch_size)} examples per batch{start.config.drop_remainder ? ', last partial batch dropped' : ''}.</p>
  const { sizes, maxNumElements, rounded } = start.buckets
  return (
    <>
      <p>{sizes.length} length buckets, max_num_elements {formatCount(maxNumElements)}{rounded ? ' (rounded down to a multiple of max_audio_len)' : ''}.</p>
      <div className="scroll-box" tabIndex={0} role="region" aria-label="Length buckets (scrollable)">
        <table aria-label="Length buckets">
          <thead><tr><th scope="col" className="num">Bucket</th><th scope="col" className="num">Max examples</th><th scope="col" className="num">Max length (samples)</th><th scope="col" className="num">Seconds</th></tr></thead>
          <tbody>
            {sizes.map((s, i) => (
              <tr key={i}><td className="num">{i}</td><td className="num">{formatCount(s.batchSize)}</td><td className="num">{formatCount(s.seqLen)}</td><td className="num">{(s.seqLen / 16000).toFixed(2)}</td></tr>
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
    <table aria-label="Mixture streams">
      <thead>
        <tr><th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">Probability</th><th scope="col" className="num">Sampled</th><th scope="col" className="num">Expected</th><th scope="col" className="num">Row groups</th><th scope="col" className="num">Stream seed</th></tr>
      </thead>
      <tbody>
        {mixture.map((m) => (
          <tr key={`${m.corpus}/${m.language}`}>
            <td dir="auto">{m.corpus}</td><LanguageCell code={m.language} />
            <td className="num" data-value={m.probability}>{formatShare(m.probability)}</td>
            <td className="num">{formatCount(m.sampled)}</td>
            <td className="num">{(draws * m.probability).toFixed(1)}</td>
            <td className="num">{m.fragments}</td><td className="num">{m.seed}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
      <p>Rank {start.config.rank} of {start.config.world_size}{notes.length > 0 ? `: ${notes.length} partition(s) have fewer row groups than ranks.` : ': every partition has a row group for each rank.'}</p>
      <div className="scroll-box" tabIndex={0} role="region" aria-label="Rank diagnostics (scrollable)">
        <table aria-label="Rank diagnostics">
          <thead><tr><th scope="col">Corpus</th><th scope="col">Language</th><th scope="col" className="num">Row groups</th><th scope="col" className="num">This rank</th><th scope="col">Note</th></tr></thead>
          <tbody>
            {start.diagnostics.map((d) => (
              <tr key={`${d.corpus}/${d.language}`}>
                <td dir="auto">{d.corpus}</td><LanguageCell code={d.language} />
                <td className="num">{d.fragments}</td><td className="num">{Number.isInteger(d.fragmentsThisRank) ? d.fragmentsThisRank : d.fragmentsThisRank.toFixed(2)}</td>
                <td dir="auto">{d.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
