/**
 * docs/architecture.md stays true to the tree: every folder under src/engine has its line in the "Folders" table,
 * the table lists the top-level folders in the layer order `scripts/engine-layers.cjs` (and so the lint) enforces,
 * every engine folder is in a layer, and every repository path the page names in backticks exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const repo = join(import.meta.dirname, '..', '..')
const page = readFileSync(join(repo, 'docs/architecture.md'), 'utf8')
const { layerOrder } = createRequire(import.meta.url)(join(repo, 'scripts/engine-layers.cjs')) as { layerOrder: string[] }

/** Every folder under `dir`, repository-relative. */
function foldersUnder(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const full = join(dir, entry.name)
    out.push(relative(repo, full), ...foldersUnder(full))
  }
  return out
}

/** The first column of the "Folders" table, in order. */
function tableFolders(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Folders'))
  if (!section) throw new Error('docs/architecture.md has no "## Folders" section')
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!)
}

describe('docs/architecture.md', () => {
  const listed = tableFolders(page)

  it('has a line for every folder under src/engine, and none for a folder that is gone', () => {
    const folders = foldersUnder(join(repo, 'src/engine')).sort()
    expect(folders.length).toBeGreaterThan(20)
    expect([...listed].sort()).toEqual(folders)
  })

  it('lists the top-level folders in the layer order the lint enforces, and every one is in a layer', () => {
    const top = listed.filter((f) => f.split('/').length === 3).map((f) => f.split('/')[2]!)
    expect(top).toEqual(layerOrder)
    const onDisk = readdirSync(join(repo, 'src/engine'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
    expect(onDisk.filter((f) => !layerOrder.includes(f))).toEqual([])
  })

  it('names only paths that exist', () => {
    const named = [...page.matchAll(/`((?:src|test|scripts|bin|bench|e2e|examples)\/[^`\s]+)`/g)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(30)
    expect(named.filter((p) => !existsSync(join(repo, p)))).toEqual([])
  })

  it('catches a folder missing from the table and a folder out of order', () => {
    const without = page.replace(/^\| `src\/engine\/audit\/rows` \|.*\n/m, '')
    expect(tableFolders(without)).not.toContain('src/engine/audit/rows')
    const swapped = tableFolders(page.replace('| `src/engine/core` |', '| `src/engine/corex` |'))
    expect(swapped.filter((f) => f.split('/').length === 3).map((f) => f.split('/')[2])).not.toEqual(layerOrder)
  })
})
