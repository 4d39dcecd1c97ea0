import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import { viewIds, type ViewId } from '../stores/view-store.ts'
import { createViewLoader, type ViewDefinition } from './views.tsx'

/** A component per view (any function is one) and imports that count calls and can be made to fail. */
function fakeImports(failing: Set<ViewId> = new Set()) {
  const calls: ViewId[] = []
  const components = Object.fromEntries(viewIds.map((id) => [id, (() => null) as ComponentType])) as Record<ViewId, ComponentType>
  const imports = Object.fromEntries(viewIds.map((id) => [id, {
    label: id.toUpperCase(),
    load: () => { calls.push(id); return failing.has(id) ? Promise.reject(new Error('chunk request failed')) : Promise.resolve(components[id]) },
  }])) as Record<ViewId, Omit<ViewDefinition, 'id'>>
  return { calls, components, imports }
}

/** An idle queue the test runs by hand. */
function manualIdle() {
  const queue: (() => void)[] = []
  const idle = (callback: () => void) => { queue.push(callback); return () => { const i = queue.indexOf(callback); if (i >= 0) queue.splice(i, 1) } }
  const flush = async () => { for (let k = 0; k < 50 && queue.length > 0; k++) { queue.shift()!(); await new Promise((r) => setTimeout(r, 0)) } }
  return { idle, queue, flush }
}

describe('view loader', () => {
  it('loads a view once and records its component', async () => {
    const { calls, components, imports } = fakeImports()
    const loader = createViewLoader(imports)
    expect(loader.loaded.getState().audit).toBeUndefined()
    const [a, b] = await Promise.all([loader.load('audit'), loader.load('audit')])
    expect(a).toBe(components.audit)
    expect(b).toBe(components.audit)
    expect(calls).toEqual(['audit'])
    expect(loader.loaded.getState().audit).toBe(components.audit)
  })

  it('names the view when its chunk fails, and tries again on the next call', async () => {
    const failing = new Set<ViewId>(['mixture'])
    const { calls, components, imports } = fakeImports(failing)
    const loader = createViewLoader(imports)
    await expect(loader.load('mixture')).rejects.toThrow('app: the MIXTURE view failed to load: chunk request failed')
    expect(loader.loaded.getState().mixture).toBeUndefined()
    failing.delete('mixture')
    await expect(loader.load('mixture')).resolves.toBe(components.mixture)
    expect(calls).toEqual(['mixture', 'mixture'])
  })

  it('preloads the views not loaded yet, one per idle period, in tab order, skipping one that fails', async () => {
    const { calls, imports } = fakeImports(new Set(['batches']))
    const { idle, queue, flush } = manualIdle()
    const loader = createViewLoader(imports, idle)
    await loader.load('overview')
    loader.preload()
    // nothing loads before the page is idle, and each idle period starts one load
    expect(calls).toEqual(['overview'])
    expect(queue).toHaveLength(1)
    queue.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toEqual(['overview', 'audit'])
    await flush()
    expect(calls).toEqual(['overview', ...viewIds.filter((v) => v !== 'overview')])
    expect(Object.keys(loader.loaded.getState()).sort()).toEqual(viewIds.filter((v) => v !== 'batches').sort())
    expect(queue).toHaveLength(0)
  })

  it('stops preloading when asked', async () => {
    const { calls, imports } = fakeImports()
    const { idle, queue, flush } = manualIdle()
    const loader = createViewLoader(imports, idle)
    const stop = loader.preload()
    queue.shift()!()
    stop()
    await flush()
    expect(calls).toEqual(['overview'])
  })
})
