/**
 * The status bar: the worker's WebGPU adapter or "CPU (why)", GPU errors and device loss, the open dataset's
 * requests and bytes fetched, and whether the worker is busy. Polls `engine-status` once a second while requests
 * are in flight, and once more when they settle.
 */
import { useEffect, useState } from 'react'
import { useStore } from 'zustand'
import type { EngineStatusResult } from '../../../engine/worker/protocol/inspect.ts'
import { engineClient } from '../../engine-client.ts'
import { formatBytes, formatCount } from '../../lib/format.ts'
import { useDatasetStore } from '../../stores/use-dataset-store.ts'
import { usableDataset } from '../../stores/dataset-store.ts'
import { activityStore } from './activity.ts'
import './status.css'

export function StatusBar() {
  const dataset = useDatasetStore(usableDataset)
  const inFlight = useStore(activityStore, (s) => s.inFlight)
  const settled = useStore(activityStore, (s) => s.settled)
  const busy = inFlight > 0
  const [status, setStatus] = useState<EngineStatusResult | null>(null)
  const [failed, setFailed] = useState<string | null>(null)

  useEffect(() => {
    let live = true
    const poll = (requestGpu: boolean) => engineClient.request('engine-status', { dataset, requestGpu }).then(
      (s) => { if (live) { setStatus(s); setFailed(null) } },
      (e: Error) => { if (live) setFailed(e.message) })
    void poll(true)
    const timer = busy ? setInterval(() => void poll(false), 1000) : null
    return () => { live = false; if (timer) clearInterval(timer) }
  }, [dataset, busy, settled])

  const gpu = status?.gpu
  const device = !gpu ? 'GPU: checking…'
    : gpu.available ? `GPU: ${gpu.adapter}` : `CPU (${gpu.reason ?? 'no WebGPU device yet'})`
  return (
    <footer className="status-bar" role="status" aria-label="Engine status">
      <span className={`status-device${gpu && !gpu.available ? ' cpu' : ''}`} data-testid="status-device" title={gpu?.reason ?? undefined}>{device}</span>
      {gpu && gpu.errors.length > 0 && <span className="severity error" title={gpu.errors.join('\n')}>{gpu.errors.length} GPU error{gpu.errors.length === 1 ? '' : 's'}: {gpu.errors.at(-1)}</span>}
      <span data-testid="status-io">{status?.counters ? `${formatCount(status.counters.requests)} requests, ${formatBytes(status.counters.bytes)} fetched` : 'No dataset open'}</span>
      <span className={`status-worker${inFlight > 0 ? ' busy' : ''}`} data-testid="status-worker">{inFlight > 0 ? `Worker busy (${inFlight})` : 'Worker idle'}</span>
      {failed && <span className="severity error">{failed}</span>}
    </footer>
  )
}
