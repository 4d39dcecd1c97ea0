/** The app shell: header, the open panel, loading status, and the Overview of the open dataset. */
import { useEffect } from 'react'
import { OpenPanel } from './features/open/open-panel.tsx'
import { LoadStatus } from './features/overview/load-status.tsx'
import { CurrentView } from './shell/current-view.tsx'
import { StatusBar } from './features/status/status-bar.tsx'
import { ViewTabs } from './shell/view-tabs.tsx'
import { syncViewToPageUrl } from './stores/use-view-store.ts'
import { initialRequest } from './lib/demo.ts'
import { syncDatasetToPageUrl } from './lib/url-state.ts'
import { datasetStore, useDatasetStore } from './stores/use-dataset-store.ts'

export function App() {
  const label = useDatasetStore((s) => s.reportLabel)

  useEffect(() => {
    // the demo (or ?dataset=) opens by default; a second StrictMode run supersedes the first
    void datasetStore.getState().open(initialRequest())
    const stopDataset = syncDatasetToPageUrl(datasetStore)
    const stopView = syncViewToPageUrl()
    return () => {
      stopDataset()
      stopView()
    }
  }, [])

  return (
    <div className="app">
      <header className="app-header">
        <h1>mixscope</h1>
        <p className="app-dataset" aria-live="polite">{label ? <>Dataset: <span dir="auto">{label}</span></> : 'No dataset open'}</p>
      </header>
      <main>
        <OpenPanel />
        <LoadStatus />
        <ViewTabs />
        <CurrentView />
      </main>
      <StatusBar />
    </div>
  )
}
