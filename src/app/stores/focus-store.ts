/**
 * The languages the explorer is focused on: clicking a bar or a row of any view's language picture toggles a
 * language here, and every view filters to the focus (Overview tables, Audit findings, Mixture weights, the Examples
 * list). Kept in the page URL (`?lang=a,b`) so a link reproduces it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { useStore } from 'zustand'
import { useMemo } from 'react'

export interface FocusState {
  /** Focused language codes, in the order they were added; empty = every language. */
  languages: string[]
}

export interface FocusActions {
  /** Adds `language`, or removes it when it is focused already. */
  toggle(language: string): void
  /** Replaces the focus. */
  set(languages: readonly string[]): void
  clear(): void
}

export type FocusStore = FocusState & FocusActions

/** Creates a focus store starting at `initial`. */
export function createFocusStore(initial: string[] = []): StoreApi<FocusStore> {
  return createStore<FocusStore>()((set) => ({
    languages: initial,
    toggle: (language) => set((s) => ({ languages: s.languages.includes(language) ? s.languages.filter((l) => l !== language) : [...s.languages, language] })),
    set: (languages) => set({ languages: [...new Set(languages)] }),
    clear: () => set({ languages: [] }),
  }))
}

/** `?lang=a,b` → `['a', 'b']` (empty entries dropped). */
export function focusFromSearch(search: string): string[] {
  return (new URLSearchParams(search).get('lang') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')
}

/** `href` with its `lang` parameter set to `languages` (removed when empty; other parameters kept). */
export function withFocusParam(href: string, languages: readonly string[]): string {
  const url = new URL(href)
  if (languages.length === 0) url.searchParams.delete('lang')
  else url.searchParams.set('lang', languages.join(','))
  return url.href
}

const inBrowser = typeof window !== 'undefined' && typeof window.location !== 'undefined'

/** The app's focus store, seeded from and kept in the page URL (in a browser). */
export const focusStore: StoreApi<FocusStore> = createFocusStore(inBrowser ? focusFromSearch(window.location.search) : [])
if (inBrowser) {
  focusStore.subscribe((state) => {
    const next = withFocusParam(window.location.href, state.languages)
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next)
  })
}

/** Selects from the app's focus store. */
export function useFocusStore<T>(selector: (state: FocusStore) => T): T {
  return useStore(focusStore, selector)
}

/** The focused languages as a set (a new set only when the focus changes). */
export function useFocusSet(): ReadonlySet<string> {
  const languages = useFocusStore((s) => s.languages)
  return useMemo(() => new Set(languages), [languages])
}
