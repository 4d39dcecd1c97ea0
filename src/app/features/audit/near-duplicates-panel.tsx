/**
 * Near-duplicate clusters of a deep audit (`tables.near_duplicates`): the list of clusters, and for the one picked its
 * members side by side — a player each, and their fingerprints drawn one above the other, shifted to their best
 * alignment with the first member (32 bits per 32 ms step; dark = 1, light = 0, grey = a quiet step not compared).
 */
import { useEffect, useRef, useState } from 'react'
import { engineClient } from '../../engine-client.ts'
import { formatCount, plural } from '../../lib/format.ts'
import type { TableRow } from '../../../engine/audit/rows/types.ts'
import type { NearDuplicateMember } from '../../../engine/audit/near-duplicate-members.ts'

/** Pixels per fingerprint step and per bit. */
const stepPx = 3
const bitPx = 2

function FingerprintStrip({ member, shiftMin, width }: { member: NearDuplicateMember; shiftMin: number; width: number }) {
  const canvas = useRef<HTMLCanvasElement | null>(null)
  useEffect(() => {
    const c = canvas.current
    const g = c?.getContext('2d')
    if (!c || !g) return
    g.clearRect(0, 0, c.width, c.height)
    const x0 = (member.offset - shiftMin) * stepPx
    member.words.forEach((word, i) => {
      const loud = (member.active[i >> 3] & (1 << (i & 7))) !== 0
      for (let b = 0; b < 32; b++) {
        g.fillStyle = !loud ? '#ccc' : (word >>> b) & 1 ? '#1b3a5c' : '#e8eef5'
        g.fillRect(x0 + i * stepPx, b * bitPx, stepPx, bitPx)
      }
    })
  }, [member, shiftMin])
  return <canvas ref={canvas} width={width} height={32 * bitPx} className="fingerprint-strip" data-testid="fingerprint-strip"
    aria-label={`Fingerprint of ${member.id}, ${member.words.length} steps, shifted ${member.offset} steps`} />
}

/** One cluster's members (keyed by the cluster: a new pick starts blank). */
function ClusterMembers({ dataset, ids }: { dataset: number; ids: string[] }) {
  const [members, setMembers] = useState<NearDuplicateMember[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [urls, setUrls] = useState<string[]>([])
  useEffect(() => {
    const controller = new AbortController()
    let made: string[] = []
    engineClient.request('near-duplicate-members', { dataset, ids }, { signal: controller.signal }).then((list) => {
      made = list.map((m) => (m.wav.length > 0 ? URL.createObjectURL(new Blob([m.wav as Uint8Array<ArrayBuffer>], { type: 'audio/wav' })) : ''))
      setUrls(made)
      setMembers(list)
    }, (e: Error) => { if (e.name !== 'AbortError') setError(e.message) })
    return () => { controller.abort(); for (const u of made) if (u) URL.revokeObjectURL(u) }
  }, [dataset, ids])
  if (error) return <p className="field-problem" role="alert">{error}</p>
  if (!members) return <p role="status">Decoding {plural(ids.length, 'member')}…</p>
  const shiftMin = Math.min(0, ...members.map((m) => m.offset))
  const width = Math.max(...members.map((m) => (m.offset - shiftMin + m.words.length) * stepPx), 1)
  return (
    <div className="near-duplicate-members" data-testid="near-duplicate-members">
      {members.map((m, i) => (
        <div key={m.id} className="near-duplicate-member">
          <div className="row">
            <code dir="auto">{m.id}</code>
            <span className="hint">{m.error ? m.error : `${m.seconds.toFixed(2)} s${m.ber === null ? (i === 0 ? ' · reference' : '') : ` · bit error rate ${m.ber.toFixed(3)} vs the first, shifted ${m.offset} steps`}`}</span>
          </div>
          {urls[i] && <audio controls src={urls[i]} preload="none" data-testid="near-duplicate-audio" />}
          {m.words.length > 0 && <FingerprintStrip member={m} shiftMin={shiftMin} width={width} />}
        </div>
      ))}
    </div>
  )
}

/** The clusters list and the picked cluster's members. */
export function NearDuplicatesPanel({ dataset, rows }: { dataset: number; rows: readonly TableRow[] }) {
  const [picked, setPicked] = useState<number | null>(null)
  if (rows.length === 0) return null
  const members = picked === null ? null : (rows[picked].members as string[])
  return (
    <section aria-labelledby="near-duplicates-heading" className="panel near-duplicates">
      <h3 id="near-duplicates-heading">Near-duplicate audio <span className="hint">({plural(rows.length, 'cluster')}: the same recording re-encoded, resampled, trimmed, with another gain or noise)</span></h3>
      <table className="near-duplicate-clusters">
        <thead><tr><th>cluster</th><th>rows</th><th>splits</th><th>max bit error rate</th><th>members</th><th /></tr></thead>
        <tbody>
          {rows.map((r, k) => (
            <tr key={k} aria-selected={picked === k}>
              <td>{formatCount(Number(r.cluster))}</td>
              <td>{formatCount(Number(r.rows))}</td>
              <td>{String(r.splits)}</td>
              <td>{Number(r.max_ber).toFixed(3)}</td>
              <td><code dir="auto">{(r.members as string[]).join(', ')}</code></td>
              <td><button type="button" onClick={() => setPicked(picked === k ? null : k)}>{picked === k ? 'Close' : 'Compare'}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      {members && <ClusterMembers key={picked} dataset={dataset} ids={members} />}
    </section>
  )
}
