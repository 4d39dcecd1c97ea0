/**
 * The repository carries the specification it implements (docs/reference-pipeline.md, docs/conventions.md,
 * docs/browser-notes.md). This test reads every text file git knows of (tracked, or new and not ignored) and fails
 * when one of them points outside the repository, or cites a part of those documents that does not exist.
 *
 * Rules:
 * - No mention of the old out-of-tree copies (the `shared` folder above the repository, upper-case file names,
 *   the upper-case "reference §" form); outside docs/ the three files are named with their `docs/` prefix.
 * - Every `§n` anywhere (except an RFC's sections) is a `## n.` heading of docs/reference-pipeline.md, and every
 *   `§n.m` is item m of a numbered list at the left margin of §n (or a `### n.m` heading). "§n step m",
 *   "§n stages m-k" name such items, and a quoted phrase right after a `§n` (`§3 "Quirk"`) occurs in §n.
 * - User-facing "(reference §n)" in src/ names sections that exist.
 * - `docs/conventions.md "<X>"` and `docs/browser-notes.md "<X>"`: X, case-insensitive, is a heading of that page
 *   (whole, or its words before any " (" or ":"), or a term defined in bold at the start of a list item there.
 *   Placeholders written `"<…>"` are skipped.
 * - Relative Markdown links in docs/ and README.md lead to a file, and a `#anchor` to a heading of it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'

const repo = join(import.meta.dirname, '..', '..')

interface TextFile { path: string, text: string }

/** Tracked files and new files git does not ignore; binary files (any NUL byte) are left out. */
function repoTextFiles(): TextFile[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo })
  const paths = [...new Set(listed.toString('utf8').split('\0').filter((p) => p !== ''))].sort()
  const files: TextFile[] = []
  for (const path of paths) {
    const full = join(repo, path)
    if (!existsSync(full)) continue // deleted in the work tree, not yet committed
    const bytes = readFileSync(full)
    if (bytes.includes(0)) continue
    files.push({ path, text: bytes.toString('utf8') })
  }
  return files
}

/** `path:line` of a character offset. */
const where = (file: TextFile, index: number) => `${file.path}:${file.text.slice(0, index).split('\n').length}`

// ---- docs/reference-pipeline.md -------------------------------------------------------------------------------

interface Section { title: string, body: string, items: Set<number> }

/** `## n. Title` sections; their numbered items (`m. ` at the left margin, or `### n.m` headings). */
function parseSections(markdown: string): Map<number, Section> {
  const sections = new Map<number, Section>()
  let current: Section | null = null
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^## (\d+)\. (.+)$/.exec(line)
    if (heading) {
      current = { title: heading[2]!, body: '', items: new Set() }
      sections.set(Number(heading[1]), current)
      continue
    }
    if (!fenced && line.startsWith('## ')) { current = null; continue }
    if (!current) continue
    current.body += `${line}\n`
    if (fenced) continue
    const sub = /^### (\d+)\.(\d+)\b/.exec(line)
    if (sub && sections.get(Number(sub[1])) === current) current.items.add(Number(sub[2]))
    const item = /^(\d+)\. /.exec(line)
    if (item) current.items.add(Number(item[1]))
  }
  return sections
}

const squash = (s: string) => s.replace(/[*`]/g, '').replace(/\s+/g, ' ').toLowerCase()

/** Every broken `§` citation in `text`, as [offset, reason]. */
function sectionProblems(text: string, sections: Map<number, Section>): [number, string][] {
  const problems: [number, string][] = []
  const item = (n: number, m: number, at: number, what: string) => {
    const section = sections.get(n)
    if (section && !section.items.has(m)) problems.push([at, `${what}: §${n} has no numbered item ${m}`])
  }
  for (const match of text.matchAll(/§(\d+)(?:\.(\d+))?/g)) {
    const before = text.slice(Math.max(0, match.index - 16), match.index)
    if (/RFC\s*\d+\s*$/.test(before)) continue // another standard's section
    const n = Number(match[1])
    if (!sections.has(n)) { problems.push([match.index, `${match[0]}: no section ${n}`]); continue }
    if (match[2] !== undefined) item(n, Number(match[2]), match.index, match[0])
  }
  for (const match of text.matchAll(/§(\d+),?\s+(?:step|stage)s?\s+(\d+)(?:\s*[-–]\s*(\d+))?/g)) {
    const n = Number(match[1])
    const first = Number(match[2])
    const last = match[3] === undefined ? first : Number(match[3])
    for (let m = first; m <= last; m++) item(n, m, match.index, match[0])
  }
  for (const match of text.matchAll(/§(\d+)(?:\.\d+)?,?\s+"([^"\n]+)"/g)) {
    const section = sections.get(Number(match[1]))
    if (section && !squash(section.body).includes(squash(match[2]!))) {
      problems.push([match.index, `${match[0]}: "${match[2]}" does not occur in §${match[1]}`])
    }
  }
  return problems
}

// ---- docs/conventions.md, docs/browser-notes.md -----------------------------------------------------------------

/** What a `"…"` citation of a page may name: its headings (whole, or before " (" / ":") and bold list terms. */
function citableNames(markdown: string): Set<string> {
  const names = new Set<string>()
  for (const match of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    const heading = match[1]!.trim()
    names.add(squash(heading))
    names.add(squash(heading.split(/ \(|:/)[0]!))
  }
  for (const match of markdown.matchAll(/^\s*[-*] \*\*([^*]+)\*\*/gm)) names.add(squash(match[1]!))
  return names
}

const pageCitation = /docs\/(conventions|browser-notes)\.md:?\s+"([^"\n]+)"/g

/** Every `docs/<page>.md "X"` in `text` whose X the page does not define, as [offset, reason]. */
function headingProblems(text: string, pages: Record<string, Set<string>>): [number, string][] {
  const problems: [number, string][] = []
  for (const match of text.matchAll(pageCitation)) {
    const quoted = match[2]!
    if (/^<.*>$/.test(quoted)) continue
    if (!pages[match[1]!]!.has(squash(quoted))) {
      problems.push([match.index, `${match[0]}: docs/${match[1]}.md has no heading or defined term "${quoted}"`])
    }
  }
  return problems
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

// ---- the repository ------------------------------------------------------------------------------------------

const files = repoTextFiles()
const read = (path: string) => readFileSync(join(repo, path), 'utf8')
const sections = parseSections(read('docs/reference-pipeline.md'))
const pages = { 'conventions': citableNames(read('docs/conventions.md')), 'browser-notes': citableNames(read('docs/browser-notes.md')) }
const specName = /([\w./-]*)\b(reference-pipeline|conventions|browser-notes)\.md/g

/** Texts built in pieces, so that this file does not trip its own checks. */
const outOfTree: [RegExp, string][] = [
  [new RegExp(['\\.\\.', 'shared'].join('/')), 'points outside the repository'],
  [new RegExp(['/work', 'shared'].join('/')), 'points outside the repository'],
  [new RegExp(['REFERENCE', 'PIPELINE'].join('-')), 'names the out-of-tree file: cite docs/reference-pipeline.md'],
  [new RegExp(['REFERENCE', '§'].join(' ')), 'bare upper-case citation: cite docs/reference-pipeline.md §n'],
  [new RegExp(['BROWSER', 'NOTES'].join('-')), 'names the out-of-tree file: cite docs/browser-notes.md'],
  [new RegExp(['CONVEN', 'TIONS'].join('')), 'names the out-of-tree file: cite docs/conventions.md'],
  // the project's tracker is outside the repository: say what a thing is, not which ticket asked for it (an upstream
  // project's issue is cited as `fairseq2 #604`, which this does not match)
  [new RegExp(['\\b[Ii]ssues?', '\\d+'].join(' ')), 'names a tracker issue: say what the thing is instead'],
]

describe('the repository owns its specification', () => {
  it('reads the repository', () => {
    expect(files.length).toBeGreaterThan(100)
    expect(files.some((f) => f.path === 'src/engine/pipeline/config/validate-task.ts')).toBe(true)
  })

  it('no file points at the out-of-tree copies; outside docs/ the spec files carry their docs/ prefix', () => {
    const bad: string[] = []
    for (const file of files) {
      for (const [pattern, why] of outOfTree) {
        for (const match of file.text.matchAll(new RegExp(pattern.source, 'g'))) bad.push(`${where(file, match.index)} ${why}: ${match[0]}`)
      }
      const inDocs = file.path.startsWith('docs/')
      for (const match of file.text.matchAll(specName)) {
        const prefix = match[1]!
        const ok = prefix.endsWith('docs/') || (inDocs && (prefix === '' || prefix === './'))
        if (!ok) bad.push(`${where(file, match.index)} write docs/${match[2]}.md: ${match[0]}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('docs/reference-pipeline.md has sections §0–§21, in order', () => {
    expect([...sections.keys()]).toEqual(Array.from({ length: 22 }, (_, i) => i))
  })

  it('every §n, §n.m, "§n step m" and §n "phrase" names a part of docs/reference-pipeline.md', () => {
    const bad = files.flatMap((file) => sectionProblems(file.text, sections).map(([at, why]) => `${where(file, at)} ${why}`))
    expect(bad).toEqual([])
  })

  it('user-facing "(reference §n)" in src/ names sections that exist', () => {
    const bad: string[] = []
    let seen = 0
    for (const file of files.filter((f) => f.path.startsWith('src/'))) {
      for (const match of file.text.matchAll(/\(reference (§[^)]*)\)/g)) {
        seen++
        const cited = [...match[1]!.matchAll(/§(\d+)(?:\.(\d+))?/g)]
        for (const c of cited) {
          const section = sections.get(Number(c[1]))
          if (!section || (c[2] !== undefined && !section.items.has(Number(c[2])))) bad.push(`${where(file, match.index)} ${match[0]}: no ${c[0]}`)
        }
      }
    }
    expect(seen).toBeGreaterThan(50)
    expect(bad).toEqual([])
  })

  it('every docs/conventions.md "<X>" and docs/browser-notes.md "<X>" names a heading or a defined term', () => {
    const bad = files.flatMap((file) => headingProblems(file.text, pages).map(([at, why]) => `${where(file, at)} ${why}`))
    expect(bad).toEqual([])
  })

  it('relative links in docs/ and README.md lead to a file and, with #anchor, to one of its headings', () => {
    const bad: string[] = []
    for (const file of files.filter((f) => /^(docs\/[^/]+|README)\.md$/.test(f.path))) {
      for (const match of file.text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target, anchor] = match[1]!.split('#') as [string, string | undefined]
        if (/^[a-z]+:/.test(target)) continue
        const path = target === '' ? file.path : normalize(join(dirname(file.path), target))
        if (!existsSync(join(repo, path))) { bad.push(`${where(file, match.index)} ${match[1]}: no ${path}`); continue }
        if (anchor === undefined || !path.endsWith('.md')) continue
        const anchors = [...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((h) => anchorOf(h[1]!))
        if (!anchors.includes(anchor)) bad.push(`${where(file, match.index)} ${match[1]}: no heading #${anchor} in ${path}`)
      }
    }
    expect(bad).toEqual([])
  })
})

describe('the checks catch what they are meant to', () => {
  const s = '§'
  it('sections and items that do not exist', () => {
    const reasons = (text: string) => sectionProblems(text, sections).map(([, why]) => why)
    expect(reasons(`(reference ${s}22)`)).toEqual([`${s}22: no section 22`])
    expect(reasons(`docs/reference-pipeline.md ${s}19.19`)).toEqual([`${s}19.19: ${s}19 has no numbered item 19`])
    expect(reasons(`${s}2.1`)).toHaveLength(1) // §2 has no numbered list
    expect(reasons(`${s}9 steps 4-5`)).toHaveLength(1)
    expect(reasons(`${s}3 "no such phrase here"`)).toHaveLength(1)
    expect(reasons(`RFC 9110 ${s}14.2, ${s}9.4, ${s}19.16, ${s}8 stages 5-6, ${s}3 "Quirk"`)).toEqual([])
  })
  it('headings and terms that do not exist', () => {
    const reasons = (text: string) => headingProblems(text, pages).map(([, why]) => why)
    const conventions = ['docs/conventions', 'md'].join('.')
    const notes = ['docs/browser-notes', 'md'].join('.')
    expect(reasons(`${conventions} "Findings"`)).toHaveLength(1) // the heading is "Findings and exit codes"
    expect(reasons(`${notes} "WebGPU limits"`)).toHaveLength(1)
    expect(reasons(`${conventions}: "a phrase quoted from nowhere"`)).toHaveLength(1)
    expect(reasons(`${conventions} "stats tsv", ${conventions} "Example id", ${notes} "HTTP range requests", ${conventions} "<heading>"`)).toEqual([])
  })
  it('anchors as GitHub writes them', () => {
    expect(anchorOf('17. Dataprep conventions (OA:workflows/dataprep/)')).toBe('17-dataprep-conventions-oaworkflowsdataprep')
    expect(anchorOf('Stats TSV (`language_distribution_*.tsv`)')).toBe('stats-tsv-language_distribution_tsv')
  })
})
