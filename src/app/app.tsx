/**
 * The app shell: one compact header (the dataset's name, how to open another, the training config, the language
 * focus), the loading line, the tabs and the current view. A folder dropped anywhere on the page opens. The first open
 * starts before the app renders (start.ts).
 */
import { OpenBar, openRequest } from './features/open/open-bar.tsx'
import { DropZone } from './features/open/drop-zone.tsx'
import { LoadStatus } from './features/overview/load-status.tsx'
import { CurrentView } from './shell/current-view.tsx'
import { DatasetHeading } from './shell/dataset-heading.tsx'
import { FocusBar } from './shell/focus-bar.tsx'
import { StatusBar } from './features/status/status-bar.tsx'
import { ViewTabs } from './shell/view-tabs.tsx'
import { ThemeToggle } from './shell/theme-toggle.tsx'

export function App() {
  return (
    <DropZone onOpen={openRequest}>
      <div className="app">
        <header className="app-header">
          <p className="brand">mixscope</p>
          <DatasetHeading />
          <ThemeToggle />
          <OpenBar />
        </header>
        <main>
          <LoadStatus />
          <FocusBar />
          <ViewTabs />
          <CurrentView />
        </main>
        <StatusBar />
      </div>
    </DropZone>
  )
}
