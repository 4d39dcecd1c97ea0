/**
 * The colour theme: the system's (the default: `color-scheme: light dark` in styles.css), or light or dark as the
 * user picks, kept in localStorage and applied as `data-theme` on the root element, which sets `color-scheme` and so
 * every `light-dark()` token. `cssColor` resolves a token for canvas drawing (a custom property holding
 * `light-dark(…)` reads back unresolved).
 */
import { createStore } from 'zustand/vanilla'

export type ThemeChoice = 'system' | 'light' | 'dark'

const storageKey = 'mixscope-theme'

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(storageKey)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    return 'system' // storage blocked (a sandboxed page): the system's theme
  }
}

/** Sets `data-theme` on the root for an explicit choice, removes it for the system's. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme')
  else document.documentElement.setAttribute('data-theme', choice)
}

/** The system's scheme as a media query, where the page has one (not in a test's bare DOM). */
const systemQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null

/**
 * The choice in effect, and whether the system's scheme is dark now (kept current: the operating system may switch at
 * sunset while the page is open); `set` applies and stores the choice.
 */
export const themeStore = createStore<{ choice: ThemeChoice; systemDark: boolean; set: (choice: ThemeChoice) => void }>((set) => ({
  choice: stored(),
  systemDark: systemQuery?.matches ?? false,
  set: (choice) => {
    applyTheme(choice)
    try {
      if (choice === 'system') localStorage.removeItem(storageKey)
      else localStorage.setItem(storageKey, choice)
    } catch { /* not kept: applied for this page */ }
    set({ choice })
  },
}))

systemQuery?.addEventListener('change', (event) => themeStore.setState({ systemDark: event.matches }))

/** The scheme the page shows: the choice, or the system's under 'system'. What a canvas drawn in the theme's colours redraws on. */
export function shownScheme(state: { choice: ThemeChoice; systemDark: boolean }): 'light' | 'dark' {
  return state.choice === 'system' ? (state.systemDark ? 'dark' : 'light') : state.choice
}

/** Applies the stored choice; the page's entry calls it before the first layout. */
export function applyStoredTheme(): void {
  applyTheme(themeStore.getState().choice)
}

/** A colour token (`--panel`) as the element sees it now, resolved to an `rgb(…)` a canvas accepts. */
export function cssColor(element: Element, token: string, fallback: string): string {
  const probe = document.createElement('span')
  probe.style.color = `var(${token}, ${fallback})`
  probe.style.display = 'none'
  const host = element.parentElement ?? document.body
  host.appendChild(probe)
  const color = getComputedStyle(probe).color
  probe.remove()
  return color || fallback
}
