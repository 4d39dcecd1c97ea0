/**
 * One look for every chart, light and dark: colours come from the CSS custom properties of styles.css (the
 * categorical palette `--cat-1`…`--cat-8`, severities, splits), tooltips and cursors use the panel colours so they
 * stay readable in the dark theme.
 */
import type { CSSProperties } from 'react'

/** The categorical palette (Okabe–Ito order), as CSS variables: `categorical(i)` for series `i`. */
export function categorical(i: number): string {
  return `var(--cat-${(i % 8) + 1})`
}

/** The colour of a split (train, dev, test, other). */
export function splitColour(split: string): string {
  return split === 'train' ? 'var(--split-train)' : split === 'dev' || split === 'valid' || split === 'validation' ? 'var(--split-dev)' : split === 'test' ? 'var(--split-test)' : 'var(--split-other)'
}

const tooltipBox: CSSProperties = {
  background: 'var(--panel)', border: '1px solid var(--border)', borderRadius: 6, color: 'var(--fg)', fontSize: 'var(--text-sm)',
  boxShadow: 'var(--shadow)', padding: '6px 10px',
}

/** Props for every recharts `<Tooltip>`: readable in both themes, a soft hover band. */
export const tooltipProps = {
  contentStyle: tooltipBox,
  itemStyle: { color: 'var(--fg)', padding: 0 },
  labelStyle: { color: 'var(--fg)', fontWeight: 600, marginBottom: 2 },
  cursor: { fill: 'var(--hover)' },
  isAnimationActive: false,
} as const

/** Axis tick style. */
export const tickStyle = { fill: 'var(--muted)', fontSize: 12 } as const

/** Props for a recharts `<Legend>`. */
export const legendProps = { wrapperStyle: { color: 'var(--fg)', fontSize: 'var(--text-sm)' } } as const
