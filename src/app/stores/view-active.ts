/**
 * Whether the view a component belongs to is the one shown. The shell (src/app/shell/current-view.tsx) provides it
 * per tab panel; views kept mounted while hidden read it to stop background work (the Batches stream pauses).
 */
import { createContext, useContext } from 'react'

export const ViewActiveContext = createContext(true)

/** `true` while this component's view is shown (and outside any view). */
export function useViewActive(): boolean {
  return useContext(ViewActiveContext)
}
