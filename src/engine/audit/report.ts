/**
 * The audit as one readable file for a data review: Markdown or self-contained HTML (no external resources), with
 * the summary, every detail table (the numbers behind every chart) and the findings with their example ids.
 */
import type { Finding } from '../core/findings.ts'
import type { AuditReport, TableRow } from './rows/types.ts'

/** Findings listed per kind in a report (the rest are counted; `--json` has them all). */
export const reportFindingsPerKind = 50

/** Titles of the detail tables, in report order. */
const tableTitles: Record<string, string> = {
  flagged_by_language: 'Flagged rows per language (each row once, with the findings it carries)',
  kinds_by_partition: 'Findings per kind and partition',
  splits: 'Rows and hours per partition and split',
  mixture: 'Mixture: data hours vs the stats TSV',
  length_cutoffs: 'Length cut-offs per language (min_audio_len / max_audio_len)',
  length_histogram: 'Duration histogram per language',
  bucket_occupancy: 'LENGTH bucket occupancy (training split, occupied buckets)',
  speaking_rate: 'Speaking rate per language (characters per second)',
  script: 'Characters outside the language code\'s script',
  unknown_tokens: 'Unknown tokens per language',
  leakage: 'Transcripts shared with the training split',
  rank_fragments: 'Row groups per mixture partition and rank',
  row_groups: 'Row-group sizes per partition folder',
  audio_census: 'Audio census (container, codec, rate, channels)',
  audio_check: 'Audio check of every row (headers and frames, not decoded)',
  audio_per_language: 'Audio per language',
  loudness: 'Loudness (RMS dBFS) histogram per language',
  near_duplicates: 'Near-duplicate audio clusters (re-encoded, resampled, trimmed, another gain or noise)',
}

function tableOrder(report: AuditReport): string[] {
  const known = Object.keys(tableTitles).filter((k) => k in report.tables)
  return [...known, ...Object.keys(report.tables).filter((k) => !(k in tableTitles)).sort()]
}

function cell(v: string | number | null | string[] | undefined): string {
  if (v === null || v === undefined) return '–'
  if (Array.isArray(v)) return v.join(', ')
  if (typeof v === 'string') return v
  if (Number.isInteger(v)) return String(v)
  return Math.abs(v) >= 100 ? v.toFixed(1) : Math.abs(v) >= 0.01 ? v.toFixed(4) : v.toPrecision(3)
}

function columnsOf(rows: readonly TableRow[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r)))]
}

function findingsByKind(report: AuditReport): [string, Finding[]][] {
  const map = new Map<string, Finding[]>()
  for (const f of report.findings) {
    const list = map.get(f.kind)
    if (list) list.push(f)
    else map.set(f.kind, [f])
  }
  const rank = { error: 0, warning: 1, info: 2 }
  return [...map].sort((a, b) => rank[report.summary[a[0]]?.severity ?? 'info'] - rank[report.summary[b[0]]?.severity ?? 'info'] || (a[0] < b[0] ? -1 : 1))
}

/**
 * What a kind's section leaves out: its findings past the report's own list, counted from `finding_counts` (the
 * report's `findings` may hold only the first ones of a kind), and where the rest are.
 */
function moreOf(report: AuditReport, kind: string, list: readonly Finding[]): { total: number; more: number; where: string } | null {
  const total = report.finding_counts?.[kind]?.total ?? list.length
  const more = total - Math.min(list.length, reportFindingsPerKind)
  if (more <= 0) return null
  return { total, more, where: total > list.length ? 'audit --findings FILE' : 'audit --json' }
}

const where = (f: Finding) => (f.row !== null ? `${f.path}:${f.row}` : f.path || '(dataset)')

function headline(report: AuditReport): string[] {
  const o = report.options
  const t = report.totals
  const mode = o.deep ? 'deep (every row decoded)' : o.sample > 0 ? `sample (${o.sample} of each language, seed ${o.seed})` : 'metadata only'
  return [
    `Dataset: ${report.root}`,
    `Audit: ${mode}; split ${o.split}, min_audio_len ${o.min_audio_len}, max_audio_len ${o.max_audio_len}, min_samples_per_char ${o.min_samples_per_char}, world_size ${o.world_size}${o.tokenizer ? ', tokenizer given' : ''}`,
    `Data: ${t.files} files, ${t.row_groups} row groups, ${t.rows} rows, ${cell(t.hours)} hours; decoded ${t.rows_decoded} rows, ${cell(t.hours_decoded)} hours`,
    `Flagged: ${t.flagged_rows} of ${t.rows} rows (${cell(t.flagged_hours)} hours) carry at least one row finding`,
  ]
}

/**
 * Text from the data as Markdown text: every ASCII punctuation character that CommonMark gives a meaning (HTML `<`,
 * entities `&`, emphasis, links, code, table pipes, headings) is backslash-escaped, and line breaks become spaces, so
 * a transcript or a folder name never becomes an element, a link or a new line of the report.
 */
const mdEscape = (s: string) => s.replace(/[\\`*_[\]{}()<>#+\-.!|&~"']/g, '\\$&').replace(/[\r\n\u2028\u2029]+/g, ' ')

/** `s` as a CommonMark code span: fenced by one backtick more than its longest run, padded when it starts or ends with one. */
function mdCode(s: string): string {
  const text = s.replace(/[\r\n\u2028\u2029]+/g, ' ')
  const fence = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1)
  return `${fence} ${text} ${fence}`
}

function mdTable(rows: readonly TableRow[]): string {
  if (rows.length === 0) return '_(empty)_\n'
  const cols = columnsOf(rows)
  return [`| ${cols.join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${cols.map((c) => mdEscape(cell(r[c]))).join(' | ')} |`)].join('\n') + '\n'
}

/** The report as Markdown. */
export function auditReportMarkdown(report: AuditReport): string {
  const out: string[] = ['# mixscope audit', '', ...headline(report).map((l) => `- ${mdEscape(l)}`), '', '## Summary', '']
  out.push(mdTable(Object.entries(report.summary).map(([kind, s]) => ({ kind, severity: s.severity, count: s.count, rows: s.rows, hours: s.hours }))))
  for (const name of tableOrder(report)) out.push(`## ${tableTitles[name] ?? name}`, '', mdTable(report.tables[name]))
  const config = report.config_findings ?? []
  if (config.length > 0) {
    out.push('## Config on this dataset', '')
    for (const f of config) out.push(`- ${f.severity}: \`${f.kind}\` ${mdEscape(f.message)}`)
    out.push('')
  }
  out.push('## Findings', '')
  for (const [kind, list] of findingsByKind(report)) {
    const more = moreOf(report, kind, list)
    out.push(`### ${mdEscape(kind)} (${list[0].severity}, ${more?.total ?? list.length})`, '')
    for (const f of list.slice(0, reportFindingsPerKind)) out.push(`- ${mdCode(where(f))} ${mdEscape(f.message)}`)
    if (more) out.push(`- … ${more.more} more (see \`${more.where}\`)`)
    out.push('')
  }
  return out.join('\n')
}

const html = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')

function htmlTable(rows: readonly TableRow[]): string {
  if (rows.length === 0) return '<p><em>(empty)</em></p>'
  const cols = columnsOf(rows)
  const num = (v: unknown) => typeof v === 'number'
  return `<table><thead><tr>${cols.map((c) => `<th>${html(c)}</th>`).join('')}</tr></thead><tbody>${
    rows.map((r) => `<tr>${cols.map((c) => `<td${num(r[c]) ? ' class="n"' : ''}>${html(cell(r[c]))}</td>`).join('')}</tr>`).join('')}</tbody></table>`
}

/** The report as one HTML file with inline CSS and no external resources. */
export function auditReportHtml(report: AuditReport): string {
  const sections = tableOrder(report).map((name) => `<section><h2>${html(tableTitles[name] ?? name)}</h2>${htmlTable(report.tables[name])}</section>`)
  const findings = findingsByKind(report).map(([kind, list]) => {
    const more = moreOf(report, kind, list)
    return `<section><h3 class="${list[0].severity}">${html(kind)} (${list[0].severity}, ${more?.total ?? list.length})</h3><ul>${
      list.slice(0, reportFindingsPerKind).map((f) => `<li><code>${html(where(f))}</code> ${html(f.message)}</li>`).join('')}${
      more ? `<li>… ${more.more} more (see <code>${more.where}</code>)</li>` : ''}</ul></section>`
  })
  const config = report.config_findings ?? []
  const configSection = config.length === 0 ? '' : `<section><h2>Config on this dataset</h2><ul>${
    config.map((f) => `<li><span class="${f.severity}">${f.severity}</span>: <code>${html(f.kind)}</code> ${html(f.message)}</li>`).join('')}</ul></section>\n`
  const summaryRows = Object.entries(report.summary).map(([kind, s]) => ({ kind, severity: s.severity, count: s.count, rows: s.rows, hours: s.hours }))
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>mixscope audit: ${html(report.root)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:80em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}
code{font-size:12px}.error{color:#b00020}.warning{color:#a15c00}.info{color:#245}
</style></head><body>
<h1>mixscope audit</h1>
<ul>${headline(report).map((l) => `<li>${html(l)}</li>`).join('')}</ul>
<section><h2>Summary</h2>${htmlTable(summaryRows)}</section>
${sections.join('\n')}
${configSection}<h2>Findings</h2>
${findings.join('\n')}
</body></html>
`
}
