/**
 * "Play this example" from a list: the list selects the example and asks for playback here; the Inspector plays it
 * as soon as its audio is decoded (and forgets the request), so the list keeps its place and focus.
 */
import { createStore } from 'zustand/vanilla'

export interface PlaybackStore {
  /** The example whose playback was asked for and not started yet. */
  pending: string | null
  request(id: string): void
  /** Called by the player once it started (or gave up on) `id`. */
  done(id: string): void
}

export const playbackStore = createStore<PlaybackStore>()((set, get) => ({
  pending: null,
  request: (id) => set({ pending: id }),
  done: (id) => { if (get().pending === id) set({ pending: null }) },
}))
