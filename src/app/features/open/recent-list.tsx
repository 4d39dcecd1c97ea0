/**
 * "Recently opened": reopen a URL dataset, the demo or a dataset in the browser's storage in one click; folders are
 * listed by name (pick them again). Below it, every dataset prepared into the browser's storage, to open or remove.
 */
import { useEffect, useState } from 'react'
import { listStoredDatasets, removeStoredDataset, storedDatasetRequest } from '../../lib/browser-storage.ts'
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

/** What a list entry reports: the open started (the list may close), or why it could not. */
interface Outcome {
  onOpened: () => void
  onError: (message: string) => void
}

/** Opens the stored dataset `name`; a dataset no longer there is said so where the user looks. */
async function openStored(name: string, { onOpened, onError }: Outcome): Promise<void> {
  let request
  try {
    request = await storedDatasetRequest(name)
  } catch (error) {
    return onError((error as Error).message)
  }
  onOpened()
  await datasetStore.getState().open(request)
}

function reopen(r: RecentDataset, outcome: Outcome): void {
  if (r.kind === 'browser') return void openStored(r.storage!, outcome)
  outcome.onOpened()
  void datasetStore.getState().open(r.kind === 'demo' ? demoRequest() : { description: { type: 'url', url: r.url! }, label: r.name })
}

/** @param onOpened called when an entry starts opening (the popover holding the list closes) */
export function RecentList({ onOpened = () => {} }: { onOpened?: () => void }) {
  const [recent] = useState<RecentDataset[]>(() => loadRecent(storage()))
  const [error, setError] = useState<string | null>(null)
  const outcome: Outcome = { onOpened, onError: setError }
  return (
    <div className="recent-datasets">
      <h3 className="visually-hidden">Recently opened</h3>
      {recent.length === 0
        ? <p className="hint">Nothing opened yet: datasets you open are listed here.</p>
        : (
          <ul aria-label="Recently opened datasets">
            {recent.map((r) => (
              <li key={`${r.kind}/${r.url ?? r.storage ?? ''}/${r.name}`}>
                {r.kind === 'folder'
                  ? <span><span dir="auto">{r.name}</span> <span className="hint">(folder: open it again with “Open dataset folder”)</span></span>
                  : (
                    <button type="button" className="link" onClick={() => reopen(r, outcome)}>
                      <span dir="auto">{r.name}</span>
                    </button>
                  )}
                {' '}<span className="hint">{new Date(r.at).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        )}
      <StoredDatasets outcome={outcome} />
      {error && <p role="alert" className="field-problem">{error}</p>}
    </div>
  )
}

/** The datasets prepared into this browser's storage (they survive a reload), each to open or remove. */
function StoredDatasets({ outcome }: { outcome: Outcome }) {
  const [names, setNames] = useState<string[] | null>(null)
  const refresh = () => void listStoredDatasets().then(setNames, () => setNames([]))
  useEffect(refresh, [])
  if (!names || names.length === 0) return null
  async function remove(name: string) {
    if (!window.confirm(`Remove “${name}” and all its files from this browser's storage?`)) return
    try {
      await removeStoredDataset(name)
    } catch (error) {
      outcome.onError((error as Error).message)
    }
    refresh()
  }
  return (
    <>
      <h3 className="recent-subheading">In this browser's storage</h3>
      <ul aria-label="Datasets in this browser's storage">
        {names.map((name) => (
          <li key={name}>
            <button type="button" className="link" onClick={() => void openStored(name, outcome)}><span dir="auto">{name}</span></button>
            {' '}<button type="button" aria-label={`Remove ${name} from browser storage`} onClick={() => void remove(name)}>Remove</button>
          </li>
        ))}
      </ul>
    </>
  )
}
