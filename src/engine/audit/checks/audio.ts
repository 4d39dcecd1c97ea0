/**
 * Audio checks from the measures of the audio pass: undecodable rows, stored `audio_size` vs decoded length and
 * non-16 kHz rows (src/engine/audio/length-check.ts), silence, clipping, DC offset, exact duplicates (encoded bytes,
 * then decoded samples) within and across splits, near-duplicates (checks/near-duplicates.ts); census of codecs/rates/channels and loudness per language.
 */
import { compareUtf8 } from '../../core/findings.ts'
import { audioLengthFindings } from '../../audio/length-check.ts'
import type { AudioCodec } from '../../audio/sniff.ts'
import { medianSorted } from './text.ts'
import { exampleId, rowHours, rowItem } from '../rows/rows.ts'
import type { AudioMeasure, AuditItem, AuditRow, CheckResult, TableRow } from '../rows/types.ts'
import { checkNearDuplicates } from './near-duplicates.ts'

/** Whole-clip RMS below this (dBFS) is a silent clip. */
export const silentClipDb = -50
/** Share of silent 25 ms frames at or above which a clip is mostly silent. */
export const mostlySilentShare = 0.8
/** Share of full-scale samples above which a clip is clipped. */
export const clippedShareLimit = 0.001
/** |mean| above which a clip has a DC offset (full scale = 1; 0.01 ≈ −40 dBFS). */
export const dcOffsetLimit = 0.01
/** Lower edges of the loudness histogram's bins, in dBFS (first bin: below −60 or digital silence). */
export const loudnessBinEdges = [-60, -50, -40, -35, -30, -25, -20, -15, -10, -5] as const

/** One audited row with its measure. */
export interface MeasuredRow {
  row: AuditRow
  measure: AudioMeasure
}

function loudnessBin(db: number | null): string {
  if (db === null || db < loudnessBinEdges[0]) return `< ${loudnessBinEdges[0]} dB`
  let i = loudnessBinEdges.length - 1
  while (db < loudnessBinEdges[i]) i--
  return i === loudnessBinEdges.length - 1 ? `≥ ${loudnessBinEdges[i]} dB` : `${loudnessBinEdges[i]} to ${loudnessBinEdges[i + 1]} dB`
}

/**
 * @param measured audited rows in dataset order
 * @param near the near-duplicate check already run on them (the audit and the merge run it with the fingerprints
 *   spilled: src/engine/audit/fingerprint-spill.ts); default: `checkNearDuplicates` on the fingerprints the measures carry
 * @returns items per row problem; tables `audio_census`, `loudness`, `audio_per_language`, `near_duplicates`
 */
export function checkAudio(measured: readonly MeasuredRow[], near?: CheckResult): CheckResult {
  const items: AuditItem[] = []
  for (const { row, measure: m } of measured) {
    const id = exampleId(row)
    if (!m.ok) {
      items.push(rowItem(row, 'error', 'undecodable-audio', `${id} does not decode (${m.error}): training would crash on this row`))
      continue
    }
    for (const f of audioLengthFindings({ path: row.path, row: row.row, row_group: row.rowGroup }, row.audioSize,
      { sampleRate: m.sampleRate, frames: m.frames, codec: m.codec as AudioCodec | null })) {
      items.push({ ...rowItem(row, f.severity, f.kind, `${id}: ${f.message}`) })
    }
    if (m.rmsDb === null || m.rmsDb < silentClipDb) {
      items.push(rowItem(row, 'warning', 'silent-audio', `${id} is silent: RMS ${m.rmsDb === null ? '-inf' : m.rmsDb.toFixed(1)} dBFS over the whole clip, below ${silentClipDb} dBFS`))
    } else if (m.silentShare >= mostlySilentShare) {
      items.push(rowItem(row, 'warning', 'mostly-silent-audio', `${id} is ${(100 * m.silentShare).toFixed(0)}% silent (25 ms frames below ${silentClipDb} dBFS); expected under ${100 * mostlySilentShare}%`))
    }
    if (m.clippedShare > clippedShareLimit) {
      items.push(rowItem(row, 'warning', 'clipped-audio', `${id} has ${(100 * m.clippedShare).toFixed(2)}% of samples at full scale; expected at most ${100 * clippedShareLimit}%`))
    }
    if (Math.abs(m.dcOffset) > dcOffsetLimit) {
      items.push(rowItem(row, 'warning', 'dc-offset', `${id} has a DC offset of ${m.dcOffset.toFixed(4)} (full scale 1); expected |offset| ≤ ${dcOffsetLimit}`))
    }
  }
  for (const item of duplicateItems(measured)) items.push(item)
  const nearDuplicates = near ?? checkNearDuplicates(measured)
  for (const item of nearDuplicates.items) items.push(item)
  return { items, tables: { audio_census: census(measured), loudness: loudness(measured), audio_per_language: perLanguage(measured), ...nearDuplicates.tables } }
}

/** Rows sharing encoded bytes or decoded samples with an earlier row (union of both hashes). */
function duplicateItems(measured: readonly MeasuredRow[]): AuditItem[] {
  const parent = measured.map((_, i) => i)
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])))
  const union = (a: number, b: number) => {
    const x = find(a)
    const y = find(b)
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y)
  }
  const how = new Map<number, string>()
  const firstBy = new Map<string, number>()
  measured.forEach(({ measure: m }, i) => {
    const keys: [string, string][] = []
    if (m.bytesHash) keys.push([`b${m.bytesHash}`, 'identical encoded bytes'])
    if (m.ok) keys.push([`p${m.pcmHash}`, 'identical decoded samples'])
    for (const [key, reason] of keys) {
      const first = firstBy.get(key)
      if (first === undefined) firstBy.set(key, i)
      else {
        union(first, i)
        if (!how.has(i)) how.set(i, reason)
      }
    }
  })
  const items: AuditItem[] = []
  measured.forEach(({ row }, i) => {
    const root = find(i)
    if (root === i) return
    const original = measured[root].row
    const across = original.split !== row.split
    items.push(rowItem(row, 'warning', across ? 'duplicate-audio-across-splits' : 'duplicate-audio',
      `${exampleId(row)} (${row.split}, ${row.language}) has the same audio as ${exampleId(original)} (${original.split}, ${original.language}): ${how.get(i) ?? 'same duplicate group'}`))
  })
  return items
}

function census(measured: readonly MeasuredRow[]): TableRow[] {
  const map = new Map<string, TableRow & { rows: number; hours: number }>()
  for (const { row, measure: m } of measured) {
    const key = m.ok ? JSON.stringify([m.container, m.codec, m.sampleRate, m.channels]) : '["undecodable"]'
    let slot = map.get(key)
    if (!slot) map.set(key, slot = m.ok
      ? { container: m.container, codec: m.codec, sample_rate: m.sampleRate, channels: m.channels, rows: 0, hours: 0 }
      : { container: 'undecodable', codec: null, sample_rate: null, channels: null, rows: 0, hours: 0 })
    slot.rows++
    slot.hours += rowHours(row.audioSize)
  }
  return [...map].sort((a, b) => compareUtf8(a[0], b[0])).map(([, v]) => v)
}

function loudness(measured: readonly MeasuredRow[]): TableRow[] {
  const map = new Map<string, number>()
  for (const { row, measure: m } of measured) {
    if (!m.ok) continue
    const key = JSON.stringify([row.language, loudnessBin(m.rmsDb)])
    map.set(key, (map.get(key) ?? 0) + 1)
  }
  const bins = [`< ${loudnessBinEdges[0]} dB`, ...loudnessBinEdges.map((_, i) => loudnessBin(loudnessBinEdges[i]))]
  const languages = [...new Set(measured.map((x) => x.row.language))].sort(compareUtf8)
  return languages.flatMap((language) => bins.map((bin) => ({ language, bin, rows: map.get(JSON.stringify([language, bin])) ?? 0 })))
}

function perLanguage(measured: readonly MeasuredRow[]): TableRow[] {
  const map = new Map<string, MeasuredRow[]>()
  for (const x of measured) {
    const list = map.get(x.row.language)
    if (list) list.push(x)
    else map.set(x.row.language, [x])
  }
  return [...map.keys()].sort(compareUtf8).map((language) => {
    const list = map.get(language)!
    const ok = list.flatMap((x) => (x.measure.ok ? [x.measure] : []))
    const db = ok.map((m) => m.rmsDb ?? -Infinity).sort((a, b) => a - b)
    return {
      language, rows_decoded: list.length, undecodable: list.length - ok.length,
      hours_decoded: list.reduce((h, x) => h + rowHours(x.row.audioSize), 0),
      median_rms_db: db.length && Number.isFinite(medianSorted(db)) ? medianSorted(db) : null,
      silent: ok.filter((m) => m.rmsDb === null || m.rmsDb < silentClipDb).length,
      clipped: ok.filter((m) => m.clippedShare > clippedShareLimit).length,
      dc_offset: ok.filter((m) => Math.abs(m.dcOffset) > dcOffsetLimit).length,
    }
  })
}
