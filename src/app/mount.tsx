/** Mounts the app into the page (main.tsx loads this chunk once the engine worker runs). */
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app.tsx'

/**
 * Renders the app into `container` (the page's `#root`), as a transition: React then renders the first view in slices
 * of a few ms (yielding to the page between them) rather than as one blocking task; only the commit is one piece.
 */
export function mountApp(container: HTMLElement): void {
  const root = createRoot(container)
  startTransition(() => root.render(<StrictMode><App /></StrictMode>))
}
