/**
 * The page's entry: starts the first open (start.ts), then, once the worker runs, loads the shell (mount.tsx) and
 * the view the page opens on, each a chunk of its own (so evaluating them never holds the worker's start back, and
 * neither is evaluated in the other's task), mounts the shell, and loads the other views in idle time after.
 */
import { appCanLoad } from './start.ts'
import { loadView, preloadViews } from './shell/views.tsx'
import { viewStore } from './stores/use-view-store.ts'
import './styles.css'

const container = document.getElementById('root')
if (!container) throw new Error('app: index.html has no #root element')
const root = container
appCanLoad
  // the first view's chunk loads beside the shell's, and the shell mounts once both are here (mounted before, it
  // rendered and laid out the page once without the view, then again with it); a view that fails to load says so
  // in its panel, with a retry
  .then(() => Promise.all([import('./mount.tsx'), loadView(viewStore.getState().view).catch(() => undefined)]))
  .then(([{ mountApp }]) => {
    mountApp(root)
    preloadViews()
  })
  .catch((error: unknown) => {
    root.textContent = `mixscope failed to load: ${error instanceof Error ? error.message : String(error)}`
  })
