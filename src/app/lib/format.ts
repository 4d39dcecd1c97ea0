/** Number formatting for the UI (English, grouped). Full-precision values go in `title`/`data-value` attributes. */

const significant = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 })
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 })

/** Hours with 4 significant digits (`0.01235`, `12.35`, `1,235`). */
export function formatHours(hours: number): string {
  return Number.isFinite(hours) ? significant.format(hours) : '—'
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return integer.format(n)
}

/** A share in [0, 1] as a percentage. */
export function formatShare(share: number): string {
  return Number.isFinite(share) ? percent.format(share) : '—'
}

/** Bytes in B / KB / MB / GB (powers of 1000, as network tools count). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`
}

/** Milliseconds as `850 ms` or `2.4 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}
