/**
 * The page's entry: starts the first open (start.ts), then, once the worker runs, loads the shell (mount.tsx) and
 * the view the page opens on, each a chunk of its own (so evaluating them never holds the worker's start back, and
 * neither is evaluated in the other's task), mounts the shell, and loads the other views in idle time after. ICU's
 * data, React's DOM renderer, the view and the shell are each evaluated in a task of their own, and the fonts the
 * first layout needs are looked up a few at a time before it (lib/warm-fonts.ts).
 */
import { appCanLoad } from './start.ts'
import { loadView, preloadViews } from './shell/views.tsx'
import { viewStore } from './stores/use-view-store.ts'
import { fontWarmBatches, warmFontBatch } from './lib/warm-fonts.ts'
import { applyStoredTheme } from './lib/theme.ts'
import './styles.css'

applyStoredTheme()

const container = document.getElementById('root')
if (!container) throw new Error('app: index.html has no #root element')
const root = container
/** A promise that settles in a later task of the page (a macrotask: the browser may paint and run others before it). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The first use of Intl in a page loads ICU's data: one call of 25–65 ms on 2 cores (whichever service comes first
 * pays the shared part). Warmed one service per task, it is three tasks of 5–45 ms, and none of it falls in
 * evaluating the shell (lib/format.ts builds its number formats when evaluated; language names use DisplayNames).
 */
const warmIntl: (() => unknown)[] = [
  () => new Intl.Collator('en').compare('a', 'b'),
  () => new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of('sw'),
  () => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(1),
]

async function load(): Promise<void> {
  await appCanLoad
  // React's DOM renderer loads meanwhile; it is evaluated in a task of its own when it comes
  const reactDom = import('react-dom/client')
  for (const warm of warmIntl) {
    warm()
    await nextTask()
  }
  // the fonts the first layout needs, a few per task (lib/warm-fonts.ts)
  for (const batch of fontWarmBatches()) {
    warmFontBatch(root, batch)
    await nextTask()
  }
  // each import evaluates what it brings that is not evaluated yet, in the task its load completes: React's DOM
  // renderer, then the first view, then the shell, three tasks (together one of 60–110 ms). A view that fails to load
  // says so in its panel, with a retry. The shell mounts once the view is here (mounted before, it rendered and laid
  // out the page once without the view, then again with it).
  await reactDom
  await nextTask()
  await loadView(viewStore.getState().view).catch(() => undefined)
  await nextTask()
  const { mountApp } = await import('./mount.tsx')
  mountApp(root)
  preloadViews()
}

load().catch((error: unknown) => {
  root.textContent = `mixscope failed to load: ${error instanceof Error ? error.message : String(error)}`
})
