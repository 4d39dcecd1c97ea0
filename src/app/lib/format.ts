/**
 * The one number-formatting layer of the UI (English, grouped thousands). Every view shows numbers through these
 * functions, and puts the exact value in a `title` (and `data-value`) through `exactText` and the cells in
 * src/app/components/num.tsx, so a shown value is never a raw float and the raw float is one hover or copy away.
 *
 * Rules: 3 significant digits for measured quantities (hours, seconds, shares), whole numbers with separators for
 * counts; audio durations pick their unit (s / min / h); a share that rounds to zero is written `< 0.1%`, never
 * `0%` unless it is zero; a signed difference is never `+0%` / `-0%`.
 */

const sig3 = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 })
const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })

/** Whole numbers at or above this are shown without decimals (3 significant digits would round `1,234` to `1,230`). */
const wholeFrom = 1000

/** `x` with 3 significant digits, or all its integer digits when ≥ 1,000 (`0.0268`, `12.3`, `412`, `12,345`). */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return '—'
  return Math.abs(x) >= wholeFrom ? whole.format(x) : sig3.format(x)
}

/** A count with thousands separators (`1,600`). */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? whole.format(n) : '—'
}

/**
 * An audio duration given in hours, in the unit that reads best: `42.3 s` below a minute, `3.45 min` below an hour,
 * `12.3 h` / `1,234 h` above; `0 h` for zero.
 */
export function formatHours(hours: number): string {
  if (!Number.isFinite(hours)) return '—'
  if (hours === 0) return '0 h'
  const seconds = hours * 3600
  if (Math.abs(seconds) < 60) return `${formatNumber(seconds)} s`
  if (Math.abs(seconds) < 3600) return `${formatNumber(seconds / 60)} min`
  return `${formatNumber(hours)} h`
}

/** A duration given in seconds, in the unit that reads best (`0.32 s`, `4.5 min`, `2.1 h`). */
export function formatSeconds(seconds: number): string {
  if (seconds === 0) return '0 s'
  return Number.isFinite(seconds) ? formatHours(seconds / 3600) : '—'
}

/** Stored `audio_size` samples (16 kHz) as a duration; `—` for null. */
export function formatSamples(samples: number | null): string {
  return samples === null ? '—' : formatSeconds(samples / 16000)
}

/** A share in [0, 1] as a percentage with 3 significant digits (`42.1%`, `0.25%`); `< 0.01%` for tiny non-zero shares. */
export function formatShare(share: number): string {
  if (!Number.isFinite(share)) return '—'
  if (share === 0) return '0%'
  const percent = share * 100
  if (Math.abs(percent) < 0.01) return share > 0 ? '< 0.01%' : '> −0.01%'
  return `${percent < 0 ? '−' : ''}${formatNumber(Math.abs(percent))}%`
}

/** A signed relative difference (`+12.5%`, `−0.3%`, `same` for exactly 0, `+< 0.01%` for a tiny non-zero one): never `+0%` or `−0%`. */
export function formatDifference(difference: number): string {
  if (!Number.isFinite(difference)) return '—'
  if (difference === 0) return 'same'
  const shown = formatShare(Math.abs(difference))
  return `${difference > 0 ? '+' : '−'}${shown}`
}

/** A probability or weight in [0, 1] (3 significant digits; scientific below 0.001, so `1.23e-5`). */
export function formatProbability(p: number): string {
  if (!Number.isFinite(p)) return '—'
  if (p === 0) return '0'
  return Math.abs(p) < 0.001 ? p.toExponential(2).replace('e-', 'e−') : sig3.format(p)
}

/** Bytes in B / kB / MB / GB / TB (powers of 1000, as network tools count), 3 significant digits. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—'
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 ? whole.format(value) : sig3.format(value)} ${units[unit]}`
}

/** Milliseconds as `850 ms`, `2.4 s` or `3.1 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—'
  return ms < 1000 ? `${Math.round(ms)} ms` : formatSeconds(ms / 1000)
}

/** The exact value for a `title` or a copy: the shortest text that reads back as the same float64, with its unit. */
export function exactText(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return ''
  if (!Number.isFinite(value)) return String(value)
  return `${String(value)}${unit ? ` ${unit}` : ''}`
}

/** `1 row` / `2 rows` (the count formatted). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}
