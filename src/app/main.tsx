/**
 * The page's entry: starts the first open (start.ts), then, once the worker runs, loads the views and mounts them
 * (mount.tsx, a chunk of its own, so evaluating it never holds the worker's start back).
 */
import { appCanLoad } from './start.ts'
import './styles.css'

const container = document.getElementById('root')
if (!container) throw new Error('app: index.html has no #root element')
const root = container
appCanLoad
  .then(() => import('./mount.tsx'))
  .then(({ mountApp }) => mountApp(root))
  .catch((error: unknown) => {
    root.textContent = `mixscope failed to load: ${error instanceof Error ? error.message : String(error)}`
  })
