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

/** The choice in effect; `set` applies and stores it. */
export const themeStore = createStore<{ choice: ThemeChoice; set: (choice: ThemeChoice) => void }>((set) => ({
  choice: stored(),
  set: (choice) => {
    applyTheme(choice)
    try {
      if (choice === 'system') localStorage.removeItem(storageKey)
      else localStorage.setItem(storageKey, choice)
    } catch { /* not kept: applied for this page */ }
    set({ choice })
  },
}))

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
