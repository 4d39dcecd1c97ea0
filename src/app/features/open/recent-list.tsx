/** "Recently opened": reopen a URL dataset or the demo in one click; folders are listed by name (pick them again). */
import { useEffect, useState } from 'react'
import { demoRequest } from '../../lib/demo.ts'
import { datasetStore } from '../../stores/use-dataset-store.ts'
import { loadRecent, recentEntry, rememberRecent, type RecentDataset } from './recent-datasets.ts'

const storage = () => (typeof localStorage === 'undefined' ? null : localStorage)

/** Remembers every dataset that opens (mounted once, in the header). */
export function useRememberRecent(): void {
  useEffect(() => datasetStore.subscribe((state, previous) => {
    if (state.status === 'ready' && state.report !== previous.report && state.reportRequest) {
      rememberRecent(storage(), recentEntry(state.reportRequest, Date.now()))
    }
  }), [])
}

export function RecentList() {
  const [recent] = useState<RecentDataset[]>(() => loadRecent(storage()))
  if (recent.length === 0) return <p className="hint">Nothing opened yet: datasets you open are listed here.</p>
  return (
    <div className="recent-datasets">
      <h3 className="visually-hidden">Recently opened</h3>
      <ul aria-label="Recently opened datasets">
        {recent.map((r) => (
          <li key={`${r.kind}/${r.url ?? ''}/${r.name}`}>
            {r.kind === 'folder'
              ? <span><span dir="auto">{r.name}</span> <span className="hint">(folder: open it again with “Open dataset folder”)</span></span>
              : (
                <button type="button" className="link" onClick={() => void datasetStore.getState().open(r.kind === 'demo' ? demoRequest() : { description: { type: 'url', url: r.url! }, label: r.name })}>
                  <span dir="auto">{r.name}</span>
                </button>
              )}
            {' '}<span className="hint">{new Date(r.at).toLocaleString()}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
