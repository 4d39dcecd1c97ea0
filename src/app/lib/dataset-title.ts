/**
 * What the header calls the open dataset: the folder it lives in rather than `version=0` (the dataprep's root is
 * `<name>/version=N`), with the version and the source kind as badges.
 */

/** The title and badges for a dataset `label` (a URL, a folder name, `Demo dataset`) and its root and corpora. */
export function datasetTitle(input: { label: string; kind: 'demo' | 'url' | 'folder'; corpora: readonly string[] }): { title: string; badges: string[] } {
  if (input.kind === 'demo') return { title: 'Demo dataset', badges: ['bundled'] }
  const badges: string[] = []
  let segments: string[]
  if (input.kind === 'url') {
    let path = input.label
    try { path = new URL(input.label).pathname } catch { /* a relative or odd label: use it as it is */ }
    segments = path.split('/').filter((s) => s !== '').map((s) => { try { return decodeURIComponent(s) } catch { return s } })
  } else {
    segments = input.label.split('/').filter((s) => s !== '')
  }
  const last = segments.at(-1) ?? ''
  if (/\.(parquet|parq|pq)$/i.test(last)) {
    badges.push('one file')
    return { title: last, badges }
  }
  while (segments.length > 0 && /^version=/.test(segments.at(-1)!)) badges.unshift(segments.pop()!)
  // hive segments above the version say nothing about the dataset's name either
  while (segments.length > 1 && /^[^=]+=/.test(segments.at(-1)!)) segments.pop()
  const name = segments.at(-1)
  if (name) return { title: name, badges }
  // a picked `version=0` folder: its parent's name is not known, so name it by its corpora
  const corpora = input.corpora.slice(0, 3).join(' · ') + (input.corpora.length > 3 ? ` +${input.corpora.length - 3}` : '')
  return { title: corpora || input.label, badges }
}
