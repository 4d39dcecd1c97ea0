/** Mounts the app into the page (main.tsx loads this chunk once the engine worker runs). */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app.tsx'

/** Renders the app into `container` (the page's `#root`). */
export function mountApp(container: HTMLElement): void {
  createRoot(container).render(<StrictMode><App /></StrictMode>)
}
